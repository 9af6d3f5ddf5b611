package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/eval"
)

// auditSuite writes a suite whose agent answers every case with a short
// reply, judged by a pairwise judge and a rubric, both played by the
// judge script given; the suite sets bars on both biases.
func auditSuite(t *testing.T, judgeScript string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"gavel.yaml": `name: planted
agent:
  builtin: {model: 'script:agent.yaml', system_prompt: Be brief.}
models: {judge: 'script:judge.yaml'}
audit: {max_position_flips: 0.1, max_verbosity_share: 0.2, max_unstable: 0.1, samples: 2}
cases:
  - id: lookup
    input: where is order 12345?
    judges:
      - {pairwise: {criteria: 'Which reply helps more?', baseline: It is on its way.}, name: helpful}
      - {rubric: The reply gives the delivery date., name: date}
  - id: other
    input: where is order 24680?
    judge_prompt: The reply gives the delivery date.
`,
		"agent.yaml": "name: agent\nrules:\n  - text: Order ${id} arrives on 2026-03-14.\n    when: {user: '(?P<id>\\d{5})'}\n",
		"judge.yaml": judgeScript,
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// The planted biases: a judge that always prefers the response shown
// first, and adds 0.2 to a reply longer than 150 characters (a padded
// one).
const biasedJudge = `name: biased
rules:
  - when: {system: 'compare two responses'}
    text: '{"reasoning": "The first is better.", "winner": "A"}'
  - when: {text: '(?s)<agent_response_[0-9a-f]+>\n.{150,}\n</agent_response_'}
    text: '{"reasoning": "Thorough.", "score": 0.8}'
  - text: '{"reasoning": "Gives the date.", "score": 0.6}'
`

// An unbiased judge: the reply with a date wins, wherever it is shown;
// the score is the same whatever the length.
const unbiasedJudge = `name: fair
rules:
  - when: {system: 'compare two responses', text: '(?s)<response_a[^>]*>[^<]*\d{4}-\d\d-\d\d[^<]*</response_a'}
    text: '{"reasoning": "A gives the date.", "winner": "A"}'
  - when: {system: 'compare two responses', text: '(?s)<response_b[^>]*>[^<]*\d{4}-\d\d-\d\d[^<]*</response_b'}
    text: '{"reasoning": "B gives the date.", "winner": "B"}'
  - when: {system: 'compare two responses'}
    text: '{"reasoning": "Neither gives a date.", "winner": "tie"}'
  - text: '{"reasoning": "Gives the date.", "score": 0.8}'
`

func TestAuditFindsAPlantedPositionBias(t *testing.T) {
	suite := auditSuite(t, biasedJudge)
	report := filepath.Join(t.TempDir(), "audit.json")
	code, out, errs := gavelCmd(t, "audit", "--out", report, "--probe", "position", "--probe", "verbosity", "--probe", "consistency", suite)
	if code != eval.ExitFailed {
		t.Fatalf("exit %d, want 1 (a bar not met)\n%s%s", code, out, errs)
	}
	for _, want := range []string{
		"Judge audit of suite planted: FAIL: 3 bars not met",
		// The flip share: 2 samples of the reply and 2 of the padded one,
		// each asked in both orders, every one flipped.
		"100% (4 of 4)",
		"lookup: helpful (judges[0]): position flips 100% is above the bar of 10%",
		"lookup: date (judges[1]): padded replies scoring higher 100% is above the bar of 20%",
		"other: judge_prompt: padded replies scoring higher 100% is above the bar of 20%",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errs, "gavel audit: 3 judges of suite planted on the agent's replies to 2 cases") || !strings.Contains(errs, "16 judge calls") {
		t.Errorf("the cost was not stated before the audit: %s", errs)
	}
	var j struct {
		Passed bool `json:"passed"`
		Judges []struct {
			Position *struct {
				Share *float64 `json:"share"`
			} `json:"position"`
		} `json:"judges"`
	}
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &j); err != nil || j.Passed || j.Judges[0].Position == nil || *j.Judges[0].Position.Share != 1 {
		t.Errorf("the JSON report: %v\n%s", err, data)
	}
}

