package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/internal/golden"
	"github.com/gavelhq/gavel/judge"
)

// comparisonFixture compares two runs of the support desk that differ in
// every way a comparison shows. The head is the report fixture's run
// with one more case; the base, the run before the change, is the same
// run but:
//
//   - case_001 failed (a fix);
//   - case_005 and case_004 passed (regressions: the head fails one and
//     is flaky on the other);
//   - case_003 passed (errored: the head timed out);
//   - case_006 ran and passed (not compared: the head skipped it);
//   - case_007 was flaky (changed: the head fails it every time);
//   - case_008, the hostile one, did not exist (added);
//   - case_002 existed, with a criterion of its own (removed);
//   - case_009 passed in both (unchanged), scored by a new criterion in
//     the head only.
func comparisonFixture(t *testing.T) gavel.Comparison {
	t.Helper()
	head := fixture(t)
	head.Cases = append(head.Cases, politeCase(true))

	base := fixture(t)
	byID := map[string]*gavel.CaseResult{}
	for i := range base.Cases {
		byID[base.Cases[i].ID()] = &base.Cases[i]
	}
	byID["case_001"].Trials[0].Verdict = traitsFailure()
	byID["case_005"].Trials[0].Verdict = passed()
	byID["case_003"].Trials[0].Verdict = passed()
	for i := range byID["case_004"].Trials {
		byID["case_004"].Trials[i].Verdict = passed()
	}
	byID["case_006"].Trials = []gavel.Trial{trial("case_006", 1, 900,
		transcript("look up 12345 and cancel it", agentTurn(1, "Shall I cancel order 12345?")), passed())}
	byID["case_007"].Trials = append(byID["case_007"].Trials, byID["case_007"].Trials[0])
	byID["case_007"].Trials[0].Verdict = passed()
	byID["case_007"].Trials[1].N = 2

	var cases []gavel.CaseResult
	for _, cr := range base.Cases {
		switch cr.ID() {
		case "case_008":
			continue
		case "case_003":
			cases = append(cases, cr, removedCase())
			continue
		}
		cases = append(cases, cr)
	}
	base.Cases = append(cases, politeCase(false))
	for i := range base.Cases {
		base.Cases[i].Summarize()
	}
	return gavel.Compare(base, head)
}

// removedCase is case_002, in the base only, scored by a criterion of
// its own.
func removedCase() gavel.CaseResult {
	c := &gavel.Case{ID: "case_002", Name: "refund policy", Script: prompts("can I get a refund?")}
	v := judge.Judgment{Name: "tiered", Status: judge.StatusPass, Score: judge.Unit(1), Parts: []judge.Judgment{
		{Name: "round 1: refund policy cited", Status: judge.StatusPass, Score: mustNumber(4, 1, 5), Reasoning: "cites the 30-day policy"},
	}}
	return gavel.CaseResult{Case: c, Trials: []gavel.Trial{
		trial("case_002", 1, 1000, transcript("can I get a refund?", agentTurn(1, "Within 30 days, yes.")), v),
	}}
}

// politeCase is case_009, which passes in both runs; the head's judges
// also score its politeness.
func politeCase(head bool) gavel.CaseResult {
	c := &gavel.Case{ID: "case_009", Name: "greeting", Script: prompts("hi")}
	v := judge.Judgment{Name: "all", Status: judge.StatusPass, Score: judge.Unit(1), Parts: []judge.Judgment{
		{Name: "round 1: replies", Status: judge.StatusPass, Score: judge.Bool(true)},
	}}
	if head {
		v.Parts = append(v.Parts, judge.Judgment{Name: "round 1: politeness", Status: judge.StatusPass, Score: mustNumber(9, 1, 10)})
	}
	cr := gavel.CaseResult{Case: c, Trials: []gavel.Trial{trial("case_009", 1, 500, transcript("hi", agentTurn(1, "Hello! How can I help?")), v)}}
	cr.Summarize()
	return cr
}

// comparisonOptions are the labels the CLI would pass.
var comparisonOptions = ComparisonOptions{BaseLabel: "main@4f2a9c1", HeadLabel: "run 20261121-093000", Version: "v0.1.0"}

