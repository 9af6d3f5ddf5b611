package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/auth"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/report"
	"github.com/gavelhq/gavel/store"
)

// Annotation queues: a queue is a named filter of judgments (the trials
// it chose are its items), assigned to people, each item to be labelled
// by a number of them. /queues lists the queues, with their progress, and
// editors create them there; a queue's page shows its progress by person
// and how far its labellers agree (Cohen's kappa of two, Krippendorff's
// alpha of more); "Start labelling" opens the visitor's next item, one
// they have not labelled, on the review page: the case, the conversation,
// the judge's verdict and reasoning, and one label form for the verdict
// (the judges' on demand), with keyboard shortcuts (static/review.js)
// over plain forms that work without JavaScript. Other people's labels
// are not shown there, so that the agreement measures what each person
// saw for themselves.

// queueRoutes are the routes of the queues' pages and API.
func (s *Server) queueRoutes() []route {
	return []route{
		{"GET /queues", Viewer, s.page(s.queuesPage)},
		{"POST /queues", Editor, s.form(s.createQueue)},
		{"GET /queues/{id}", Viewer, s.page(s.queuePage)},
		{"POST /queues/{id}", Editor, s.form(s.updateQueue)},
		{"POST /queues/{id}/refresh", Editor, s.form(s.refreshQueue)},
		{"POST /queues/{id}/delete", Editor, s.form(s.deleteQueue)},
		{"GET /queues/{id}/next", Viewer, http.HandlerFunc(s.nextItem)},
		{"GET /queues/{id}/items/{n}", Viewer, s.page(s.reviewPage)},
		{"POST /queues/{id}/items/{n}/labels", Editor, s.form(s.labelItem)},

		{"GET /api/queues", Viewer, s.api(s.apiQueues)},
		{"POST /api/queues", Editor, s.api(s.apiCreateQueue)},
		{"GET /api/queues/{id}", Viewer, s.api(s.apiQueue)},
		{"PUT /api/queues/{id}", Editor, s.api(s.apiUpdateQueue)},
		{"DELETE /api/queues/{id}", Editor, s.api(s.apiDeleteQueue)},
		{"POST /api/queues/{id}/refresh", Editor, s.api(s.apiRefreshQueue)},
		{"GET /api/queues/{id}/items", Viewer, s.api(s.apiQueueItems)},
		{"GET /api/queues/{id}/next", Viewer, s.api(s.apiNextItem)},
	}
}

// queueStore is the store's queues; a store that keeps none is a 404.
func (s *Server) queueStore() (store.Queues, error) {
	qs, ok := s.store.(store.Queues)
	if !ok {
		return nil, errorf(http.StatusNotFound, "this store keeps no annotation queues")
	}
	return qs, nil
}

// loadQueue reads the queue of the request's {id}.
func (s *Server) loadQueue(r *http.Request) (store.Queues, store.Queue, error) {
	qs, err := s.queueStore()
	if err != nil {
		return nil, store.Queue{}, err
	}
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		return nil, store.Queue{}, errorf(http.StatusNotFound, "no queue %q", r.PathValue("id"))
	}
	q, err := qs.Queue(r.Context(), id)
	if err != nil {
		return nil, store.Queue{}, notFound(err, "no queue %d", id)
	}
	return qs, q, nil
}

// queueHref is a queue's page.
func queueHref(id int64) string { return fmt.Sprintf("/queues/%d", id) }

// itemHref is an item's review page.
func itemHref(id int64, position int) string { return fmt.Sprintf("/queues/%d/items/%d", id, position) }

// nextHref is where the visitor's next item after position is.
func nextHref(id int64, after int) string { return fmt.Sprintf("/queues/%d/next?after=%d", id, after) }

// A QueueInput is the body of POST /api/queues and PUT /api/queues/{id},
// and what the queue form sends.
type QueueInput struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// Filter chooses the queue's items; a PUT leaves it out (a queue's
	// filter does not change).
	Filter store.QueueFilter `json:"filter,omitzero"`
	// Assignees are the people asked to label, by their user names.
	Assignees []string `json:"assignees,omitempty"`
	// LabelsPerItem is how many people should label each item. Defaults
	// to 1.
	LabelsPerItem int `json:"labels_per_item,omitempty"`
}

