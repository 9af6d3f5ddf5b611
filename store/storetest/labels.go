package storetest

import (
	"testing"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/store"
)

// testLabels labels judgments of a run's trials: they come back oldest
// first, survive the trial being saved again, and bad labels are refused.
func testLabels(t *testing.T, s store.Store) {
	ctx := ctx(t)
	info, err := s.CreateRun(ctx, runInfo("support-desk", base))
	check(t, "CreateRun", err)
	for _, tr := range []struct {
		caseID string
		n      int
	}{{"case_001", 1}, {"case_001", 2}, {"case_002", 1}} {
		check(t, "SaveTrial", s.SaveTrial(ctx, info.ID, store.TrialRecord{Trial: trial(tr.caseID, tr.n, trialSpec{})}))
	}
	score := 0.4
	past := time.Date(2020, 1, 2, 3, 4, 5, 6789, time.UTC) // before now, whatever the clock says
	labels := []store.Label{
		{RunID: info.ID, CaseID: "case_001", Trial: 2, Judgment: "tiered/jury/helpfulness", Verdict: "wrong", Score: &score,
			Comment: "it never asked for confirmation", Author: "ada", Created: past.Add(time.Hour)},
		{RunID: info.ID, CaseID: "case_001", Trial: 1, Verdict: "correct", Author: "grace", Created: past.Add(2 * time.Hour)},
		{RunID: info.ID, CaseID: "case_002", Trial: 1, Judgment: "tiered/all", Verdict: "correct", Author: "ada", Created: past.Add(3 * time.Hour)},
	}
	var want []store.Label
	ids := map[int64]bool{}
	for _, l := range labels {
		got, err := s.AddLabel(ctx, l)
		check(t, "AddLabel", err)
		if got.ID == 0 || ids[got.ID] {
			t.Errorf("AddLabel: ID %d, want a new one", got.ID)
		}
		ids[got.ID] = true
		l.ID, l.Created = got.ID, storedTime(l.Created)
		diff(t, "AddLabel", got, l)
		want = append(want, l)
	}
	now, err := s.AddLabel(ctx, store.Label{RunID: info.ID, CaseID: "case_002", Trial: 1, Verdict: "wrong"})
	check(t, "AddLabel", err)
	if now.Created.IsZero() || time.Since(now.Created) > time.Minute {
		t.Errorf("AddLabel without a time: created %v, want now", now.Created)
	}
	want = append(want, now)

	// Saving a trial again keeps its labels.
	check(t, "SaveTrial", s.SaveTrial(ctx, info.ID, store.TrialRecord{Trial: trial("case_001", 2, trialSpec{helpfulness: 2})}))

	got, err := s.Labels(ctx, info.ID)
	check(t, "Labels", err)
	diff(t, "Labels", got, want)

	other, err := s.CreateRun(ctx, runInfo("support-desk", base))
	check(t, "CreateRun", err)
	none, err := s.Labels(ctx, other.ID)
	check(t, "Labels", err)
	diff(t, "Labels of a run without", none, []store.Label(nil), equateEmpty)

	tooHigh, negative := 1.5, -0.1
	bad := []struct {
		name  string
		label store.Label
	}{
		{"no verdict", store.Label{RunID: info.ID, CaseID: "case_001", Trial: 1}},
		{"unknown verdict", store.Label{RunID: info.ID, CaseID: "case_001", Trial: 1, Verdict: "meh"}},
		{"score above 1", store.Label{RunID: info.ID, CaseID: "case_001", Trial: 1, Verdict: "wrong", Score: &tooHigh}},
		{"negative score", store.Label{RunID: info.ID, CaseID: "case_001", Trial: 1, Verdict: "wrong", Score: &negative}},
	}
	for _, b := range bad {
		if _, err := s.AddLabel(ctx, b.label); err == nil {
			t.Errorf("AddLabel with %s: no error, want one", b.name)
		}
	}
}

// testLabelChecks reads the labels on a suite's verdicts beside the
// verdicts: other suites' labels, and labels on parts of a verdict, are
// left out.
func testLabelChecks(t *testing.T, s store.Store) {
	ctx := ctx(t)
	desk, err := s.CreateRun(ctx, runInfo("support-desk", base))
	check(t, "CreateRun", err)
	other, err := s.CreateRun(ctx, runInfo("onboarding", base))
	check(t, "CreateRun", err)
	passing, failing := trial("case_001", 1, trialSpec{}), trial("case_002", 1, trialSpec{status: judge.StatusFail, helpfulness: 1})
	for _, tr := range []struct {
		runID string
		trial gavel.Trial
	}{{desk.ID, passing}, {desk.ID, failing}, {other.ID, passing}} {
		check(t, "SaveTrial", s.SaveTrial(ctx, tr.runID, store.TrialRecord{Trial: tr.trial}))
	}
	human := 0.2
	at := func(h int) time.Time { return base.Add(time.Duration(h) * time.Hour) }
	for _, l := range []store.Label{
		{RunID: desk.ID, CaseID: "case_002", Trial: 1, Verdict: "wrong", Score: &human, Comment: "it did fail", Author: "ada", Created: at(2)},
		{RunID: desk.ID, CaseID: "case_001", Trial: 1, Verdict: "correct", Author: "grace", Created: at(1)},
		{RunID: desk.ID, CaseID: "case_001", Trial: 1, Judgment: "tiered/jury", Verdict: "wrong", Author: "ada", Created: at(3)},
		{RunID: other.ID, CaseID: "case_001", Trial: 1, Verdict: "correct", Author: "ada", Created: at(4)},
	} {
		_, err := s.AddLabel(ctx, l)
		check(t, "AddLabel", err)
	}
	score := func(t gavel.Trial) *float64 {
		if v, ok := t.Verdict.Normalized(); ok {
			return &v
		}
		return nil
	}
	want := []gavel.LabelCheck{
		{RunID: desk.ID, CaseID: "case_001", Trial: 1, Status: judge.StatusPass, Score: score(passing), ModelJudged: true, Correct: true,
			Author: "grace", Created: storedTime(at(1))},
		{RunID: desk.ID, CaseID: "case_002", Trial: 1, Status: judge.StatusFail, Score: score(failing), ModelJudged: true, Correct: false,
			HumanScore: &human, Author: "ada", Comment: "it did fail", Created: storedTime(at(2))},
	}
	got, err := s.LabelChecks(ctx, "support-desk")
	check(t, "LabelChecks", err)
	diff(t, "LabelChecks of support-desk", got, want)

	every, err := s.LabelChecks(ctx, "")
	check(t, "LabelChecks", err)
	if len(every) != 3 {
		t.Errorf("LabelChecks of every suite: %d, want 3", len(every))
	}
	none, err := s.LabelChecks(ctx, "nowhere")
	check(t, "LabelChecks", err)
	diff(t, "LabelChecks of a suite without runs", none, []gavel.LabelCheck(nil), equateEmpty)
}
