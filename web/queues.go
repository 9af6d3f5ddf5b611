package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/auth"
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