// A QueueSummary is a queue as GET /api/queues lists it.
type QueueSummary struct {
	ID          int64             `json:"id"`
	Name        string            `json:"name"`
	Description string            `json:"description"`
	Filter      store.QueueFilter `json:"filter"`
	// Selects says in words what the filter chose.
	Selects       string        `json:"selects"`
	Assignees     []string      `json:"assignees"`
	LabelsPerItem int           `json:"labels_per_item"`
	CreatedBy     string        `json:"created_by"`
	Created       time.Time     `json:"created"`
	Progress      QueueProgress `json:"progress"`
}

// QueueProgress is how far a queue's labelling has got.
type QueueProgress struct {
	// Items is how many items the queue holds; Done, how many have their
	// LabelsPerItem labels.
	Items int `json:"items"`
	Done  int `json:"done"`
	// Given is how many labels count towards Needed, the items times the
	// labels per item (an item's labels beyond those count once).
	Given  int `json:"given"`
	Needed int `json:"needed"`
	// People are the assignees, in their order, then anyone else who
	// labelled an item, with how many items each labelled.
	People []PersonProgress `json:"people"`
}

// PersonProgress is how many of a queue's items one person labelled.
type PersonProgress struct {
	Name     string `json:"name"`
	Assigned bool   `json:"assigned"`
	Labelled int    `json:"labelled"`
}

// A QueueDetail is a queue as GET /api/queues/{id} gives it: its summary,
// and how far its labellers agree on its items' verdicts.
type QueueDetail struct {
	QueueSummary
	Agreement report.JSONPeopleAgreement `json:"agreement"`
}

// A QueueItem is an item of a queue as the API gives it.
type QueueItem struct {
	Position int    `json:"position"`
	RunID    string `json:"run_id"`
	CaseID   string `json:"case"`
	Trial    int    `json:"trial"`
	// Labels are the current labels on the trial's verdict.
	Labels []Label `json:"labels"`
	// Review is the item's review page.
	Review string `json:"review"`
}

// A QueueItemList is the answer of GET /api/queues/{id}/items.
type QueueItemList struct {
	Items []QueueItem `json:"items"`
}

// A NextItem is the answer of GET /api/queues/{id}/next: the visitor's
// next item, or none when they are done.
type NextItem struct {
	Done bool       `json:"done"`
	Item *QueueItem `json:"item"`
}

func newQueueItem(id int64, it store.QueueItem) QueueItem {
	out := QueueItem{Position: it.Position, RunID: it.RunID, CaseID: it.CaseID, Trial: it.Trial, Labels: []Label{}, Review: itemHref(id, it.Position)}
	for _, l := range it.Labels {
		out.Labels = append(out.Labels, newLabel(l))
	}
	return out
}

// progressOf measures a queue's progress over its items.
func progressOf(q store.Queue, items []store.QueueItem) QueueProgress {
	p := QueueProgress{Items: len(items), Needed: len(items) * q.LabelsPerItem}
	labelled := map[string]int{}
	var others []string
	for _, it := range items {
		p.Given += min(len(it.Labels), q.LabelsPerItem)
		if len(it.Labels) >= q.LabelsPerItem {
			p.Done++
		}
		for _, l := range it.Labels {
			if labelled[l.Author] == 0 && !slices.Contains(q.Assignees, l.Author) {
				others = append(others, l.Author)
			}
			labelled[l.Author]++
		}
	}
	for _, a := range q.Assignees {
		p.People = append(p.People, PersonProgress{Name: a, Assigned: true, Labelled: labelled[a]})
	}
	slices.Sort(others)
	for _, o := range others {
		p.People = append(p.People, PersonProgress{Name: o, Labelled: labelled[o]})
	}
	return p
}