// writeComparison writes c in format f.
func writeComparison(t *testing.T, f Format, c gavel.Comparison, opts ComparisonOptions) string {
	t.Helper()
	var b bytes.Buffer
	if err := WriteComparison(&b, f, c, opts); err != nil {
		t.Fatalf("WriteComparison(%s): %v", f, err)
	}
	return b.String()
}

// The fixture lands one case in every list: if it did not, the golden
// files would not show every section.
func TestComparisonFixture(t *testing.T) {
	c := comparisonFixture(t)
	got := map[string][]string{}
	for _, s := range comparisonSections(c) {
		for _, cc := range s.cases {
			got[s.key] = append(got[s.key], cc.ID)
		}
	}
	want := map[string][]string{
		"regressions":  {"case_005", "case_004"},
		"fixes":        {"case_001"},
		"changed":      {"case_007"},
		"errored":      {"case_003"},
		"not_compared": {"case_006"},
		"added":        {"case_008"},
		"removed":      {"case_002"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("lists (-want +got):\n%s", diff)
	}
	if c.Unchanged != 1 {
		t.Errorf("Unchanged = %d, want 1", c.Unchanged)
	}
	if len(c.Criteria) != 3 {
		t.Errorf("want 3 criteria (one in both, one gone, one new), got %+v", c.Criteria)
	}
}

func TestComparisonGolden(t *testing.T) {
	tests := []struct {
		name   string
		format Format
		opts   ComparisonOptions
	}{
		{"comparison-text", Text, comparisonOptions},
		{"comparison-markdown", Markdown, comparisonOptions},
		{"comparison-json", JSON, comparisonOptions},
		{"comparison-html", HTML, comparisonOptions},
		{"comparison-text-default-labels", Text, ComparisonOptions{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			golden.Check(t, tc.name, writeComparison(t, tc.format, comparisonFixture(t), tc.opts))
		})
	}
}

// Two runs that came out the same pass, and say so.
func TestComparisonWithoutChanges(t *testing.T) {
	run := fixture(t)
	c := gavel.Compare(run, fixture(t))
	text := writeComparison(t, Text, c, ComparisonOptions{})
	for _, want := range []string{
		"Compare base -> head: NO SIGNIFICANT CHANGE\n",
		"Pass rate: 27.8% -> 27.8% (no change)\n",
		"Cost:      $0.0425 -> $0.0425 (no change)\n",
		"Cases:     0 regressions, 1 errored, 1 not compared, 5 unchanged\n", // case_003 errored in both
		"| 0.75 | 0.75 | 0.00\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("want %q in:\n%s", want, text)
		}
	}
	if strings.Contains(text, "Regressions:") {
		t.Errorf("an empty section is shown:\n%s", text)
	}
	if md := writeComparison(t, Markdown, c, ComparisonOptions{}); !strings.HasPrefix(md, "## ✅ Compare: NO SIGNIFICANT CHANGE\n") {
		t.Errorf("Markdown heading:\n%s", md)
	}
}

