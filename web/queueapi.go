package web

import (
	"net/http"

	"github.com/gavelhq/gavel/report"
	"github.com/gavelhq/gavel/store"
)

// The API of annotation queues: scripts list, create, change and delete
// queues, read their progress, agreement and items, and find a person's
// next item; labels are given as anywhere else (POST
// /api/runs/{id}/cases/{case}/labels).

// apiQueues lists the queues, newest first, with their progress: GET
// /api/queues.
func (s *Server) apiQueues(r *http.Request) (any, error) {
	qs, err := s.queueStore()
	if err != nil {
		return nil, err
	}
	list, err := qs.ListQueues(r.Context())
	if err != nil {
		return nil, err
	}
	out := struct {
		Queues []QueueSummary `json:"queues"`
	}{Queues: []QueueSummary{}}
	for _, q := range list {
		sum, _, err := s.summaryOf(r.Context(), qs, q)
		if err != nil {
			return nil, err
		}
		out.Queues = append(out.Queues, sum)
	}
	return out, nil
}

// apiCreateQueue creates a queue and fills it from its filter: POST
// /api/queues. It answers 201 with the queue.
func (s *Server) apiCreateQueue(r *http.Request) (any, error) {
	var in QueueInput
	if err := readJSON(r, &in); err != nil {
		return nil, err
	}
	saved, err := s.saveQueue(r, store.Queue{Name: in.Name, Description: in.Description, Filter: in.Filter,
		Assignees: in.Assignees, LabelsPerItem: in.LabelsPerItem})
	if err != nil {
		return nil, err
	}
	detail, err := s.queueDetail(r, saved)
	if err != nil {
		return nil, err
	}
	return created{status: http.StatusCreated, location: "/api" + queueHref(saved.ID), body: detail}, nil
}

// queueDetail is a queue with its progress and its labellers' agreement.
func (s *Server) queueDetail(r *http.Request, q store.Queue) (QueueDetail, error) {
	qs, err := s.queueStore()
	if err != nil {
		return QueueDetail{}, err
	}
	sum, _, err := s.summaryOf(r.Context(), qs, q)
	if err != nil {
		return QueueDetail{}, err
	}
	a, err := s.agreementOf(r.Context(), q)
	if err != nil {
		return QueueDetail{}, err
	}
	return QueueDetail{QueueSummary: sum, Agreement: report.NewJSONPeopleAgreement(a)}, nil
}

// apiQueue is a queue, its progress and its labellers' agreement: GET
// /api/queues/{id}.
func (s *Server) apiQueue(r *http.Request) (any, error) {
	_, q, err := s.loadQueue(r)
	if err != nil {
		return nil, err
	}
	return s.queueDetail(r, q)
}

// apiUpdateQueue changes a queue's name, description, assignees and
// labels per item: PUT /api/queues/{id}. Its filter does not change.
func (s *Server) apiUpdateQueue(r *http.Request) (any, error) {
	_, q, err := s.loadQueue(r)
	if err != nil {
		return nil, err
	}
	var in QueueInput
	if err := readJSON(r, &in); err != nil {
		return nil, err
	}
	if !in.Filter.IsZero() {
		return nil, errorf(http.StatusUnprocessableEntity, "a queue's filter does not change: leave filter out, or create a new queue")
	}
	q.Name, q.Description, q.Assignees, q.LabelsPerItem = in.Name, in.Description, in.Assignees, in.LabelsPerItem
	saved, err := s.saveQueue(r, q)
	if err != nil {
		return nil, err
	}
	return s.queueDetail(r, saved)
}

// apiDeleteQueue deletes a queue; the labels given in it stay: DELETE
// /api/queues/{id}.
func (s *Server) apiDeleteQueue(r *http.Request) (any, error) {
	qs, q, err := s.loadQueue(r)
	if err != nil {
		return nil, err
	}
	if err := qs.DeleteQueue(r.Context(), q.ID); err != nil {
		return nil, err
	}
	return struct {
		Deleted int64 `json:"deleted"`
	}{q.ID}, nil
}

// apiRefreshQueue adds the trials the queue's filter chooses now that it
// does not hold yet: POST /api/queues/{id}/refresh.
func (s *Server) apiRefreshQueue(r *http.Request) (any, error) {
	qs, q, err := s.loadQueue(r)
	if err != nil {
		return nil, err
	}
	added, err := qs.RefreshQueue(r.Context(), q.ID)
	if err != nil {
		return nil, err
	}
	return struct {
		Added int `json:"added"`
	}{added}, nil
}

// apiQueueItems lists a queue's items with the labels on their
// verdicts: GET /api/queues/{id}/items.
func (s *Server) apiQueueItems(r *http.Request) (any, error) {
	qs, q, err := s.loadQueue(r)
	if err != nil {
		return nil, err
	}
	items, err := qs.QueueItems(r.Context(), q.ID)
	if err != nil {
		return nil, err
	}
	out := QueueItemList{Items: []QueueItem{}}
	for _, it := range items {
		out.Items = append(out.Items, newQueueItem(q.ID, it))
	}
	return out, nil
}

// apiNextItem is the visitor's next item of a queue: GET
// /api/queues/{id}/next?after=N; {"done": true, "item": null} when there
// is none.
func (s *Server) apiNextItem(r *http.Request) (any, error) {
	q, it, ok, err := s.next(r)
	switch {
	case err != nil:
		return nil, err
	case !ok:
		return NextItem{Done: true}, nil
	}
	item := newQueueItem(q.ID, it)
	return NextItem{Item: &item}, nil
}
