package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
)

// A Queue is an annotation queue: the trials a filter of judgments chose
// (its items), for people to label, each item by LabelsPerItem people.
// A person works a queue an item at a time (Queues.NextQueueItem gives
// each their next item, never one they labelled), and labels the item's
// verdict as anywhere else (Store.AddLabel): the queue's progress and
// the agreement among its labellers are read from those labels.
type Queue struct {
	// ID is set by CreateQueue.
	ID int64
	// Name names the queue; no two queues share one.
	Name        string
	Description string
	// Filter chose the queue's items, at its creation and at each
	// RefreshQueue.
	Filter QueueFilter
	// Assignees are the people asked to label the items (users' names),
	// in the order given.
	Assignees []string
	// LabelsPerItem is how many people should label each item: an item
	// with that many labels on its verdict is done, and offered to no one
	// else. Defaults to 1.
	LabelsPerItem int
	// CreatedBy is who made the queue; Created, when (set by CreateQueue).
	CreatedBy string
	Created   time.Time
	// Items is how many items the queue holds, as read.
	Items int
}

// MaxQueueItems is the most items a queue holds: a queue is work for
// people, not a copy of the store.
const MaxQueueItems = 2000

// MaxLabelsPerItem is the most people a queue may ask to label an item.
const MaxLabelsPerItem = 10

// A QueueFilter chooses the trials of a queue by their runs and their
// verdicts; zero fields choose everything. Items come newest run first,
// each run's cases in its order, trials by number.
type QueueFilter struct {
	// Suite keeps the trials of that suite's runs.
	Suite string `json:"suite,omitempty"`
	// Run keeps the trials of one run, by its id.
	Run string `json:"run,omitempty"`
	// Since and Until keep the trials of runs started at or after Since
	// and before Until.
	Since time.Time `json:"since,omitzero"`
	Until time.Time `json:"until,omitzero"`
	// Verdicts keeps the trials whose verdict has one of these statuses
	// (FAIL, ABSTAIN, ERROR, PASS).
	Verdicts []judge.Status `json:"verdicts,omitempty"`
	// Judge keeps the trials whose verdict has a judge of that name, or
	// at that path ("tone", "tiered/jury/tone"; see gavel.HasJudge).
	Judge string `json:"judge,omitempty"`
	// Unsure keeps the trials where a model judge was unsure (see
	// gavel.Unsure): its score near its line, or its samples disagreed.
	Unsure bool `json:"unsure,omitempty"`
	// Disagreeing keeps the trials whose jury's members disagreed (see
	// gavel.JuryDisagrees).
	Disagreeing bool `json:"disagreeing,omitempty"`
	// Limit is the most items the queue holds. Defaults to (and may not
	// exceed) MaxQueueItems.
	Limit int `json:"limit,omitempty"`
}

// IsZero reports whether f is the zero filter, which chooses everything.
func (f QueueFilter) IsZero() bool {
	return f.Suite == "" && f.Run == "" && f.Since.IsZero() && f.Until.IsZero() && len(f.Verdicts) == 0 &&
		f.Judge == "" && !f.Unsure && !f.Disagreeing && f.Limit == 0
}

// ReadsVerdicts reports whether the filter chooses by what is inside a
// verdict (Judge, Unsure, Disagreeing), which a store reads by opening
// the verdict, not by its columns.
func (f QueueFilter) ReadsVerdicts() bool { return f.Judge != "" || f.Unsure || f.Disagreeing }

// Matches reports whether a trial's verdict is one f keeps: its status
// among Verdicts, and Judge, Unsure and Disagreeing, when they are set.
// The trial's run is the store's to check (Suite, Run, Since, Until).
func (f QueueFilter) Matches(v judge.Judgment) bool {
	switch {
	case len(f.Verdicts) > 0 && !slices.Contains(f.Verdicts, v.Status):
		return false
	case f.Judge != "" && !gavel.HasJudge(v, f.Judge):
		return false
	case f.Unsure && !gavel.Unsure(v):
		return false
	case f.Disagreeing && !gavel.JuryDisagrees(v):
		return false
	}
	return true
}

// Check says what is wrong with a filter, in words that say what to fix;
// nil when nothing is.
func (f QueueFilter) Check() error {
	var errs []error
	for _, s := range f.Verdicts {
		if !s.Valid() {
			errs = append(errs, fmt.Errorf("verdict %q is not one of PASS, FAIL, ABSTAIN and ERROR", s))
		}
	}
	if !f.Since.IsZero() && !f.Until.IsZero() && !f.Until.After(f.Since) {
		errs = append(errs, fmt.Errorf("runs until %s come before runs since %s: no run can be both", f.Until.Format(time.DateOnly), f.Since.Format(time.DateOnly)))
	}
	if f.Limit < 0 || f.Limit > MaxQueueItems {
		errs = append(errs, fmt.Errorf("limit %d is not from 1 to %d items", f.Limit, MaxQueueItems))
	}
	return errors.Join(errs...)
}

// MaxItems is the most items the filter puts in a queue: Limit, or
// MaxQueueItems.
func (f QueueFilter) MaxItems() int {
	if f.Limit > 0 {
		return f.Limit
	}
	return MaxQueueItems
}