// Names, ids, reasons and labels are untrusted: no format but JSON lets
// them add markup or control characters, and no Markdown table row gains
// a cell.
func TestComparisonEscapesHostileText(t *testing.T) {
	hostile := "<script>alert(1)</script> | **bold** `code` [link](http://x) $x$ \x1b[31mred\x1b[0m ]]>\nsecond line"
	side := gavel.CaseSide{Outcome: gavel.Failed, Trials: 1, Reason: hostile}
	pass := gavel.CaseSide{Outcome: gavel.Passed, Passed: 1, Trials: 1}
	change := gavel.CaseChange{ID: hostile, Name: hostile, Base: pass, Head: side}
	c := gavel.Comparison{
		Regressions: []gavel.CaseChange{change},
		Fixes:       []gavel.CaseChange{{ID: hostile, Name: hostile, Base: side, Head: pass}},
		NotCompared: []gavel.CaseChange{{ID: hostile, Name: hostile, Base: pass, Head: gavel.CaseSide{Outcome: gavel.Skipped, Reason: hostile}}},
		Added:       []gavel.CaseChange{{ID: hostile, Name: hostile, Head: side}},
		Criteria: []gavel.CriterionDelta{{Name: hostile,
			Base: gavel.CriterionStat{Name: hostile, Count: 1, Mean: 0.5, Min: 0.5},
			Head: gavel.CriterionStat{Name: hostile, Count: 1, Mean: 0.25, Min: 0.25}}},
	}
	// A real regression's details come from its result.
	cr := fixture(t).Cases[6] // case_008, whose reply is hostile
	cr.Case.Name = hostile
	c.Regressions = append(c.Regressions, gavel.CaseChange{ID: "case_008", Name: hostile, Base: pass, Head: gavel.CaseSide{Result: &cr, Outcome: cr.Outcome, Trials: 1, Reason: hostile}})
	opts := ComparisonOptions{BaseLabel: hostile, HeadLabel: hostile}

	for _, f := range []Format{Text, Markdown, HTML} {
		t.Run(string(f), func(t *testing.T) {
			out := writeComparison(t, f, c, opts)
			for _, r := range out {
				if r < 0x20 && r != '\n' && r != '\t' {
					t.Fatalf("the report holds control character %U", r)
				}
			}
			if f == Text {
				// A terminal reads no markup, but a line break in a name
				// or a reason would break a table's row.
				if strings.Contains(out, "\nsecond line") {
					t.Errorf("a line break came through:\n%s", out)
				}
				return
			}
			for _, bad := range []string{"<script", "<img"} {
				if strings.Contains(out, bad) {
					t.Errorf("%q came through:\n%s", bad, out)
				}
			}
			if f != Markdown {
				return
			}
			checkTables(t, out)
			for line := range strings.SplitSeq(out, "\n") {
				if strings.HasPrefix(line, "<details><summary>") {
					continue // HTML, where Markdown is not read: escaped as HTML
				}
				for _, bad := range []string{"**bold**", "[link]", " $x$", "`code`"} {
					if strings.Contains(line, bad) {
						t.Errorf("Markdown %q came through: %s", bad, line)
					}
				}
			}
		})
	}

	// JSON keeps the text exactly.
	var got JSONComparison
	if err := json.Unmarshal([]byte(writeComparison(t, JSON, c, opts)), &got); err != nil {
		t.Fatal(err)
	}
	if got.Regressions[0].Name != hostile || got.Regressions[0].Head.Reason != hostile || got.Base.Label != hostile {
		t.Errorf("the JSON report changed the text: %+v", got.Regressions[0])
	}
}

// The JSON comparison decodes into JSONComparison, gives back what was
// written, and keeps its documented shape: every field present, and null
// only where a run has nothing to say.
func TestComparisonJSON(t *testing.T) {
	c := comparisonFixture(t)
	out := writeComparison(t, JSON, c, comparisonOptions)

	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	var got JSONComparison
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("the report does not decode into JSONComparison: %v", err)
	}
	if diff := cmp.Diff(newJSONComparison(c, comparisonOptions), got); diff != "" {
		t.Errorf("the report does not round-trip (-wrote +read):\n%s", diff)
	}

	var top map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &top); err != nil {
		t.Fatal(err)
	}
	if got, want := string(top["schema_version"]), "1"; got != want {
		t.Errorf("schema_version is %s, want %s", got, want)
	}
	if got, want := string(top["kind"]), `"comparison"`; got != want {
		t.Errorf("kind is %s, want %s", got, want)
	}
	for _, key := range []string{"gavel_version", "base", "head", "has_regressions", "pass_rate_delta", "cost_usd_delta", "counts",
		"regressions", "fixes", "changed", "errored", "not_compared", "added", "removed", "criteria"} {
		if _, ok := top[key]; !ok {
			t.Errorf("the report has no %q", key)
		}
	}
	if got.Added[0].Base != nil || got.Removed[0].Head != nil {
		t.Errorf("a missing side is not null: added %+v, removed %+v", got.Added[0], got.Removed[0])
	}
	if skipped := got.NotCompared[0].Head; skipped == nil || skipped.PassRate != nil {
		t.Errorf("a skipped case's pass rate is not null: %+v", skipped)
	}

	empty := writeComparison(t, JSON, gavel.Compare(nil, nil), ComparisonOptions{})
	for _, key := range []string{"regressions", "fixes", "changed", "errored", "not_compared", "added", "removed", "criteria"} {
		if !strings.Contains(empty, `"`+key+`": []`) {
			t.Errorf("an empty %q is not []:\n%s", key, empty)
		}
	}
}