func TestAuditOfAnUnbiasedJudgeFindsNothing(t *testing.T) {
	suite := auditSuite(t, unbiasedJudge)
	html := filepath.Join(t.TempDir(), "audit.html")
	code, out, errs := gavelCmd(t, "audit", "--out", html, suite)
	if code != eval.ExitPassed {
		t.Fatalf("exit %d, want 0\n%s%s", code, out, errs)
	}
	for _, want := range []string{"PASS: every judge met the suite's bars", "0% (0 of 4)", "0% (0 of 1), +0.000", "Self-test of script:judge.yaml on Gavel's bias set"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	if data, err := os.ReadFile(html); err != nil || !strings.Contains(string(data), "<h1>Judge audit of suite planted</h1>") {
		t.Errorf("the HTML report: %v\n%.300s", err, data)
	}
}

func TestAuditDryRunAsksNothing(t *testing.T) {
	suite := auditSuite(t, "name: broken\nrules:\n  - error: no call was to be made\n")
	code, out, errs := gavelCmd(t, "audit", "--dry-run", suite)
	// 2 samples of each reply and of it padded: 2 × (2 + 2) = 8 calls of
	// the pairwise judge (2 a comparison), 4 of each rubric; and 84 for
	// the self-test's 42 pairs in both orders.
	if code != eval.ExitPassed || out != "" || !strings.Contains(errs, "100 judge calls (script:judge.yaml 100)") || !strings.Contains(errs, "a dry run asks none") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

func TestAuditUsageErrors(t *testing.T) {
	suite := auditSuite(t, unbiasedJudge)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--probe", "length", suite}, `unknown probe "length"`},
		{[]string{"--format", "junit", suite}, "want text, json or html"},
		{[]string{"--out", "audit.xml", suite}, "an audit is written as text (.txt), json (.json) or html (.html)"},
		{[]string{"--samples", "30", suite}, "samples 30: want 1..25"},
		{[]string{"--run", "nope", suite}, "--run nope: no such run"},
		{[]string{"--bias-bench", filepath.Join(suite, "absent.json"), suite}, "--bias-bench: the bias benchmark: open " + filepath.Join(suite, "absent.json")},
		{[]string{"--bias-bench", filepath.Join(suite, "gavel.yaml"), suite}, "--bias-bench: the bias benchmark " + filepath.Join(suite, "gavel.yaml") + ": line 1: invalid character"},
	} {
		code, _, errs := gavelCmd(t, append([]string{"audit"}, tc.args...)...)
		if code != eval.ExitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("audit %v: exit %d, %q; want 2 and %q", tc.args, code, errs, tc.want)
		}
	}
}

// The self-test asks the pairs of another bias benchmark, in
// EvalBiasBench's format, when the suite's audit.bias_bench or
// --bias-bench names one: the flag wins.
func TestAuditOnAnotherBiasBench(t *testing.T) {
	suite := auditSuite(t, unbiasedJudge)
	const pair = `{"instruction": "When is order 12345 due?", "response1": "On 2026-03-14.", "response2": "Soon, probably next week or so.", "label": 1}`
	for name, bench := range map[string]string{
		"suite.json": `{"length bias": [` + pair + `]}`,
		"flag.json":  `{"length bias": [` + pair + `], "concreteness": [` + pair + `]}`,
	} {
		if err := os.WriteFile(filepath.Join(suite, name), []byte(bench), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	yaml := filepath.Join(suite, "gavel.yaml")
	data, err := os.ReadFile(yaml)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(yaml, []byte(strings.Replace(string(data), "samples: 2}", "samples: 2, bias_bench: suite.json}", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args     []string
		calls    string // 16 for the probes (TestAuditDryRunAsksNothing), 2 a pair
		selfTest string
		byBias   string
	}{
		{nil, "18 judge calls", "Self-test of script:judge.yaml on suite.json", "length bias  100% (1 of 1)"},
		{[]string{"--bias-bench", filepath.Join(suite, "flag.json")}, "20 judge calls", "Self-test of script:judge.yaml on flag.json", "concreteness  100% (1 of 1)"},
	} {
		code, out, errs := gavelCmd(t, append(append([]string{"audit"}, tc.args...), suite)...)
		if code != eval.ExitPassed || !strings.Contains(errs, tc.calls) || !strings.Contains(out, tc.selfTest) || !strings.Contains(out, tc.byBias) {
			t.Errorf("audit %v: exit %d, want 0, %q on stderr, %q and %q on stdout\n%s%s", tc.args, code, tc.calls, tc.selfTest, tc.byBias, errs, out)
		}
	}
}

// The offline example audits too: its scripted judge answers every probe.
func TestAuditSupportDesk(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the example's MCP server")
	}
	code, out, errs := gavelCmd(t, "audit", "--samples", "2", example(t))
	if code != eval.ExitPassed {
		t.Fatalf("exit %d, want 0\n%s%s", code, out, errs)
	}
	for _, want := range []string{"Judge audit of suite support-desk: PASS", "case_003: judge_prompt", "case_011: judges[0]", "Self-test of script:models/judge.yaml"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
}
