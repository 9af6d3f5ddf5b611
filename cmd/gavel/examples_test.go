package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/report"
	"github.com/gavelhq/gavel/spec"
)

// refundsSuite writes a suite of 60 refund requests whose agent gives the
// amount for the even ones ("good") and leaves it out for the odd ones.
// Its judge is planted with a blind spot: it passes every reply, unless
// its prompt holds examples of people's verdicts, when it passes only
// replies that give an amount. judges is the rubric's item.
func refundsSuite(t *testing.T, dir, judges string) {
	t.Helper()
	var cases strings.Builder
	for i := range 60 {
		kind := "good"
		if i%2 == 1 {
			kind = "bad"
		}
		fmt.Fprintf(&cases, "  - {id: case_%02d, input: 'refund for order %d, %s', judges: [%s]}\n", i, 1000+i, kind, judges)
	}
	files := map[string]string{
		"gavel.yaml": `name: refunds
threshold: 0.5
models: {judge: 'script:models/judge.yaml'}
agent:
  builtin: {model: 'script:models/agent.yaml', system_prompt: You issue refunds.}
cases:
` + cases.String(),
		"models/agent.yaml": `name: agent
rules:
  - when: {user: 'order (?P<n>\d+), good'}
    text: 'Refund of 20 EUR issued for order ${n}.'
  - text: 'Refund issued for order ${n}.'
    when: {user: 'order (?P<n>\d+), bad'}
`,
		"models/judge.yaml": `name: judge
rules:
  - when: {system: "The people's verdict", text: '(?s)The assistant.s response:\s*<agent_response_\w+>[^<]*EUR'}
    text: '{"reasoning": "it gives the amount", "score": 0.9}'
  - when: {system: "The people's verdict"}
    text: '{"reasoning": "no amount, which people fail", "score": 0.1}'
  - text: '{"reasoning": "a refund is issued", "score": 0.9}'
`,
	}
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// The whole loop of a judge that learns from labels: a run's verdicts
// labelled by people, who fail the replies without an amount that the
// judge passed; gavel calibrate --disagreements writes those as examples;
// a judge takes them (examples:) and gavel validate accepts the suite;
// gavel calibrate --compare-examples judges the held-out cases' stored
// transcripts again, with the examples of the other cases and without,
// and kappa on the held-out labels rises from 0 (the judge passes
// everything) to 1: the examples helped, and the difference's interval
// says so.
func TestCalibrateExamplesFromDisagreements(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "results.db")
	examples := filepath.Join(dir, "examples.yaml")
	refundsSuite(t, dir, "{rubric: The reply gives the refund amount.}")
	id := savedRun(t, eval.ExitPassed, "--db", db, dir)

	var labels strings.Builder
	labels.WriteString("run,case,trial,judgment,author,category,comment\n")
	for i := range 60 {
		category, comment := "pass", ""
		if i%2 == 1 {
			category, comment = "fail", "no amount"
		}
		fmt.Fprintf(&labels, "%s,case_%02d,1,,ada,%s,%s\n", id, i, category, comment)
	}
	if code, out, errs := gavelCmd(t, "labels", "import", "--db", db, write(t, dir, "labels.csv", labels.String())); code != eval.ExitPassed {
		t.Fatalf("labels import: exit %d\n%s%s", code, out, errs)
	}

	code, out, errs := gavelCmd(t, "calibrate", "--db", db, "--suite", "refunds", "--disagreements", examples)
	if code != eval.ExitPassed || !strings.Contains(errs, "wrote 30 examples to "+examples+", of 30 judgments people overruled") || !strings.Contains(out, "Kappa:       0.00") {
		t.Fatalf("calibrate --disagreements: exit %d\n%s%s", code, out, errs)
	}
	written, err := spec.ReadExamples(examples)
	if err != nil || len(written) != 30 {
		t.Fatalf("the examples written: %d, %v", len(written), err)
	}
	if e := written[0]; e.Request != "refund for order 1001, bad" || e.Response != "Refund issued for order 1001." || e.Verdict != "fail" || e.Judged != "pass" || e.Reason != "no amount" || e.Source.Run != id || e.Source.Case != "case_01" {
		t.Errorf("the first example: %+v", e)
	}

	refundsSuite(t, dir, "{rubric: The reply gives the refund amount., examples: examples.yaml}")
	if code, out, errs := gavelCmd(t, "validate", dir); code != eval.ExitPassed {
		t.Fatalf("validate of the suite whose judge takes the examples: exit %d\n%s%s", code, out, errs)
	}

	code, out, errs = gavelCmd(t, "calibrate", "--db", db, "--suite", "refunds", "--compare-examples", examples, "--no-cache", "--require")
	for _, want := range []string{
		"Examples " + examples + ": the examples helped",
		"Without:     kappa 0.00 (95% interval 0.00 to 0.00), agreement ",
		"With:        kappa 1.00 (95% interval 1.00 to 1.00), agreement ",
		"Difference:  +1.00 (95% interval 1.00 to 1.00, paired over the judgments)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("calibrate --compare-examples: no %q in\n%s%s", want, out, errs)
		}
	}
	if code != eval.ExitPassed {
		t.Errorf("calibrate --compare-examples --require of examples that helped: exit %d, want 0\n%s", code, errs)
	}

	// gavel audit on the labelled run makes the same comparison, as a
	// line of its report (at the default split: share 0.5, seed 0).
	code, out, errs = gavelCmd(t, "audit", "--db", db, "--run", id, "--examples", examples, "--probe", "consistency", "--samples", "1", dir)
	if want := "Few-shot examples of the judges that take examples.yaml, on "; code != eval.ExitPassed || !strings.Contains(out, want) || !strings.Contains(out, "kappa 0.000 without, 1.000 with") {
		t.Errorf("audit --examples: exit %d, want 0 and %q ... kappa 0.000 without, 1.000 with in\n%s%s", code, want, out, errs)
	}
	if code, _, errs := gavelCmd(t, "audit", "--db", db, "--examples", examples, dir); code != eval.ExitUsage || !strings.Contains(errs, "it needs --run RUN") {
		t.Errorf("audit --examples without --run: exit %d, want 2 and why\n%s", code, errs)
	}

	code, out, errs = gavelCmd(t, "calibrate", "--db", db, "--suite", "refunds", "--compare-examples", examples, "--no-cache", "--format", "json", "--seed", "2", "--held-out", "0.3")
	var got report.JSONExampleComparison
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != eval.ExitPassed {
		t.Fatalf("--format json: exit %d, %v\n%s%s", code, err, out, errs)
	}
	if got.Kind != "example_comparison" || got.Verdict != gavel.ExamplesHelped || got.Seed != 2 || got.HeldOutShare != 0.3 ||
		got.Without.Kappa == nil || *got.Without.Kappa != 0 || got.With.Kappa == nil || *got.With.Kappa != 1 || got.HeldOutCases+got.SourceCases != 60 {
		t.Errorf("--format json: %s", out)
	}

	// Examples no judge takes are a mistake to name.
	other := write(t, dir, "other.yaml", "[]\n")
	if code, _, errs := gavelCmd(t, "calibrate", "--db", db, "--suite", "refunds", "--compare-examples", other, "--no-cache"); code != eval.ExitUsage || !strings.Contains(errs, "no judge of suite "+dir+string(filepath.Separator)+"gavel.yaml takes examples from "+other) {
		t.Errorf("--compare-examples of a file no judge takes: exit %d\n%s", code, errs)
	}
}

// The example flags' mistakes are usage errors that say what to do.
func TestCalibrateExamplesUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--disagreements", "a.yaml", "--compare-examples", "a.yaml"}, "go one at a time"},
		{[]string{"--compare-examples", "a.yaml", "--held-out", "1"}, "--held-out 1: want a share of the cases between 0 and 1"},
		{[]string{"--disagreements", "a.yaml", "--judgments", "j.jsonl", "--labels", "l.csv"}, "an outside judge's outputs (--judgments) have none"},
	} {
		code, _, errs := gavelCmd(t, append([]string{"calibrate"}, tc.args...)...)
		if code != eval.ExitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("calibrate %v: exit %d, want %d and %q:\n%s", tc.args, code, eval.ExitUsage, tc.want, errs)
		}
	}
}
