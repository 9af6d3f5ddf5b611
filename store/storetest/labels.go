package storetest

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

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

// testLabelChecks reads the labels on a suite's judgments beside the
// judgments: the verdicts', and those of parts of a verdict (a judge of
// a jury); other suites' labels are left out.
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
	score := func(t gavel.Trial) *float64 { // the judge's own score, not the verdict's mean
		if j, ok := gavel.ScoredJudgment(t.Verdict); ok {
			if v, ok := j.Normalized(); ok {
				return &v
			}
		}
		return nil
	}
	jury := 0.75 // the fixture jury's score
	want := []gavel.LabelCheck{
		{RunID: desk.ID, CaseID: "case_001", Trial: 1, Status: judge.StatusPass, Score: score(passing), ModelJudged: true, Correct: true,
			Author: "grace", Created: storedTime(at(1)), JudgeCategory: "pass"},
		{RunID: desk.ID, CaseID: "case_002", Trial: 1, Status: judge.StatusFail, Score: score(failing), ModelJudged: true, Correct: false,
			HumanScore: &human, Author: "ada", Comment: "it did fail", Created: storedTime(at(2)), JudgeCategory: "fail"},
		{RunID: desk.ID, CaseID: "case_001", Trial: 1, Judgment: "tiered/jury", Status: judge.StatusPass, Score: &jury, ModelJudged: true,
			Author: "ada", Created: storedTime(at(3)), JudgeCategory: "pass"},
	}
	got, err := s.LabelChecks(ctx, store.LabelFilter{Suite: "support-desk"})
	check(t, "LabelChecks", err)
	diff(t, "LabelChecks of support-desk", got, want)

	every, err := s.LabelChecks(ctx, store.LabelFilter{})
	check(t, "LabelChecks", err)
	if len(every) != 4 {
		t.Errorf("LabelChecks of every suite: %d, want 4", len(every))
	}
	none, err := s.LabelChecks(ctx, store.LabelFilter{Suite: "nowhere"})
	check(t, "LabelChecks", err)
	diff(t, "LabelChecks of a suite without runs", none, []gavel.LabelCheck(nil), equateEmpty)
}

// testLabelsOnePerPerson: a person relabelling a judgment replaces their
// label; 50 identical labels by one person on one trial are one label,
// not a calibration over 50.
func testLabelsOnePerPerson(t *testing.T, s store.Store) {
	ctx := ctx(t)
	info, err := s.CreateRun(ctx, runInfo("support-desk", base))
	check(t, "CreateRun", err)
	check(t, "SaveTrial", s.SaveTrial(ctx, info.ID, store.TrialRecord{Trial: trial("case_001", 1, trialSpec{})}))
	for i := range 50 {
		_, err := s.AddLabel(ctx, store.Label{RunID: info.ID, CaseID: "case_001", Trial: 1, Verdict: "correct", Author: "ada",
			Created: base.Add(time.Duration(i) * time.Minute)})
		check(t, "AddLabel", err)
	}
	checks, err := s.LabelChecks(ctx, store.LabelFilter{Suite: "support-desk"})
	check(t, "LabelChecks", err)
	if c := gavel.Calibrate(checks); c.Labels != 1 || c.Counted != 1 || c.Verdict() != "too few labels" {
		t.Errorf("50 identical labels by one person: %d labels, %d counted, %q; want 1, 1, too few labels", c.Labels, c.Counted, c.Verdict())
	}
	labels, err := s.Labels(ctx, info.ID)
	check(t, "Labels", err)
	if len(labels) != 1 {
		t.Errorf("Labels: %d current labels, want 1", len(labels))
	}
}