// summaryOf is a queue's summary, its progress read from its items.
func (s *Server) summaryOf(ctx context.Context, qs store.Queues, q store.Queue) (QueueSummary, []store.QueueItem, error) {
	items, err := qs.QueueItems(ctx, q.ID)
	if err != nil {
		return QueueSummary{}, nil, err
	}
	return QueueSummary{ID: q.ID, Name: q.Name, Description: q.Description, Filter: q.Filter, Selects: q.Filter.String(),
		Assignees: append([]string{}, q.Assignees...), LabelsPerItem: q.LabelsPerItem, CreatedBy: q.CreatedBy, Created: q.Created,
		Progress: progressOf(q, items)}, items, nil
}

// agreementOf measures how far the people who labelled a queue's items
// agree on their verdicts.
func (s *Server) agreementOf(ctx context.Context, q store.Queue) (gavel.PeopleAgreement, error) {
	checks, err := s.store.LabelChecks(ctx, store.LabelFilter{Queue: q.ID, Judgment: "."})
	if err != nil {
		return gavel.PeopleAgreement{}, err
	}
	return gavel.AmongPeople(checks), nil
}

// saveQueue checks a queue sent by the form or the API and creates it
// (q.ID 0) or updates it.
func (s *Server) saveQueue(r *http.Request, q store.Queue) (store.Queue, error) {
	qs, err := s.queueStore()
	if err != nil {
		return store.Queue{}, err
	}
	if err := store.CheckQueue(&q); err != nil {
		return store.Queue{}, errorf(http.StatusUnprocessableEntity, "%s", strings.ReplaceAll(err.Error(), "\n", "; "))
	}
	if err := s.checkAssignees(r, q); err != nil {
		return store.Queue{}, err
	}
	var saved store.Queue
	if q.ID == 0 {
		q.CreatedBy = visitorName(r)
		saved, err = qs.CreateQueue(r.Context(), q)
	} else {
		saved, err = qs.UpdateQueue(r.Context(), q)
	}
	switch {
	case errors.Is(err, store.ErrExists):
		return store.Queue{}, errorf(http.StatusConflict, "a queue is named %q already: choose another name", q.Name)
	case errors.Is(err, store.ErrNotFound) && q.ID == 0:
		return store.Queue{}, errorf(http.StatusUnprocessableEntity, "there is no run %s: give the id of a stored run, or none", q.Filter.Run)
	case err != nil:
		return store.Queue{}, notFound(err, "no queue %d", q.ID)
	}
	return saved, nil
}

// checkAssignees refuses a queue whose assignees cannot label it, when
// the app knows its users: each must be a user whose role labels (an
// editor or an admin), not disabled, or, when the visitor is the local
// user of an app on loopback, that user ("local"). It also refuses more
// labels per item than there are people assigned.
func (s *Server) checkAssignees(r *http.Request, q store.Queue) error {
	if len(q.Assignees) > 0 && q.LabelsPerItem > len(q.Assignees) {
		return errorf(http.StatusUnprocessableEntity, "%d labels per item need at least %d people assigned, and %d are: assign more people, or ask for fewer labels",
			q.LabelsPerItem, q.LabelsPerItem, len(q.Assignees))
	}
	accounts, ok := s.store.(store.Accounts)
	if s.cfg.Auth == nil || !ok || len(q.Assignees) == 0 {
		return nil
	}
	users, err := accounts.Users(r.Context())
	if err != nil {
		return err
	}
	var labellers []string
	if v, ok := auth.VisitorFrom(r.Context()); ok && v.Local {
		labellers = append(labellers, v.User.Name)
	}
	for _, u := range users {
		if !u.Disabled && u.Role.AtLeast(store.Editor) {
			labellers = append(labellers, u.Name)
		}
	}
	for _, a := range q.Assignees {
		if !slices.Contains(labellers, a) {
			return errorf(http.StatusUnprocessableEntity, "%s cannot label: assign users whose role is editor or admin (%s)", a, strings.Join(labellers, ", "))
		}
	}
	return nil
}

// queuesData is queues.tmpl's data.
type queuesData struct {
	Queues []queueRow
	// Form is the new queue's form, for an editor; nil else.
	Form *queueForm
}

// queueRow is a queue in the list.
type queueRow struct {
	Href, Name, Selects string
	Assignees           string
	Progress            progressView
	// Mine says the visitor is assigned to it.
	Mine bool
}

