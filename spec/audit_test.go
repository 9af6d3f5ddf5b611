package spec_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/spec"
)

// The model judges of a suite are what gavel audit probes: each where the
// suite names it, with its kind and model, able to be built on another
// model; a pairwise judge with its comparisons; rules are left out.
func TestAuditJudges(t *testing.T) {
	const suite = `agent:
  builtin: {model: 'fake:gpt-5-mini', system_prompt: hi}
models: {judge: 'fake:claude-sonnet-4-5'}
audit: {max_position_flips: 0.1, samples: 5, reference_model: 'fake:gemini-2.5-pro'}
every_case:
  judges: [{rubric: polite, model: 'fake:gpt-5'}]
cases:
  - {id: a, input: hi, judge_prompt: be nice, rules: [{contains: hi}]}
  - id: b
    rounds:
      - prompt: hi
        expected_response_traits: [greets]
      - prompt: bye
        judges:
          - {pairwise: {criteria: warmer, baseline: Goodbye.}, name: warmth}
          - jury: {jurors: [{rubric: kind}, {rubric: brief}]}
`
	dir := suiteDir(t, map[string]string{"gavel.yaml": suite})
	b, err := spec.Open(dir, testEnv())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var got []string
	for _, j := range b.AuditJudges {
		got = append(got, fmt.Sprintf("%s | case %q | %s | %s | calls %d | on %v | compare %v",
			j.Name, j.Case, j.Kind, j.Model, j.Calls, j.On != nil, j.Compare != nil))
	}
	want := []string{
		`every_case: judges[0] | case "" | rubric | fake:gpt-5 | calls 1 | on true | compare false`,
		`a: judge_prompt | case "a" | rubric | fake:claude-sonnet-4-5 | calls 1 | on true | compare false`,
		`b: round 1: expected_response_traits | case "b" | traits | fake:claude-sonnet-4-5 | calls 1 | on true | compare false`,
		`b: round 2: warmth (judges[0]) | case "b" | pairwise | fake:claude-sonnet-4-5 | calls 2 | on true | compare true`,
		`b: round 2: judges[1] | case "b" | jury |  | calls 0 | on false | compare false`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("audit judges (-want +got):\n%s", diff)
	}
	if b.Audit == nil || b.Audit.Samples != 5 || *b.Audit.Bars().MaxPositionFlips != 0.1 || b.Audit.Bars().MaxUnstable != nil || b.Audit.ReferenceModel != "fake:gemini-2.5-pro" {
		t.Errorf("audit block: got %+v", b.Audit)
	}

	// A round's pairwise judge compares that round's reply.
	tr := &judge.Transcript{Turns: []judge.Turn{
		{Role: judge.RoleUser, Content: "hi", Round: 1}, {Role: judge.RoleAgent, Content: "Hello.", Round: 1},
	}}
	if _, err := b.AuditJudges[3].Compare(context.Background(), tr); err == nil || !strings.Contains(err.Error(), "round 2 never took place") {
		t.Errorf("comparing a transcript without round 2: got %v, want an error saying so", err)
	}
}

func TestAuditBlockProblems(t *testing.T) {
	const badLabel = `{"length bias": [{"instruction": "i", "response1": "r", "response2": "s", "label": 0}]}`
	for _, tc := range []struct{ name, block, bench, want string }{
		{"a bias benchmark that is not there", "audit: {bias_bench: absent.json}", "", "audit.bias_bench: the bias benchmark: open "},
		{"a bias benchmark with a bad label", "audit: {bias_bench: mine.json}", badLabel,
			`audit.bias_bench: the bias benchmark ` + "DIR" + `/mine.json: "length bias", pair 1: label 0: want 1 or 2`},
		{"a share above 1", "audit: {max_position_flips: 10}", "", "audit.max_position_flips 10 is out of range: want 0 to 1"},
		{"negative samples", "audit: {samples: -1}", "", "audit.samples -1 is out of range: want 0 to 25"},
		{"an unknown key", "audit: {max_flips: 0.1}", "", "max_flips"},
		{"a reference that is no model", "audit: {reference_model: gpt-5}", "", "audit.reference_model"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"gavel.yaml": header + "  - {id: a, input: hi, judge_prompt: be nice}\n" + tc.block + "\n"}
			if tc.bench != "" {
				files["mine.json"] = tc.bench
			}
			dir := suiteDir(t, files)
			b, err := spec.Open(dir, testEnv())
			if err == nil {
				b.Close()
				t.Fatalf("opened; want a problem saying %q", tc.want)
			}
			if want := strings.ReplaceAll(tc.want, "DIR", dir); !strings.Contains(err.Error(), want) {
				t.Errorf("got %v, want a problem saying %q", err, want)
			}
		})
	}
}

// A suite's audit.bias_bench is a file beside the suite, whose path gavel
// audit gets resolved.
func TestAuditBiasBenchIsBesideTheSuite(t *testing.T) {
	const bench = `{"length bias": [{"instruction": "What is 2 + 2?", "response1": "Five, since two and two make five.", "response2": "4", "label": 2}]}`
	dir := suiteDir(t, map[string]string{
		"gavel.yaml":      header + "  - {id: a, input: hi, judge_prompt: be nice}\naudit: {bias_bench: bench/mine.json}\n",
		"bench/mine.json": bench,
	})
	b, err := spec.Open(dir, testEnv())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if want := filepath.Join(dir, "bench", "mine.json"); b.Audit == nil || b.Audit.BiasBench != want {
		t.Errorf("audit block: got %+v, want bias_bench %s", b.Audit, want)
	}
}
