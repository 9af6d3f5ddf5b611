package spec_test

import (
	"context"
	"testing"
	"time"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/runner"
	"github.com/gavelhq/gavel/spec"
)

// A builtin agent takes a case's events: its model reads each as a user
// message "[event NAME] PAYLOAD".
func TestBuiltinAgentTakesEvents(t *testing.T) {
	dir := suiteDir(t, map[string]string{
		"agent.yaml": `rules:
  - when: {last: user, user: '^\[event reminder_due\] \{"id":7,"note":"call Ana"\}$'}
    text: 'Reminder 7 is due: call Ana.'
  - when: {last: user, user: '^\[event tick\]$'}
    text: 'Tick.'
  - when: {last: user}
    text: 'Hello.'
`,
		"gavel.yaml": `agent:
  builtin: {model: 'script:agent.yaml', system_prompt: 'Events come as [event NAME] PAYLOAD.'}
cases:
  - id: reminder
    rounds:
      - {prompt: hi, rules: [{contains: Hello}]}
      - event: {name: reminder_due, payload: {id: 7, note: call Ana}}
        rules: [{contains: 'Reminder 7 is due: call Ana.'}]
      - {event: {name: tick}, rules: [{equals: Tick.}]}
`,
	})
	b, err := spec.Open(dir, testEnv())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	run := runner.Run(ctx, b.Suite, runner.Config{Concurrency: 1})
	tr := run.Cases[0].Trials[0]
	if tr.Verdict.Status != judge.StatusPass {
		t.Fatalf("%s, want PASS: %s", tr.Verdict.Status, verdictText(tr.Verdict))
	}
}

// A case that sends an event to an agent that cannot take events is a
// problem of the suite, at the case, saying what to add.
func TestEventsNeedAnAgentThatTakesThem(t *testing.T) {
	const cases = `cases:
  - id: plain
    input: hi
    expected_tools: [x]
  - id: reminder
    rounds:
      - {prompt: hi}
      - {event: {name: reminder_due, payload: {id: 7}}, expected_tools: [x]}
`
	const url = "url: http://127.0.0.1:1/chat"
	for _, tc := range []struct {
		name, agent string
		want        []string // nil: the suite is valid
	}{
		{
			name:  "http agent without event_url",
			agent: "agent: {http: {" + url + "}}\n",
			want: []string{`gavel.yaml:6: case reminder: round 2 sends the event "reminder_due", but the http agent takes no events: ` +
				"add agent.http.event_url (where events are POSTed)"},
		},
		{
			name:  "http agent without event_url, restarted and proxied",
			agent: "agent: {http: {" + url + "}, restart: {command: [true]}, mcp_proxy: [{url: 'http://127.0.0.1:1/mcp', listen: '127.0.0.1:8788'}]}\n",
			want:  []string{`gavel.yaml:6: case reminder: round 2 sends the event "reminder_due", but the http agent takes no events`},
		},
		{name: "http agent with event_url", agent: "agent: {http: {" + url + ", event_url: http://127.0.0.1:1/event}}\n"},
		{name: "exec agent", agent: agentYAML},
		{name: "builtin agent", agent: "agent: {builtin: {model: 'fake:agent'}}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := suiteDir(t, map[string]string{"gavel.yaml": tc.agent + cases})
			env := testEnv()
			env.DryRun = true
			b, err := spec.Open(dir, env)
			if tc.want == nil {
				if err != nil {
					t.Fatalf("want a valid suite, got:\n%v", err)
				}
				b.Close()
				return
			}
			exactProblems(t, dir, err, tc.want...)
		})
	}
}