// progressView is a queue's progress in words and a bar.
type progressView struct {
	// Items and Done say how many items are done: "3 of 12 items done".
	Items, Done int
	// Given and Needed count the labels, Percent their ratio (0..100),
	// for the bar.
	Given, Needed, Percent int
	People                 []PersonProgress
}

func newProgressView(p QueueProgress) progressView {
	v := progressView{Items: p.Items, Done: p.Done, Given: p.Given, Needed: p.Needed, People: p.People}
	if p.Needed > 0 {
		v.Percent = p.Given * 100 / p.Needed
	}
	return v
}

// queueForm is the form of a new queue, with what was typed.
type queueForm struct {
	Action, CSRF     string
	Name, Desc       string
	Suite, Run       string
	Since, Until     string
	Verdicts         []verdictChoice
	Judge, Limit     string
	Unsure, Disagree bool
	Assignees        string
	LabelsPerItem    string
	Suites           []string
	// Labellers are the users who may be assigned, when the app knows
	// its users.
	Labellers string
	Error     string
}

// verdictChoice is a checkbox of the form's verdicts.
type verdictChoice struct {
	Status  string
	Checked bool
}

// newQueueForm returns the form of a new queue, filled from a form sent.
func (s *Server) newQueueForm(r *http.Request, sent url.Values) (*queueForm, error) {
	f := &queueForm{Action: "/queues", CSRF: csrfOf(r), Name: sent.Get("name"), Desc: sent.Get("description"), Suite: sent.Get("suite"),
		Run: sent.Get("run"), Since: sent.Get("since"), Until: sent.Get("until"), Judge: sent.Get("judge"), Limit: sent.Get("limit"),
		Unsure: sent.Get("unsure") != "", Disagree: sent.Get("disagreeing") != "", Assignees: sent.Get("assignees"),
		LabelsPerItem: sent.Get("labels_per_item")}
	for _, st := range []judge.Status{judge.StatusFail, judge.StatusError, judge.StatusAbstain, judge.StatusPass} {
		f.Verdicts = append(f.Verdicts, verdictChoice{Status: string(st), Checked: slices.Contains(sent["verdict"], string(st))})
	}
	suites, err := s.knownSuites(r.Context())
	if err != nil {
		return nil, err
	}
	f.Suites = suites
	if accounts, ok := s.store.(store.Accounts); ok && s.cfg.Auth != nil {
		users, err := accounts.Users(r.Context())
		if err != nil {
			return nil, err
		}
		var names []string
		for _, u := range users {
			if !u.Disabled && u.Role.AtLeast(store.Editor) {
				names = append(names, u.Name)
			}
		}
		f.Labellers = strings.Join(names, ", ")
	}
	return f, nil
}

// queuesPage lists the queues: GET /queues.
func (s *Server) queuesPage(r *http.Request) (view, error) {
	qs, err := s.queueStore()
	if err != nil {
		return view{}, err
	}
	list, err := qs.ListQueues(r.Context())
	if err != nil {
		return view{}, err
	}
	var d queuesData
	me := visitorName(r)
	for _, q := range list {
		sum, _, err := s.summaryOf(r.Context(), qs, q)
		if err != nil {
			return view{}, err
		}
		d.Queues = append(d.Queues, queueRow{Href: queueHref(q.ID), Name: oneLine(q.Name), Selects: oneLine(sum.Selects),
			Assignees: oneLine(strings.Join(q.Assignees, ", ")), Progress: newProgressView(sum.Progress), Mine: slices.Contains(q.Assignees, me)})
	}
	if canEdit(r) {
		if d.Form, err = s.newQueueForm(r, url.Values{}); err != nil {
			return view{}, err
		}
	}
	return view{template: "queues.tmpl", title: "Queues", nav: "queues", data: d}, nil
}

