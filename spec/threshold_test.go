package spec_test

import (
	"testing"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/spec"
)

// A threshold of 0 is a threshold (every score passes: the judge records
// a score without gating), not a stand-in for the default; a threshold
// left out is the default.
func TestThresholdZeroIsAThreshold(t *testing.T) {
	dir := suiteDir(t, map[string]string{
		"gavel.yaml": agentYAML + `models: {judge: 'script:judge.yaml'}
cases:
  - {id: judge_threshold_0, input: hi, judge_prompt: be nice, judge_threshold: 0}
  - {id: judge_threshold_unset, input: hi, judge_prompt: be nice}
  - id: rubric_threshold_0
    input: hi
    judges: [{rubric: be nice, threshold: 0}]
  - id: correctness_threshold_0
    input: hi
    judges: [{correctness: says hello, threshold: 0}]
  - id: jury_threshold_0
    input: hi
    judges: [{jury: {strategy: average, jurors: [{rubric: be nice}, {rubric: be kind}]}, threshold: 0}]
  - id: jury_threshold_unset
    input: hi
    judges: [{jury: {strategy: average, jurors: [{rubric: be nice}, {rubric: be kind}]}}]
`,
		"judge.yaml": "name: judge\nrules:\n  - text: '{\"reasoning\": \"Barely.\", \"score\": 0.1}'\n",
	})
	b, err := spec.Open(dir, testEnv())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	want := map[string]judge.Status{
		"judge_threshold_0":       judge.StatusPass,
		"judge_threshold_unset":   judge.StatusFail, // 0.1 < 0.7
		"rubric_threshold_0":      judge.StatusPass,
		"correctness_threshold_0": judge.StatusPass,
		"jury_threshold_0":        judge.StatusPass,
		"jury_threshold_unset":    judge.StatusFail, // 0.1 < 0.5
	}
	for _, c := range b.Suite.Cases {
		v := judge.Run(t.Context(), c.Judge, single("hi", "hello"))
		if v.Status != want[c.ID] {
			t.Errorf("%s: got %s, want %s: %s", c.ID, v.Status, want[c.ID], v.Reasoning)
		}
	}
}
