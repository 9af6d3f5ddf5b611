package storetest

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/store"
)

// testQueues: a queue holds the trials its filter chose, newest run
// first; each person's next item is one they have not labelled and that
// has fewer labels than the queue asks for; its labels are the labels
// on its items' verdicts, wherever they were given.
func testQueues(t *testing.T, s store.Store) {
	qs, ok := s.(store.Queues)
	if !ok {
		t.Skipf("%T keeps no queues", s)
	}
	ctx := ctx(t)
	save := func(suite string, started time.Time, trials ...trialSpecOf) string {
		t.Helper()
		info, err := s.CreateRun(ctx, runInfo(suite, started))
		check(t, "CreateRun", err)
		for _, tr := range trials {
			check(t, "SaveTrial", s.SaveTrial(ctx, info.ID, store.TrialRecord{Trial: tr.trial()}))
		}
		return info.ID
	}
	fail, unsure := trialSpec{status: judge.StatusFail, helpfulness: 2}, trialSpec{status: judge.StatusFail, helpfulness: 3} // 3 is at its line
	older := save("desk", base, of("case_001", 1, trialSpec{}), of("case_002", 1, fail), of("case_002", 2, unsure))
	newer := save("desk", base.Add(time.Hour), of("case_001", 1, fail), erroring("case_003", 1))
	other := save("other", base.Add(2*time.Hour), of("c9", 1, fail))

	type at struct {
		run, caseID string
		n           int
	}
	items := func(id int64) []at {
		t.Helper()
		list, err := qs.QueueItems(ctx, id)
		check(t, "QueueItems", err)
		var out []at
		for i, it := range list {
			if it.Position != i+1 {
				t.Errorf("item %d at position %d", i+1, it.Position)
			}
			out = append(out, at{it.RunID, it.CaseID, it.Trial})
		}
		return out
	}
	for _, tc := range []struct {
		name   string
		filter store.QueueFilter
		want   []at
	}{
		{"fails and errors of a suite", store.QueueFilter{Suite: "desk", Verdicts: []judge.Status{judge.StatusFail, judge.StatusError}},
			[]at{{newer, "case_001", 1}, {newer, "case_003", 1}, {older, "case_002", 1}, {older, "case_002", 2}}},
		{"one run", store.QueueFilter{Run: older}, []at{{older, "case_001", 1}, {older, "case_002", 1}, {older, "case_002", 2}}},
		{"runs since", store.QueueFilter{Since: base.Add(30 * time.Minute), Until: base.Add(90 * time.Minute)}, []at{{newer, "case_001", 1}, {newer, "case_003", 1}}},
		{"an unsure judge", store.QueueFilter{Unsure: true}, []at{{older, "case_002", 2}}},
		{"a jury that disagreed, of a suite", store.QueueFilter{Suite: "desk", Disagreeing: true},
			[]at{{newer, "case_001", 1}, {older, "case_002", 1}, {older, "case_002", 2}}},
		{"a judge by name, at most 2", store.QueueFilter{Judge: "tiered/jury/tone", Limit: 2}, []at{{other, "c9", 1}, {newer, "case_001", 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q, err := qs.CreateQueue(ctx, store.Queue{Name: tc.name, Filter: tc.filter})
			check(t, "CreateQueue", err)
			diff(t, "items", items(q.ID), tc.want, cmp.AllowUnexported(at{}))
			if q.Items != len(tc.want) || q.LabelsPerItem != 1 {
				t.Errorf("CreateQueue: %d items, %d labels per item; want %d, 1", q.Items, q.LabelsPerItem, len(tc.want))
			}
		})
	}

	q, err := qs.CreateQueue(ctx, store.Queue{Name: " Fails ", Description: "Why did these fail?", CreatedBy: "ed",
		Filter: store.QueueFilter{Suite: "desk", Verdicts: []judge.Status{judge.StatusFail, judge.StatusError}}, Assignees: []string{"ada", "bob"}, LabelsPerItem: 2})
	check(t, "CreateQueue", err)
	if _, err := qs.CreateQueue(ctx, store.Queue{Name: "Fails"}); !errors.Is(err, store.ErrExists) {
		t.Errorf("a second queue named Fails: %v, want ErrExists", err)
	}
	if _, err := qs.CreateQueue(ctx, store.Queue{Name: "nowhere", Filter: store.QueueFilter{Run: "no-such-run"}}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a queue of a run not there: %v, want ErrNotFound", err)
	}
	if _, err := qs.CreateQueue(ctx, store.Queue{Name: "maybe", Filter: store.QueueFilter{Verdicts: []judge.Status{"MAYBE"}}}); err == nil {
		t.Error("a queue of MAYBE verdicts was created")
	}
	read, err := qs.Queue(ctx, q.ID)
	check(t, "Queue", err)
	want := store.Queue{ID: q.ID, Name: "Fails", Description: "Why did these fail?", CreatedBy: "ed", Created: q.Created, Items: 4,
		Filter: store.QueueFilter{Suite: "desk", Verdicts: []judge.Status{judge.StatusFail, judge.StatusError}}, Assignees: []string{"ada", "bob"}, LabelsPerItem: 2}
	diff(t, "Queue", read, want)
	if q.Created.IsZero() {
		t.Error("CreateQueue set no creation time")
	}
	all, err := qs.ListQueues(ctx)
	check(t, "ListQueues", err)
	if len(all) != 7 || all[0].Name != "Fails" {
		t.Errorf("ListQueues: %d queues, the first %q; want 7, Fails", len(all), all[0].Name)
	}
	_, err = qs.Queue(ctx, q.ID+100)
	wantNotFound(t, "Queue of an unknown id", err)

	// Working the queue: each person's next item.
	next := func(person string, after, want int) {
		t.Helper()
		it, err := qs.NextQueueItem(ctx, q.ID, person, after)
		switch {
		case want == 0:
			wantNotFound(t, "NextQueueItem of "+person+", done", err)
		case err != nil:
			t.Errorf("NextQueueItem(%s, after %d): %v, want item %d", person, after, err, want)
		case it.Position != want:
			t.Errorf("NextQueueItem(%s, after %d) = item %d, want %d", person, after, it.Position, want)
		}
	}
	list, err := qs.QueueItems(ctx, q.ID)
	check(t, "QueueItems", err)
	label := func(person string, item int, category string) {
		t.Helper()
		it := list[item-1]
		_, err := s.AddLabel(ctx, store.Label{RunID: it.RunID, CaseID: it.CaseID, Trial: it.Trial, Category: category, Author: person})
		check(t, "AddLabel", err)
	}
	next("ada", 0, 1)
	label("ada", 1, "fail")
	next("ada", 0, 2)
	next("bob", 0, 1) // one label of two
	label("bob", 1, "pass")
	next("carol", 0, 2) // item 1 has its two labels
	// A label on a judge of the verdict is not the item's label.
	_, err = s.AddLabel(ctx, store.Label{RunID: list[2].RunID, CaseID: list[2].CaseID, Trial: list[2].Trial, Judgment: "tiered/jury/tone", Category: "warm", Author: "ada"})
	check(t, "AddLabel on a judge", err)
	next("ada", 2, 3)       // skipping 2
	next("ada", 4, 2)       // round to the start
	label("ada", 1, "pass") // relabelled: still one label of ada's
	for _, item := range []int{2, 3, 4} {
		label("ada", item, "fail")
	}
	next("ada", 0, 0)
	one, err := qs.QueueItem(ctx, q.ID, 1)
	check(t, "QueueItem", err)
	if len(one.Labels) != 2 || one.Labels[0].Author != "bob" || one.Labels[1].Author != "ada" || one.Labels[1].Category != "pass" || !one.LabelledBy("ada") || one.LabelledBy("carol") {
		t.Errorf("item 1's labels: %+v, want bob's, then ada's pass", one.Labels)
	}
	_, err = qs.QueueItem(ctx, q.ID, 99)
	wantNotFound(t, "QueueItem 99", err)

	// The queue's labels for agreement: those on its items alone.
	_, err = s.AddLabel(ctx, store.Label{RunID: older, CaseID: "case_001", Trial: 1, Category: "pass", Author: "bob"})
	check(t, "AddLabel outside the queue", err)
	checks, err := s.LabelChecks(ctx, store.LabelFilter{Queue: q.ID, Judgment: "."})
	check(t, "LabelChecks of the queue", err)
	if len(checks) != 5 {
		t.Errorf("LabelChecks of the queue: %d, want 5 (ada's 4, bob's 1)", len(checks))
	}

	// Changing who labels, and how many times.
	q.Name, q.Assignees, q.LabelsPerItem = "Fails, once", []string{"bob", "carol"}, 1
	changed, err := qs.UpdateQueue(ctx, q)
	check(t, "UpdateQueue", err)
	if changed.Name != "Fails, once" || len(changed.Assignees) != 2 || changed.Assignees[1] != "carol" || changed.LabelsPerItem != 1 || changed.Items != 4 {
		t.Errorf("UpdateQueue: %+v", changed)
	}
	next("carol", 0, 0) // every item has its one label
	q.Name = "one run"
	if _, err := qs.UpdateQueue(ctx, q); !errors.Is(err, store.ErrExists) {
		t.Errorf("renamed to another queue's name: %v, want ErrExists", err)
	}
	_, err = qs.UpdateQueue(ctx, store.Queue{ID: q.ID + 100, Name: "x"})
	wantNotFound(t, "UpdateQueue of an unknown id", err)

	// A run since: a refresh adds its trials, once.
	latest := save("desk", base.Add(3*time.Hour), of("case_001", 1, fail), of("case_002", 1, trialSpec{}))
	added, err := qs.RefreshQueue(ctx, q.ID)
	check(t, "RefreshQueue", err)
	again, err := qs.RefreshQueue(ctx, q.ID)
	check(t, "RefreshQueue again", err)
	if added != 1 || again != 0 {
		t.Errorf("RefreshQueue added %d, then %d; want 1, 0", added, again)
	}
	if got := items(q.ID); len(got) != 5 || got[4] != (at{latest, "case_001", 1}) {
		t.Errorf("after the refresh: %v", got)
	}

	check(t, "DeleteQueue", qs.DeleteQueue(ctx, q.ID))
	_, err = qs.Queue(ctx, q.ID)
	wantNotFound(t, "Queue after DeleteQueue", err)
	wantNotFound(t, "DeleteQueue again", qs.DeleteQueue(ctx, q.ID))
	if labels, err := s.Labels(ctx, newer); err != nil || len(labels) != 3 {
		t.Errorf("the labels given in a deleted queue: %d (%v), want 3 kept", len(labels), err)
	}
}

// A trialSpecOf is a fixture trial of a case.
type trialSpecOf struct {
	caseID string
	n      int
	spec   trialSpec
	errs   bool
}

func of(caseID string, n int, spec trialSpec) trialSpecOf {
	return trialSpecOf{caseID: caseID, n: n, spec: spec}
}

// erroring is a trial whose conversation did not complete: an ERROR.
func erroring(caseID string, n int) trialSpecOf { return trialSpecOf{caseID: caseID, n: n, errs: true} }

func (s trialSpecOf) trial() gavel.Trial {
	if s.errs {
		return errorTrial(s.caseID, s.n)
	}
	return trial(s.caseID, s.n, s.spec)
}