// createQueue creates a queue from the form: POST /queues. It goes to the
// queue's page, or shows the form again with what is wrong.
func (s *Server) createQueue(r *http.Request) (string, view, error) {
	if err := r.ParseForm(); err != nil {
		return "", view{}, errorf(http.StatusBadRequest, "the form could not be read: %v", err)
	}
	q, problem := queueFromForm(r.PostForm)
	var saved store.Queue
	err := problem
	if err == nil {
		saved, err = s.saveQueue(r, q)
	}
	var he *httpError
	if errors.As(err, &he) && (he.status == http.StatusUnprocessableEntity || he.status == http.StatusConflict) {
		form, ferr := s.newQueueForm(r, r.PostForm)
		if ferr != nil {
			return "", view{}, ferr
		}
		form.Error = he.message
		return "", view{template: "queues.tmpl", title: "Queues", nav: "queues", data: queuesData{Form: form}, status: he.status}, nil
	}
	if err != nil {
		return "", view{}, err
	}
	return queueHref(saved.ID), view{}, nil
}

// queueFromForm reads a queue from the form's fields.
func queueFromForm(f url.Values) (store.Queue, error) {
	q := store.Queue{Name: f.Get("name"), Description: f.Get("description"), Assignees: splitNames(f.Get("assignees"))}
	q.Filter = store.QueueFilter{Suite: strings.TrimSpace(f.Get("suite")), Run: strings.TrimSpace(f.Get("run")), Judge: strings.TrimSpace(f.Get("judge")),
		Unsure: f.Get("unsure") != "", Disagreeing: f.Get("disagreeing") != ""}
	for _, v := range f["verdict"] {
		q.Filter.Verdicts = append(q.Filter.Verdicts, judge.Status(v))
	}
	for _, d := range []struct {
		field string
		to    *time.Time
	}{{"since", &q.Filter.Since}, {"until", &q.Filter.Until}} {
		if text := strings.TrimSpace(f.Get(d.field)); text != "" {
			t, err := time.Parse(time.DateOnly, text)
			if err != nil {
				return q, errorf(http.StatusUnprocessableEntity, "%s %q is not a date: write it as 2026-11-21", d.field, text)
			}
			*d.to = t
		}
	}
	for _, n := range []struct {
		field string
		to    *int
	}{{"limit", &q.Filter.Limit}, {"labels_per_item", &q.LabelsPerItem}} {
		if text := strings.TrimSpace(f.Get(n.field)); text != "" {
			v, err := strconv.Atoi(text)
			if err != nil {
				return q, errorf(http.StatusUnprocessableEntity, "%s %q is not a whole number", strings.ReplaceAll(n.field, "_", " "), text)
			}
			*n.to = v
		}
	}
	return q, nil
}

// splitNames splits a list of names separated by commas or spaces.
func splitNames(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\n' || r == '\r' || r == '\t' })
}

// queueData is queue.tmpl's data.
type queueData struct {
	ID                          int64
	Name, Description           string
	Selects, CreatedBy          string
	Created                     string
	LabelsPerItem               int
	Progress                    progressView
	NextHref, Done              string
	Assigned                    bool
	Agreement                   agreementView
	Items                       []itemRow
	Edit                        *queueForm
	RefreshAction, DeleteAction string
	CSRF                        string
	API                         string
}

// agreementView is how far a queue's labellers agree, in words.
type agreementView struct {
	// Summary says how many people labelled how many items twice or more.
	Summary string
	// Pairs are every two people's agreement: "ada and bob: 11 of 12
	// (91.7%), kappa 0.80 (0.55 to 0.95)".
	Pairs []string
	// Alpha is Krippendorff's alpha of three people or more; "" else.
	Alpha string
}

// itemRow is an item in the queue's list.
type itemRow struct {
	Position        int
	Href, Case      string
	RunID, Labels   string
	Done, LabelMine bool
}

