package spec_test

import (
	"testing"

	"github.com/gavelhq/gavel/spec"
)

// Each problem of a suite is said once, at its line, under the field that
// has it: a negative concurrency had no line; a bad judge model was
// blamed on models.followup, which the suite does not set; a case whose
// judge could not be built was also told it had "nothing to judge"; a
// threshold of .nan passed (and the run then failed on the database).
func TestProblemsAtTheirFields(t *testing.T) {
	for _, tc := range []struct {
		name string
		yaml string
		want []string
	}{
		{"a negative concurrency", "concurrency: -2\n" + agentYAML + "cases:\n  - {id: a, input: hi, expected_tools: [x]}\n",
			[]string{"gavel.yaml:1:1: concurrency -2: trials talking with the agent at once cannot be negative; remove it for the default, 4"}},
		{"negative trials", "trials: -1\n" + agentYAML + "cases:\n  - {id: a, input: hi, expected_tools: [x]}\n",
			[]string{"gavel.yaml:1:1: trials -1: the times each case runs cannot be negative; remove it for the default, 1"}},
		{"a bad judge model", agentYAML + "models: {judge: 'nosuch:model'}\ncases:\n  - {id: a, input: hi, judge_prompt: be nice}\n",
			[]string{
				`gavel.yaml:2:10: models.judge: unknown model provider "nosuch" in "nosuch:model"`,
				`gavel.yaml:4: case a: judge model: unknown model provider "nosuch" in "nosuch:model"`,
			}},
		{"a judge_threshold out of range", agentYAML + "models: {judge: 'fake:judge'}\ncases:\n  - {id: a, input: hi, judge_prompt: be nice, judge_threshold: 7}\n",
			[]string{"gavel.yaml:4: case a: the case: judge_prompt: threshold 7 is out of range: a passing score from 0 to 1"}},
		{"a threshold of NaN", "threshold: .nan\n" + agentYAML + "cases:\n  - {id: a, input: hi, expected_tools: [x]}\n",
			[]string{"gavel.yaml:1:1: threshold NaN is out of range"}},
		{"a judge_threshold of NaN", agentYAML + "models: {judge: 'fake:judge'}\ncases:\n  - {id: a, input: hi, judge_prompt: be nice, judge_threshold: .nan}\n",
			[]string{"gavel.yaml:4: case a: the case: judge_prompt: judge_prompt: threshold NaN: want a number in 0..1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := suiteDir(t, map[string]string{"gavel.yaml": tc.yaml})
			env := testEnv()
			env.DryRun = true
			_, err := spec.Open(dir, env)
			exactProblems(t, dir, err, tc.want...)
		})
	}
}
