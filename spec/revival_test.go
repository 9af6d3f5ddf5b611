package spec_test

import (
	"testing"

	"github.com/gavelhq/gavel/spec"
)

// A case that revives the session of an agent that cannot be revived is a
// problem of the suite, at the case, saying what to add; an agent that
// can be revived (a close request, a restart command, an exec agent) is
// fine.
func TestRevivalNeedsAnAgentThatCanBeRevived(t *testing.T) {
	const cases = `cases:
  - id: revived
    rounds: [{prompt: remember 12345}, {prompt: "which number?", rules: [{contains: "12345"}]}]
    test_agent_revival: true
  - id: one-round
    rounds: [{prompt: hi}, {prompt: again, revive: true, expected_tools: [x]}]
  - id: no-revival
    rounds: [{prompt: hi}, {prompt: again, expected_tools: [x]}]
`
	const url = "url: http://127.0.0.1:1/chat"
	for _, tc := range []struct {
		name, agent string
		want        []string // nil: the suite is valid
	}{
		{
			name:  "http agent without close or restart",
			agent: "agent: {http: {" + url + "}}\n",
			want: []string{
				"gavel.yaml:3: case revived: round 2 revives the session, but the http agent cannot be revived: " +
					"closing a session sends it nothing, so the agent never lets go of the conversation: " +
					"add agent.http.close (a request that ends the session; agent.http.open too if the API needs one to resume it) " +
					"or agent.restart (a command that restarts the agent's server)",
				"gavel.yaml:6: case one-round: round 2 revives the session, but the http agent cannot be revived",
			},
		},
		{name: "http agent with a close request", agent: "agent: {http: {" + url + ", close: {url: /close}}}\n"},
		{name: "http agent with a restart command", agent: "agent: {http: {" + url + "}, restart: {command: [true]}}\n"},
		{name: "exec agent", agent: agentYAML},
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
