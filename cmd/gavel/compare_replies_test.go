package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/report"
)

// repliesSuite writes a suite whose agent, a script chosen by $AGENT,
// answers two cases, and judges that play a pairwise judge: prefers.yaml
// prefers the reply that gives a day wherever it is shown, first.yaml
// always prefers the reply shown first. It returns the suite file.
func repliesSuite(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"gavel.yaml": `name: replies
agent:
  builtin:
    model: ${AGENT:-script:old.yaml}
    system_prompt: You are a support agent.
models: {judge: 'script:prefers.yaml'}
cases:
  - {id: lookup, input: 'where is my order?', rules: [{contains: order}]}
  - {id: hello, input: hi, rules: [{contains: Hello}]}
`,
		"old.yaml": `rules:
  - {when: {user: order}, text: Your order is on its way.}
  - {text: Hello!}
`,
		"new.yaml": `rules:
  - {when: {user: order}, text: Your order arrives on Monday.}
  - {text: Hello!}
`,
		"prefers.yaml": `rules:
  - {when: {text: '(?s)Response A:.*Monday.*Response B:'}, text: '{"reasoning": "A gives the day", "winner": "A"}'}
  - {text: '{"reasoning": "B gives the day", "winner": "B"}'}
`,
		"first.yaml": `rules:
  - {text: '{"reasoning": "the first is better", "winner": "A"}'}
`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "gavel.yaml")
}

// gavel compare shows the two runs' replies side by side, for the cases
// that differ (all with --all-replies), and with --pairwise tallies a
// pairwise judge's preferences: a judge that prefers the new reply gives
// it the win; one that always prefers the first shown gives a tie.
func TestCompareReplies(t *testing.T) {
	suite := repliesSuite(t)
	dir := filepath.Dir(suite)
	db := filepath.Join(t.TempDir(), "results.db")
	old := savedRun(t, eval.ExitPassed, "--db", db, suite)
	t.Setenv("AGENT", "script:"+filepath.Join(dir, "new.yaml"))
	updated := savedRun(t, eval.ExitPassed, "--db", db, suite)

	code, out, errs := gavelCmd(t, "compare", "--db", db, old, updated)
	if code != eval.ExitPassed {
		t.Fatalf("compare: exit %d\n%s%s", code, out, errs)
	}
	for _, want := range []string{
		"1 of 2 cases in both runs differ (--all-replies shows every case)",
		"lookup (trial 1 -> trial 1)\n  reply: Your order [-is-]{+arrives+} on [-its way.-]{+Monday.+}\n  tool calls: none in either\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("compare lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "hello (trial") || strings.Contains(out, "Pairwise:") {
		t.Errorf("compare shows the unchanged case, or a pairwise tally nobody asked for:\n%s", out)
	}
	if _, out, _ := gavelCmd(t, "compare", "--db", db, "--all-replies", old, updated); !strings.Contains(out, "hello (trial 1 -> trial 1)\n  reply: (same) Hello!") {
		t.Errorf("compare --all-replies lacks the unchanged case:\n%s", out)
	}

	for _, tc := range []struct {
		name, model string
		want        string
		base, head  int
		ties        int
	}{
		{"the suite's judge prefers the new reply", "", "Pairwise:  " + old + " wins 0, " + updated + " wins 1, ties 1", 0, 1, 1},
		{"the old run as B", "", "", 1, 0, 1},
		{"a judge that always prefers the first shown gives a tie", "script:" + filepath.Join(dir, "first.yaml"), "ties 2", 0, 0, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := old, updated
			if tc.name == "the old run as B" {
				a, b = updated, old
			}
			args := []string{"compare", "--db", db, "--pairwise", "Which reply helps the customer more?"}
			if tc.model != "" {
				args = append(args, "--model", tc.model)
			}
			code, out, errs := gavelCmd(t, append(args, a, b)...)
			if code != eval.ExitPassed || !strings.Contains(out, tc.want) {
				t.Errorf("exit %d, want 0 and %q:\n%s%s", code, tc.want, out, errs)
			}
			code, out, errs = gavelCmd(t, append(append(args, "--format", "json"), a, b)...)
			var got report.JSONComparison
			if err := json.Unmarshal([]byte(out), &got); code != eval.ExitPassed || err != nil {
				t.Fatalf("json: exit %d, %v\n%s", code, err, errs)
			}
			if p := got.Pairwise; p == nil || p.Base != tc.base || p.Head != tc.head || p.Ties != tc.ties || p.Errors != 0 {
				t.Errorf("pairwise tally %+v, want base %d, head %d, ties %d", p, tc.base, tc.head, tc.ties)
			}
		})
	}
}

// gavel rejudge --baseline RUN0 --pairwise adds a pairwise judge against
// RUN0's reply to every case: a reply worse than the baseline's fails.
func TestRejudgeAgainstBaseline(t *testing.T) {
	suite := repliesSuite(t)
	db := filepath.Join(t.TempDir(), "results.db")
	old := savedRun(t, eval.ExitPassed, "--db", db, suite)
	t.Setenv("AGENT", "script:"+filepath.Join(filepath.Dir(suite), "new.yaml"))
	updated := savedRun(t, eval.ExitPassed, "--db", db, suite)

	criteria := "Which reply helps the customer more?"
	code, out, errs := gavelCmd(t, "rejudge", "--db", db, "--baseline", old, "--pairwise", criteria, updated)
	if code != eval.ExitPassed {
		t.Errorf("rejudge the new run against the old: exit %d, want 0\n%s%s", code, out, errs)
	}
	code, out, errs = gavelCmd(t, "rejudge", "--db", db, "--verbose", "--baseline", updated, "--pairwise", criteria, old)
	if code != eval.ExitFailed {
		t.Errorf("rejudge the old run against the new: exit %d, want 1\n%s%s", code, out, errs)
	}
	for _, want := range []string{"Failure detail (lookup, FAIL)", "FAIL pairwise vs " + updated, "worse than the baseline"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	if code, _, errs := gavelCmd(t, "rejudge", "--db", db, "--baseline", old, updated); code != eval.ExitUsage || !strings.Contains(errs, "go together") {
		t.Errorf("--baseline without --pairwise: exit %d, want 2\n%s", code, errs)
	}
}
