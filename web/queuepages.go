package web

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/report"
	"github.com/gavelhq/gavel/store"
)

// The queues' pages: the list with the new queue's form, and a queue's
// page with its progress, agreement, items and the forms that change it.

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
