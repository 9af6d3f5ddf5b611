package spec_test

import (
	"context"
	"testing"
	"time"

	"github.com/gavelhq/gavel/agent"
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

// A case's now replaces agent.builtin.now for that case; a Go agent reads
// it with agent.Now.
func TestCaseNow(t *testing.T) {
	dir := suiteDir(t, map[string]string{
		"agent.yaml": `rules:
  - {when: {system: 'today is 2024-05-20\.$'}, text: suite time}
  - {when: {system: 'today is 2030-01-02\.$'}, text: case time}
`,
		"gavel.yaml": `agent:
  builtin: {model: 'script:agent.yaml', system_prompt: 'today is {today}.', now: 2024-05-20}
cases:
  - {id: suite, input: hi, rules: [{equals: suite time}]}
  - {id: case, now: '2030-01-02T10:00:00Z', input: hi, rules: [{equals: case time}]}
`,
	})
	b, err := spec.Open(dir, testEnv())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	for _, cr := range runner.Run(ctx, b.Suite, runner.Config{Concurrency: 1}).Cases {
		if tr := cr.Trials[0]; tr.Verdict.Status != judge.StatusPass {
			t.Errorf("case %s: %s, want PASS: %s", cr.ID(), tr.Verdict.Status, verdictText(tr.Verdict))
		}
	}

	var told []time.Time
	clock := agent.Func(func(ctx context.Context, _ string, _ agent.Message) (*agent.Reply, error) {
		now, _ := agent.Now(ctx)
		told = append(told, now)
		return &agent.Reply{Text: now.Format(time.DateOnly)}, nil
	})
	dir = suiteDir(t, map[string]string{"gavel.yaml": `agent: {go: clock}
cases:
  - {id: a, now: 2030-01-02, input: hi, rules: [{equals: 2030-01-02}]}
`})
	env := testEnv()
	env.Agents = map[string]agent.Agent{"clock": clock}
	b, err = spec.Open(dir, env)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if tr := runner.Run(ctx, b.Suite, runner.Config{Concurrency: 1}).Cases[0].Trials[0]; tr.Verdict.Status != judge.StatusPass {
		t.Errorf("Go agent: %s, want PASS (it was told %v): %s", tr.Verdict.Status, told, verdictText(tr.Verdict))
	}
}

// A now that is not a time is a problem at its field, and so is a case's
// now for an agent that keeps its own clock.
func TestNowProblems(t *testing.T) {
	for _, tc := range []struct {
		name, suite string
		want        []string
	}{
		{"not a time", `agent: {builtin: {model: 'fake:agent', now: 'next tuesday'}}
cases:
  - {id: a, input: hi, expected_tools: [x]}
`, []string{`gavel.yaml: agent.builtin.now "next tuesday": want an RFC 3339 time, such as 2024-05-20T09:30:00+02:00, or a date, such as 2024-05-20`}},
		{"a case's, not a time", `agent: {builtin: {model: 'fake:agent'}}
cases:
  - {id: a, now: tomorrow, input: hi, expected_tools: [x]}
`, []string{`gavel.yaml:3: case a: now "tomorrow": want an RFC 3339 time`}},
		{"a case's, for an http agent", `agent: {http: {url: 'http://127.0.0.1:1/chat'}}
cases:
  - {id: a, now: 2024-05-20, input: hi, expected_tools: [x]}
`, []string{"gavel.yaml:3: case a: now: only a builtin agent, or a Go agent that reads agent.Now, is told the time: an http or exec agent keeps its own clock; remove now"}},
		{"a case's, for an exec agent", agentYAML + `cases:
  - {id: a, now: 2024-05-20, input: hi, expected_tools: [x]}
`, []string{"gavel.yaml:3: case a: now: only a builtin agent"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := suiteDir(t, map[string]string{"gavel.yaml": tc.suite})
			env := testEnv()
			env.DryRun = true
			_, err := spec.Open(dir, env)
			placedProblems(t, dir, err, tc.want...)
		})
	}
}