func TestWriteComparisonRefuses(t *testing.T) {
	var b bytes.Buffer
	err := WriteComparison(&b, JUnit, gavel.Comparison{}, ComparisonOptions{})
	if want := `write comparison: no comparison report in format "junit": want one of text, json, markdown, html`; err == nil || err.Error() != want {
		t.Errorf("got error %v, want %q", err, want)
	}
	if b.Len() != 0 {
		t.Errorf("wrote %q before failing", b.String())
	}
	err = WriteComparison(errWriter{}, Text, gavel.Comparison{}, ComparisonOptions{})
	if err == nil || err.Error() != "write text comparison: disk full" {
		t.Errorf("got %v, want the writer's error with context", err)
	}
}

func TestComparisonNumbers(t *testing.T) {
	tests := []struct {
		name, got, want string
	}{
		{"pass rate up", passRateChange(gavel.RateDelta{Base: new(0.5), Head: new(0.75)}, "->"), "50% -> 75% (+25 points)"},
		{"pass rate down", passRateChange(gavel.RateDelta{Base: new(0.8), Head: new(2.0 / 3)}, "->"), "80% -> 66.7% (-13.3 points)"},
		{"pass rate same", passRateChange(gavel.RateDelta{Base: new(0.5), Head: new(0.5)}, "->"), "50% -> 50% (no change)"},
		{"pass rate nearly same", passRateChange(gavel.RateDelta{Base: new(0.5), Head: new(0.4999)}, "->"), "50% -> 50% (no change)"},
		{"cost up", costChange(gavel.Delta{Base: 0.04, Head: 0.05}, gavel.Unpriced{}, "->"), "$0.0400 -> $0.0500 (+$0.0100)"},
		{"cost down", costChange(gavel.Delta{Base: 0.05, Head: 0.04}, gavel.Unpriced{}, "->"), "$0.0500 -> $0.0400 (-$0.0100)"},
		{"cost same", costChange(gavel.Delta{}, gavel.Unpriced{}, "->"), "$0.0000 -> $0.0000 (no change)"},
		{"cost unpriced", costChange(gavel.Delta{Base: 0.04, Head: 0.05}, gavel.Unpriced{Head: true}, "->"), "$0.0400 -> $0.0500 + unpriced (change unknown)"},
		{"score up", scoreChange(gavel.CriterionDelta{Base: gavel.CriterionStat{Count: 1, Mean: 0.5}, Head: gavel.CriterionStat{Count: 1, Mean: 0.7}}), "+0.20"},
		{"score down", scoreChange(gavel.CriterionDelta{Base: gavel.CriterionStat{Count: 1, Mean: 0.7}, Head: gavel.CriterionStat{Count: 1, Mean: 0.5}}), "-0.20"},
		{"score same", scoreChange(gavel.CriterionDelta{Base: gavel.CriterionStat{Count: 1, Mean: 0.7}, Head: gavel.CriterionStat{Count: 1, Mean: 0.699}}), "0.00"},
		{"score new", scoreChange(gavel.CriterionDelta{Head: gavel.CriterionStat{Count: 1}}), "new"},
		{"score gone", scoreChange(gavel.CriterionDelta{Base: gavel.CriterionStat{Count: 1}}), "gone"},
		{"side absent", sideCell(gavel.CaseSide{}), "-"},
		{"side skipped", sideCell(gavel.CaseSide{Outcome: gavel.Skipped}), "SKIPPED"},
		{"side flaky", sideCell(gavel.CaseSide{Outcome: gavel.Flaky, Passed: 2, Trials: 3, Judged: 3}), "FLAKY 2/3"},
		{"side not judged", sideCell(gavel.CaseSide{Outcome: gavel.Skipped, Trials: 1}), "SKIPPED not judged"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.got != tc.want {
				t.Errorf("got %q, want %q", tc.got, tc.want)
			}
		})
	}
}

// A comparison of two empty runs is still reported, in every format.
func TestComparisonOfEmptyRuns(t *testing.T) {
	for _, w := range comparisonWriters {
		t.Run(string(w.format), func(t *testing.T) {
			out := writeComparison(t, w.format, gavel.Compare(nil, nil), ComparisonOptions{})
			if !strings.Contains(out, "NO SIGNIFICANT CHANGE") || !strings.Contains(out, "nothing to test") && w.format != JSON {
				t.Errorf("no verdict:\n%s", out)
			}
		})
	}
}