// String says in words what the filter keeps: "FAIL or ERROR verdicts of
// suite support-desk, run 20261121-044512-b2b9fb, with a judge tone".
func (f QueueFilter) String() string {
	what := "every verdict"
	if len(f.Verdicts) > 0 {
		names := make([]string, len(f.Verdicts))
		for i, s := range f.Verdicts {
			names[i] = string(s)
		}
		what = strings.Join(names, " or ") + " verdicts"
	}
	parts := []string{what}
	if f.Suite != "" {
		parts = append(parts, "of suite "+f.Suite)
	}
	if f.Run != "" {
		parts = append(parts, "of run "+f.Run)
	}
	if !f.Since.IsZero() {
		parts = append(parts, "of runs since "+f.Since.UTC().Format(time.DateOnly))
	}
	if !f.Until.IsZero() {
		parts = append(parts, "of runs before "+f.Until.UTC().Format(time.DateOnly))
	}
	if f.Judge != "" {
		parts = append(parts, "with a judge "+f.Judge)
	}
	if f.Unsure {
		parts = append(parts, "where a model judge was unsure")
	}
	if f.Disagreeing {
		parts = append(parts, "where a jury disagreed")
	}
	if f.Limit > 0 {
		parts = append(parts, fmt.Sprintf("(at most %d)", f.Limit))
	}
	return strings.Join(parts, ", ")
}

// A QueueItem is one trial of a queue, to be labelled on its verdict.
type QueueItem struct {
	// Position is the item's place in its queue, from 1.
	Position int
	RunID    string
	CaseID   string
	Trial    int
	// Labels are the current labels on the trial's verdict (judgment
	// ""), by whoever gave them, oldest first.
	Labels []Label
}

// LabelledBy reports whether person has a current label on the item.
func (it QueueItem) LabelledBy(person string) bool {
	return slices.ContainsFunc(it.Labels, func(l Label) bool { return l.Author == person })
}

// Queues is a Store that keeps annotation queues.
type Queues interface {
	// CreateQueue records a queue and fills it with the trials its
	// filter chooses now (at most its filter's MaxItems), and returns it
	// with its ID, creation time and Items set. A name taken is an error
	// wrapping ErrExists; an unknown Filter.Run, ErrNotFound.
	CreateQueue(ctx context.Context, q Queue) (Queue, error)
	// UpdateQueue changes a queue's name, description, assignees and
	// labels per item (its filter and items stay), and returns it.
	UpdateQueue(ctx context.Context, q Queue) (Queue, error)
	// RefreshQueue adds to a queue the trials its filter chooses now that
	// it does not hold yet (runs since its creation), after its items, up
	// to its filter's MaxItems; it returns how many it added.
	RefreshQueue(ctx context.Context, id int64) (int, error)
	// DeleteQueue deletes a queue and its items; the labels given in it
	// stay, as they are the trials'.
	DeleteQueue(ctx context.Context, id int64) error
	// Queue returns a queue; ErrNotFound when there is none of that id.
	Queue(ctx context.Context, id int64) (Queue, error)
	// ListQueues returns every queue, newest first.
	ListQueues(ctx context.Context) ([]Queue, error)
	// QueueItems returns a queue's items in order, each with the current
	// labels on its verdict.
	QueueItems(ctx context.Context, id int64) ([]QueueItem, error)
	// QueueItem returns one item of a queue by its position.
	QueueItem(ctx context.Context, id int64, position int) (QueueItem, error)
	// NextQueueItem returns person's next item of a queue: the first
	// after position after (0 for the first) that they have not labelled
	// and that has fewer than its LabelsPerItem labels, going round to
	// the queue's start when there is none after it. ErrNotFound when
	// there is none: the queue is done, for them.
	NextQueueItem(ctx context.Context, id int64, person string, after int) (QueueItem, error)
}

// CheckQueue says what is wrong with a queue to be saved, in words that
// say what to fix; nil when nothing is. It sets LabelsPerItem's default
// and trims the names.
func CheckQueue(q *Queue) error {
	q.Name, q.Description = strings.TrimSpace(q.Name), strings.TrimSpace(q.Description)
	if q.LabelsPerItem == 0 {
		q.LabelsPerItem = 1
	}
	var errs []error
	switch {
	case q.Name == "":
		errs = append(errs, errors.New("a queue needs a name"))
	case len(q.Name) > 100 || strings.ContainsAny(q.Name, "\r\n\t"):
		errs = append(errs, fmt.Errorf("name %.40q is not a queue's name: one line of at most 100 characters", q.Name))
	}
	if q.LabelsPerItem < 1 || q.LabelsPerItem > MaxLabelsPerItem {
		errs = append(errs, fmt.Errorf("labels per item %d is not from 1 to %d", q.LabelsPerItem, MaxLabelsPerItem))
	}
	var people []string
	for _, a := range q.Assignees {
		a = strings.TrimSpace(a)
		switch {
		case a == "":
		case slices.Contains(people, a):
			errs = append(errs, fmt.Errorf("%s is assigned twice", a))
		default:
			people = append(people, a)
		}
	}
	q.Assignees = people
	if err := q.Filter.Check(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}
