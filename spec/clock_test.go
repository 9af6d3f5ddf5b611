package spec_test

import (
	"context"
	"testing"
	"time"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/runner"
	"github.com/gavelhq/gavel/spec"
)

// agent.builtin.now fakes the builtin agent's clock: {today} and {now} in
// its system prompt are that time, whatever the date of the run.
func TestBuiltinNow(t *testing.T) {
	for _, tc := range []struct {
		name, now, system string
	}{
		{"time", "2024-05-20T23:30:00+02:00", `today is 2024-05-20, now is 2024-05-20T23:30:00\+02:00\.$`},
		{"date", "2024-05-20", `today is 2024-05-20, now is 2024-05-20T00:00:00Z\.$`},
		{"from the environment", "${FAKE_NOW:-2001-01-01}", `today is 2030-12-31, now is 2030-12-31T08:00:00Z\.$`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := suiteDir(t, map[string]string{
				"agent.yaml": "rules:\n  - when: {system: '" + tc.system + "'}\n    text: on time\n",
				"gavel.yaml": `agent:
  builtin:
    model: 'script:agent.yaml'
    system_prompt: 'You help. today is {today}, now is {now}.'
    now: '` + tc.now + `'
cases:
  - {id: a, input: hi, rules: [{equals: on time}]}
`,
			})
			env := testEnv()
			env.Getenv = func(name string) string {
				if name == "FAKE_NOW" {
					return "2030-12-31T08:00:00Z"
				}
				return ""
			}
			b, err := spec.Open(dir, env)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
			defer cancel()
			tr := runner.Run(ctx, b.Suite, runner.Config{Concurrency: 1}).Cases[0].Trials[0]
			if tr.Verdict.Status != judge.StatusPass {
				t.Errorf("%s, want PASS (the model saw another time): %s", tr.Verdict.Status, verdictText(tr.Verdict))
			}
		})
	}
}

// A now that is not a time is a problem at its field.
func TestBuiltinNowProblems(t *testing.T) {
	dir := suiteDir(t, map[string]string{"gavel.yaml": `agent: {builtin: {model: 'fake:agent', now: 'next tuesday'}}
cases:
  - {id: a, input: hi, expected_tools: [x]}
`})
	env := testEnv()
	env.DryRun = true
	_, err := spec.Open(dir, env)
	exactProblems(t, dir, err, `gavel.yaml: agent.builtin.now "next tuesday": want an RFC 3339 time, such as 2024-05-20T09:30:00+02:00, or a date, such as 2024-05-20`)
}