// queuePage is a queue's page: GET /queues/{id}.
func (s *Server) queuePage(r *http.Request) (view, error) {
	qs, q, err := s.loadQueue(r)
	if err != nil {
		return view{}, err
	}
	sum, items, err := s.summaryOf(r.Context(), qs, q)
	if err != nil {
		return view{}, err
	}
	agreement, err := s.agreementOf(r.Context(), q)
	if err != nil {
		return view{}, err
	}
	me := visitorName(r)
	d := queueData{ID: q.ID, Name: oneLine(q.Name), Description: clean(q.Description), Selects: oneLine(sum.Selects), CreatedBy: oneLine(q.CreatedBy),
		Created: stamp(q.Created), LabelsPerItem: q.LabelsPerItem, Progress: newProgressView(sum.Progress), NextHref: nextHref(q.ID, 0),
		Assigned: slices.Contains(q.Assignees, me), Agreement: newAgreementView(agreement), API: fmt.Sprintf("/api/queues/%d", q.ID)}
	if r.URL.Query().Get("done") != "" {
		d.Done = "You have labelled every item this queue asks of you."
	}
	for _, it := range items {
		row := itemRow{Position: it.Position, Href: itemHref(q.ID, it.Position), Case: oneLine(fmt.Sprintf("%s#%d", it.CaseID, it.Trial)),
			RunID: oneLine(it.RunID), Done: len(it.Labels) >= q.LabelsPerItem, LabelMine: it.LabelledBy(me),
			Labels: fmt.Sprintf("%d of %d", len(it.Labels), q.LabelsPerItem)}
		d.Items = append(d.Items, row)
	}
	if canEdit(r) {
		d.CSRF = csrfOf(r)
		d.RefreshAction, d.DeleteAction = queueHref(q.ID)+"/refresh", queueHref(q.ID)+"/delete"
		d.Edit = &queueForm{Action: queueHref(q.ID), CSRF: d.CSRF, Name: q.Name, Desc: q.Description,
			Assignees: strings.Join(q.Assignees, ", "), LabelsPerItem: strconv.Itoa(q.LabelsPerItem)}
	}
	return view{template: "queue.tmpl", title: "Queue " + d.Name, nav: "queues", data: d}, nil
}

func newAgreementView(a gavel.PeopleAgreement) agreementView {
	items := "items have"
	if a.Items == 1 {
		items = "item has"
	}
	v := agreementView{Summary: fmt.Sprintf("%d people labelled; %d %s two labels or more.", a.People, a.Items, items)}
	for _, p := range a.Pairs {
		v.Pairs = append(v.Pairs, report.RaterLine(p))
	}
	if len(a.Alpha) > 0 {
		v.Alpha = fmt.Sprintf("%s; Krippendorff's, of %d people at once over %d items", report.Coefficients(a.Alpha), a.People, a.Items)
	}
	return v
}

// updateQueue changes a queue's name, description, assignees and labels
// per item from the queue page's form: POST /queues/{id}.
func (s *Server) updateQueue(r *http.Request) (string, view, error) {
	_, q, err := s.loadQueue(r)
	if err != nil {
		return "", view{}, err
	}
	if err := r.ParseForm(); err != nil {
		return "", view{}, errorf(http.StatusBadRequest, "the form could not be read: %v", err)
	}
	changed, err := queueFromForm(r.PostForm)
	if err != nil {
		return "", view{}, err
	}
	q.Name, q.Description, q.Assignees, q.LabelsPerItem = changed.Name, changed.Description, changed.Assignees, changed.LabelsPerItem
	if _, err := s.saveQueue(r, q); err != nil {
		return "", view{}, err
	}
	return queueHref(q.ID), view{}, nil
}

// refreshQueue adds what the queue's filter chooses now: POST
// /queues/{id}/refresh.
func (s *Server) refreshQueue(r *http.Request) (string, view, error) {
	qs, q, err := s.loadQueue(r)
	if err != nil {
		return "", view{}, err
	}
	if _, err := qs.RefreshQueue(r.Context(), q.ID); err != nil {
		return "", view{}, err
	}
	return queueHref(q.ID), view{}, nil
}

// deleteQueue deletes a queue (its labels stay): POST /queues/{id}/delete.
func (s *Server) deleteQueue(r *http.Request) (string, view, error) {
	qs, q, err := s.loadQueue(r)
	if err != nil {
		return "", view{}, err
	}
	if err := qs.DeleteQueue(r.Context(), q.ID); err != nil {
		return "", view{}, err
	}
	return "/queues", view{}, nil
}

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