// testLabelVersions: a label is edited by labelling again, deleted, and
// its earlier versions are kept in the history, not counted; labels of
// other people and other judgments stay; an import is all or nothing.
func testLabelVersions(t *testing.T, s store.Store) {
	ctx := ctx(t)
	info, err := s.CreateRun(ctx, runInfo("support-desk", base))
	check(t, "CreateRun", err)
	check(t, "SaveTrial", s.SaveTrial(ctx, info.ID, store.TrialRecord{Trial: trial("case_001", 1, trialSpec{})}))
	at := func(m int) time.Time { return base.Add(time.Duration(m) * time.Minute) }
	add := func(l store.Label) store.Label {
		t.Helper()
		l.RunID, l.CaseID, l.Trial = info.ID, "case_001", 1
		got, err := s.AddLabel(ctx, l)
		check(t, "AddLabel", err)
		return got
	}
	first := add(store.Label{Category: "fail", Author: "ada", Created: at(1)})
	edited := add(store.Label{Category: " PASS ", Comment: "on second reading", Author: "ada", Created: at(2)})
	if edited.ID == first.ID || edited.Category != "pass" {
		t.Errorf("edit: id %d (first %d), category %q; want a new id, pass", edited.ID, first.ID, edited.Category)
	}
	// Saying the same again changes nothing.
	if again := add(store.Label{Category: "pass", Comment: "on second reading", Author: "ada", Created: at(3)}); again.ID != edited.ID {
		t.Errorf("the same label again: id %d, want the current %d", again.ID, edited.ID)
	}
	grace := add(store.Label{Category: "fail", Author: "grace", Created: at(4)})
	tone := add(store.Label{Judgment: "tiered/jury/tone", Category: "warm", Author: "ada", Created: at(5)})
	// An older label (an import of an earlier version) goes into the
	// history at once.
	older := add(store.Label{Category: "fail", Comment: "an old note", Author: "grace", Created: at(0)})
	if older.Replaced.IsZero() {
		t.Errorf("an older label: current, want it in the history")
	}

	current, err := s.Labels(ctx, info.ID)
	check(t, "Labels", err)
	if len(current) != 3 || current[0].ID != edited.ID || current[1].ID != grace.ID || current[2].ID != tone.ID {
		t.Errorf("current labels: %+v, want ada's edit, grace's and ada's on tone", current)
	}
	checks, err := s.LabelChecks(ctx, store.LabelFilter{Suite: "support-desk"})
	check(t, "LabelChecks", err)
	if len(checks) != 3 {
		t.Errorf("LabelChecks: %d, want 3 (the current labels)", len(checks))
	}
	if c := checks[len(checks)-1]; c.Judgment != "tiered/jury/tone" || c.JudgeCategory != "warm" || c.HumanCategory != "warm" || !c.Agrees() {
		t.Errorf("a label on the jury's tone judge: %+v, want warm against warm", c)
	}
	verdicts, err := s.LabelChecks(ctx, store.LabelFilter{Judgment: "."})
	check(t, "LabelChecks", err)
	if len(verdicts) != 2 {
		t.Errorf("LabelChecks of verdicts alone: %d, want 2", len(verdicts))
	}
	since, err := s.LabelChecks(ctx, store.LabelFilter{LabelsSince: at(3)})
	check(t, "LabelChecks", err)
	if len(since) != 2 {
		t.Errorf("LabelChecks of labels since minute 3: %d, want 2", len(since))
	}
	later, err := s.LabelChecks(ctx, store.LabelFilter{RunsSince: base.Add(time.Hour)})
	check(t, "LabelChecks", err)
	if len(later) != 0 {
		t.Errorf("LabelChecks of runs started an hour later: %d, want 0", len(later))
	}

	check(t, "DeleteLabel", s.DeleteLabel(ctx, grace.ID))
	wantNotFound(t, "DeleteLabel of a deleted label", s.DeleteLabel(ctx, grace.ID))
	wantNotFound(t, "DeleteLabel of a replaced label", s.DeleteLabel(ctx, first.ID))
	wantNotFound(t, "DeleteLabel of no label", s.DeleteLabel(ctx, 1<<40))
	current, err = s.Labels(ctx, info.ID)
	check(t, "Labels", err)
	if len(current) != 2 {
		t.Errorf("after a delete: %d current labels, want 2", len(current))
	}

	history, err := s.LabelHistory(ctx, info.ID)
	check(t, "LabelHistory", err)
	type version struct {
		id       int64
		replaced bool
		deleted  bool
	}
	var got []version
	for _, l := range history {
		got = append(got, version{l.ID, !l.Replaced.IsZero(), l.Deleted})
	}
	want := []version{{older.ID, true, false}, {first.ID, true, false}, {edited.ID, false, false}, {grace.ID, true, true}, {tone.ID, false, false}}
	diff(t, "LabelHistory", got, want, cmp.AllowUnexported(version{}))
	if r := history[1].Replaced; !r.Equal(storedTime(at(2))) {
		t.Errorf("the first label was replaced at %v, want when the edit was made (%v)", r, at(2))
	}

	// A batch with a bad label records nothing.
	_, err = s.AddLabels(ctx, []store.Label{
		{RunID: info.ID, CaseID: "case_001", Trial: 1, Category: "fail", Author: "bob"},
		{RunID: info.ID, CaseID: "case_001", Trial: 9, Category: "fail", Author: "bob"},
	})
	wantNotFound(t, "AddLabels with a label of no trial", err)
	after, err := s.LabelHistory(ctx, info.ID)
	check(t, "LabelHistory", err)
	if len(after) != len(history) {
		t.Errorf("a failed batch left %d labels, want %d", len(after), len(history))
	}
	for _, bad := range []store.Label{
		{RunID: info.ID, CaseID: "case_001", Trial: 1, Category: "pass", Verdict: "correct"},
		{RunID: info.ID, CaseID: "case_001", Trial: 1, Category: "two\nlines"},
	} {
		if _, err := s.AddLabel(ctx, bad); err == nil {
			t.Errorf("AddLabel(%+v): no error", bad)
		}
	}
}

