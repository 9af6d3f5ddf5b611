package web

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/store"
)

// The review page of a queue's item, and the way from one item to the
// visitor's next.

// afterOf reads the ?after= of a next request: the position the visitor
// leaves; 0 without one.
func afterOf(r *http.Request) (int, error) {
	text := r.URL.Query().Get("after")
	if text == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(text)
	if err != nil || n < 0 {
		return 0, errorf(http.StatusBadRequest, "after %q is not an item's position", text)
	}
	return n, nil
}

// next finds the visitor's next item of the request's queue; ok is false
// when they are done.
func (s *Server) next(r *http.Request) (store.Queue, store.QueueItem, bool, error) {
	qs, q, err := s.loadQueue(r)
	if err != nil {
		return store.Queue{}, store.QueueItem{}, false, err
	}
	after, err := afterOf(r)
	if err != nil {
		return store.Queue{}, store.QueueItem{}, false, err
	}
	it, err := qs.NextQueueItem(r.Context(), q.ID, visitorName(r), after)
	if errors.Is(err, store.ErrNotFound) {
		return q, store.QueueItem{}, false, nil
	}
	return q, it, err == nil, err
}

// nextItem goes to the visitor's next item: GET /queues/{id}/next?after=N
// (N the item they leave, skipped or labelled). When they are done, it
// goes to the queue's page, which says so.
func (s *Server) nextItem(w http.ResponseWriter, r *http.Request) {
	q, it, ok, err := s.next(r)
	switch {
	case err != nil:
		s.page(func(*http.Request) (view, error) { return view{}, err }).ServeHTTP(w, r)
	case !ok:
		http.Redirect(w, r, queueHref(q.ID)+"?done=1", http.StatusSeeOther)
	default:
		http.Redirect(w, r, itemHref(q.ID, it.Position), http.StatusSeeOther)
	}
}

// reviewData is review.tmpl's data.
type reviewData struct {
	QueueHref, QueueName     string
	Position, Items          int
	RunID, RunHref, CaseHref string
	CaseID, CaseName         string
	Input, Expected          string
	Trial                    trialView
	// Mine is what the visitor said of the verdict, if they labelled it.
	Mine string
	// SkipHref is the visitor's next item after this one, unlabelled.
	SkipHref string
	Progress string
}

// reviewPage is an item of a queue to label: GET /queues/{id}/items/{n}.
// It shows the case, the conversation, the verdict with the judges'
// reasoning, and the visitor's label forms; not other people's labels.
func (s *Server) reviewPage(r *http.Request) (view, error) {
	qs, q, err := s.loadQueue(r)
	if err != nil {
		return view{}, err
	}
	position, err := strconv.Atoi(r.PathValue("n"))
	if err != nil {
		return view{}, errorf(http.StatusNotFound, "queue %d has no item %q", q.ID, r.PathValue("n"))
	}
	it, err := qs.QueueItem(r.Context(), q.ID, position)
	if err != nil {
		return view{}, notFound(err, "queue %d has no item %d", q.ID, position)
	}
	sc, err := s.loadCase(r.Context(), it.RunID, it.CaseID)
	if err != nil {
		return view{}, err
	}
	var tr *gavel.Trial
	for i := range sc.Result.Trials {
		if sc.Result.Trials[i].N == it.Trial {
			tr = &sc.Result.Trials[i]
		}
	}
	if tr == nil {
		return view{}, errorf(http.StatusNotFound, "run %s has no trial %d of case %s", it.RunID, it.Trial, it.CaseID)
	}
	me := visitorName(r)
	d := reviewData{QueueHref: queueHref(q.ID), QueueName: oneLine(q.Name), Position: position, Items: q.Items,
		RunID: oneLine(it.RunID), RunHref: runHref(it.RunID), CaseID: oneLine(it.CaseID),
		CaseHref: fmt.Sprintf("%s#trial-%d", caseResultHref(it.RunID, it.CaseID), it.Trial), SkipHref: nextHref(q.ID, position)}
	if c := sc.Result.Case; c != nil {
		d.CaseName, d.Input, d.Expected = oneLine(c.Name), clean(c.Input()), clean(c.Expected)
	}
	// The visitor's own labels only: the agreement is of what each person
	// saw for themselves.
	all, err := s.labelsOf(r, it.RunID, it.CaseID)
	if err != nil {
		return view{}, err
	}
	var mine []labelView
	for _, l := range all[it.Trial] {
		if l.Author == me {
			mine = append(mine, l)
		}
	}
	d.Trial = newTrialView(*tr, len(sc.Result.Trials))
	d.Trial.N = tr.N
	d.Trial.Verdict.withLabels(mine)
	if canEdit(r) {
		forms := labelForms(d.Trial.Verdict, labelForm{Action: itemHref(q.ID, position) + "/labels", CSRF: csrfOf(r), Trial: tr.N}, me)
		d.Trial.Label, d.Trial.Judges = &forms[0], forms[1:]
		d.Mine = forms[0].Mine
	}
	if items, err := qs.QueueItems(r.Context(), q.ID); err == nil {
		labelled := 0
		for _, other := range items {
			if other.LabelledBy(me) {
				labelled++
			}
		}
		d.Progress = fmt.Sprintf("you have labelled %d of its %d items", labelled, len(items))
	}
	return view{template: "review.tmpl", title: fmt.Sprintf("%s: item %d of %d", d.QueueName, position, q.Items), nav: "queues", data: d}, nil
}

// labelItem labels a judgment of a queue's item, as the case's page does:
// POST /queues/{id}/items/{n}/labels. A label on the verdict goes on to
// the visitor's next item; one on a judge comes back to the item.
func (s *Server) labelItem(r *http.Request) (string, view, error) {
	qs, q, err := s.loadQueue(r)
	if err != nil {
		return "", view{}, err
	}
	position, err := strconv.Atoi(r.PathValue("n"))
	if err != nil {
		return "", view{}, errorf(http.StatusNotFound, "queue %d has no item %q", q.ID, r.PathValue("n"))
	}
	it, err := qs.QueueItem(r.Context(), q.ID, position)
	if err != nil {
		return "", view{}, notFound(err, "queue %d has no item %d", q.ID, position)
	}
	in := LabelInput{Trial: it.Trial, Judgment: r.PostFormValue("judgment"), Category: r.PostFormValue("category"), Comment: r.PostFormValue("comment")}
	if text := strings.TrimSpace(r.PostFormValue("score")); text != "" {
		score, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return "", view{}, errorf(http.StatusUnprocessableEntity, "score %q is not a number from 0 to 1: go back and fix it", text)
		}
		in.Score = &score
	}
	if in.Category == "" {
		return "", view{}, errorf(http.StatusUnprocessableEntity, "choose a category (pass, fail...) to label the %s, or skip the item", judgmentWord(in.Judgment))
	}
	if _, err := s.saveLabel(r, it.RunID, it.CaseID, in); err != nil {
		return "", view{}, err
	}
	if strings.TrimSpace(in.Judgment) != "" {
		return itemHref(q.ID, position) + "#judges", view{}, nil
	}
	return nextHref(q.ID, position), view{}, nil
}

// judgmentWord names a judgment in a message: "verdict", or its path.
func judgmentWord(path string) string {
	if strings.TrimSpace(path) == "" {
		return "verdict"
	}
	return "judgment " + path
}
