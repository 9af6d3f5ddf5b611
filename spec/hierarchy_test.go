package spec_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel/spec"
)

// A judge that is the agent's own model, or of its family, favours the
// agent's answers: building the suite warns, where the judge is named,
// unless the suite allows it. Scripted models are never compared.
func TestJudgeHierarchyWarnings(t *testing.T) {
	const builtin = "agent:\n  builtin: {model: 'fake:gpt-5-mini', system_prompt: hi}\n"
	const judged = "cases:\n  - {id: a, input: hi, judge_prompt: be nice}\n  - id: b\n    input: hi\n    judges: [{rubric: be kind, model: 'fake:claude-opus-4-5'}]\n"
	for _, tc := range []struct {
		name, suite string
		want        []string
	}{
		{
			name:  "judge of the agent's family",
			suite: builtin + "models: {judge: 'fake:gpt-5'}\n" + judged,
			want: []string{"gavel.yaml:5: warning: judge model fake:gpt-5 and agent model fake:gpt-5-mini are both gpt models: " +
				"a judge favours answers from its own family; use a more capable judge from another family (or set allow_same_family_judge: true)"},
		},
		{
			name:  "judge is the agent's model, named by a judge",
			suite: "agent:\n  builtin: {model: 'fake:claude-opus-4-5', system_prompt: hi}\nmodels: {judge: 'fake:gpt-5'}\n" + judged,
			want: []string{"gavel.yaml:6: warning: judge model fake:claude-opus-4-5 is the agent's model (fake:claude-opus-4-5): " +
				"a model grading its own answers favours them; use a more capable judge from another family (or set allow_same_family_judge: true)"},
		},
		{
			name:  "an http agent's model, as the suite names it",
			suite: "agent:\n  http: {url: 'http://127.0.0.1:1/chat'}\nmodels: {agent: 'fake:claude-sonnet-4-5', judge: 'fake:gpt-5'}\n" + judged,
			want: []string{"gavel.yaml:6: warning: judge model fake:claude-opus-4-5 and agent model fake:claude-sonnet-4-5 are both claude models: " +
				"a judge favours answers from its own family; use a more capable judge from another family (or set allow_same_family_judge: true)"},
		},
		{
			name:  "allowed by the suite",
			suite: builtin + "allow_same_family_judge: true\nmodels: {judge: 'fake:gpt-5'}\n" + judged,
		},
		{
			name:  "another family",
			suite: builtin + "models: {judge: 'fake:claude-opus-4-5'}\n" + judged,
		},
		{
			name:  "scripted models are not compared",
			suite: "agent:\n  builtin: {model: 'script:agent.yaml', system_prompt: hi}\nmodels: {judge: 'script:judge.yaml'}\ncases:\n  - {id: a, input: hi, judge_prompt: be nice}\n",
		},
	} {
		const script = "name: scripted\nrules:\n  - text: hello\n"
		t.Run(tc.name, func(t *testing.T) {
			dir := suiteDir(t, map[string]string{"gavel.yaml": tc.suite, "agent.yaml": script, "judge.yaml": script})
			b, err := spec.Open(dir, testEnv())
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			var got []string
			for _, w := range b.Warnings {
				got = append(got, w.String()[len(dir)+1:])
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
		})
	}
}

// models.agent names the model of an http or exec agent; a builtin agent
// names its own.
func TestModelsAgentIsForOtherAgents(t *testing.T) {
	dir := suiteDir(t, map[string]string{"gavel.yaml": "agent:\n  builtin: {model: 'fake:gpt-5-mini', system_prompt: hi}\nmodels: {agent: 'fake:gpt-5', judge: 'fake:claude-opus-4-5'}\ncases:\n  - {id: a, input: hi, judge_prompt: be nice}\n"})
	_, err := spec.Open(dir, testEnv())
	want := "models.agent is for http and exec agents: a builtin agent's model is agent.builtin.model; remove models.agent"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want one saying %q", err, want)
	}
}