// cachedTrial is a trial whose judges' answers all came from Gavel's
// cache: each model judgment records its call, answered by the cache,
// and no tokens.
func cachedTrial(caseID string, n int) gavel.Trial {
	tr := trial(caseID, n, trialSpec{})
	var uncache func(j *judge.Judgment)
	uncache = func(j *judge.Judgment) {
		if j.Usage.Calls > 0 || j.Usage.Tokens() > 0 {
			j.Usage = judge.Usage{Calls: max(j.Usage.Calls, 1), CacheHits: max(j.Usage.Calls, 1)}
		}
		for i := range j.Parts {
			uncache(&j.Parts[i])
		}
	}
	uncache(&tr.Verdict)
	tr.Usage.Judge = tr.Verdict.Usage
	return tr
}

// testLabelsOnTheScale: a label must name a judgment the trial's verdict
// has, with a category of that judgment's scale (issue 22: maybe, win, 7
// and 0.5 on a pass/fail verdict were recorded and changed the kappa; a
// label on a path the verdict lacks was recorded and never counted); a
// batch with such a label records nothing. A judgment Gavel's cache
// answered is a model's: its labels count (108 labels, 2 counted).
func testLabelsOnTheScale(t *testing.T, s store.Store) {
	ctx := ctx(t)
	info, err := s.CreateRun(ctx, runInfo("support-desk", base))
	check(t, "CreateRun", err)
	check(t, "SaveTrial", s.SaveTrial(ctx, info.ID, store.TrialRecord{Trial: trial("case_001", 1, trialSpec{})}))
	check(t, "SaveTrial", s.SaveTrial(ctx, info.ID, store.TrialRecord{Trial: cachedTrial("case_002", 1)}))
	label := func(judgment, category string) store.Label {
		return store.Label{RunID: info.ID, CaseID: "case_001", Trial: 1, Judgment: judgment, Category: category, Author: "ada"}
	}
	for _, tc := range []struct {
		name  string
		label store.Label
		want  string
	}{
		{"maybe on the verdict", label("", "maybe"), `"maybe" is not a category of the verdict: pass or fail`},
		{"win on the verdict", label("", "win"), `"win" is not a category of the verdict`},
		{"7 on the verdict", label("", "7"), `"7" is not a category of the verdict`},
		{"0.5 on the verdict", label("", "0.5"), `"0.5" is not a category of the verdict`},
		{"7 of 1..5", label("tiered/jury/helpfulness", "7"), `"7" is not a category of judgment "tiered/jury/helpfulness": pass, fail, 1, 2, 3, 4 or 5`},
		{"hot on cold or warm", label("tiered/jury/tone", "hot"), `pass, fail, cold or warm`},
		{"a judgment the verdict lacks", label("tiered/jury/nobody", "pass"), `the verdict has no judgment "tiered/jury/nobody"`},
		{"correct on a judgment the verdict lacks", store.Label{RunID: info.ID, CaseID: "case_001", Trial: 1, Judgment: "jury", Verdict: "correct"}, `no judgment "jury"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.AddLabel(ctx, tc.label)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("AddLabel: got error %v, want one saying %q", err, tc.want)
			}
		})
	}
	_, err = s.AddLabels(ctx, []store.Label{label("tiered/jury/helpfulness", "4"), label("", "maybe")})
	var le *store.LabelError
	if !errors.As(err, &le) || le.Index != 1 {
		t.Errorf("AddLabels with an off-scale second label: %v, want a LabelError of label 1", err)
	}
	labels, err := s.Labels(ctx, info.ID)
	check(t, "Labels", err)
	if len(labels) != 0 {
		t.Errorf("after refused labels: %d labels, want none", len(labels))
	}

	for _, l := range []store.Label{
		label("", " PASS "), label("tiered/jury/helpfulness", "4.0"), label("tiered/jury/tone", "cold"),
		{RunID: info.ID, CaseID: "case_002", Trial: 1, Category: "fail", Author: "ada"},
		{RunID: info.ID, CaseID: "case_002", Trial: 1, Judgment: "tiered/jury/tone", Category: "warm", Author: "ada"},
	} {
		_, err := s.AddLabel(ctx, l)
		check(t, "AddLabel "+l.Judgment+" "+l.Category, err)
	}
	checks, err := s.LabelChecks(ctx, store.LabelFilter{Suite: "support-desk"})
	check(t, "LabelChecks", err)
	var cached []gavel.LabelCheck
	for _, c := range checks {
		if c.CaseID == "case_002" {
			cached = append(cached, c)
		}
	}
	if len(cached) != 2 || !cached[0].ModelJudged || !cached[1].ModelJudged {
		t.Errorf("labels on judgments Gavel's cache answered: %+v, want 2, model-judged", cached)
	}
	if c := gavel.Calibrate(checks); c.Labels != 5 || c.Counted != 5 {
		t.Errorf("Calibrate: %d labels, %d counted; want 5, 5", c.Labels, c.Counted)
	}
}
