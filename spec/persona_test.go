package spec_test

import (
	"context"
	"testing"
	"time"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/runner"
	"github.com/gavelhq/gavel/spec"
)

// A persona's stop_signal is what its model is told to write to end the
// conversation, and what ends it.
func TestPersonaStopSignal(t *testing.T) {
	dir := suiteDir(t, map[string]string{
		"agent.yaml": "rules:\n  - text: It has shipped.\n",
		// The user's model writes the signal only when told it.
		"user.yaml": `rules:
  - when: {text: 'The conversation starts'}
    text: where is my order 12345?
  - when: {system: 'write \[\[END\]\]'}
    text: great, thanks. [[END]]
`,
		"gavel.yaml": `agent: {builtin: {model: 'script:agent.yaml'}}
models: {user: 'script:user.yaml'}
cases:
  - id: a
    persona: {name: Ana, goal: know where order 12345 is, max_turns: 5, stop_signal: '[[END]]'}
    rules: [{max_turns: 2}]
`,
	})
	b, err := spec.Open(dir, testEnv())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	tr := runner.Run(ctx, b.Suite, runner.Config{Concurrency: 1}).Cases[0].Trials[0]
	if tr.Verdict.Status != judge.StatusPass {
		t.Fatalf("%s, want PASS: %s", tr.Verdict.Status, verdictText(tr.Verdict))
	}
	var said []string
	for _, turn := range tr.Transcript.Turns {
		if turn.Role == judge.RoleUser {
			said = append(said, turn.Content)
		}
	}
	if len(said) != 2 || said[1] != "great, thanks." {
		t.Errorf("the user said %q, want the opening and %q, the signal cut off", said, "great, thanks.")
	}
}
