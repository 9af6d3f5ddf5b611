package spec_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/spec"
)

// agent: {go: NAME} names an agent the program passes in Env.Agents; a
// program that passes none (the gavel command) refuses to run the suite,
// and only warns when it validates it.
func TestGoAgent(t *testing.T) {
	desk := agent.Func(func(context.Context, string, agent.Message) (*agent.Reply, error) {
		return &agent.Reply{Text: "Hello."}, nil
	})
	const needsTest = `agent.go "desk": a Go agent is passed by the Go test that runs the suite (gaveltest.Run with gaveltest.Config.Agents), and the gavel command has none: run this suite under go test`
	for _, tc := range []struct {
		name    string
		agent   string
		cases   string
		agents  map[string]agent.Agent
		dryRun  bool
		want    []string // nil: valid
		warning string
	}{
		{name: "passed", agent: "{go: desk}", agents: map[string]agent.Agent{"desk": desk}},
		{name: "passed, with a proxy", agent: "{go: desk, mcp_proxy: [{url: 'http://127.0.0.1:1/mcp', listen: '127.0.0.1:8788'}]}",
			agents: map[string]agent.Agent{"desk": desk}},
		{name: "unknown name", agent: "{go: dsek}", agents: map[string]agent.Agent{"desk": desk, "shop": desk},
			want: []string{`gavel.yaml: agent.go "dsek": no Go agent has that name: the Go test passes desk, shop: did you mean "desk"?`}},
		{name: "no Go agents", agent: "{go: desk}", want: []string{"gavel.yaml: " + needsTest}},
		{name: "no Go agents, validated", agent: "{go: desk}", dryRun: true, warning: "gavel.yaml: warning: " + needsTest},
		{name: "with another kind", agent: "{go: desk, exec: {command: [cat]}}", agents: map[string]agent.Agent{"desk": desk},
			want: []string{"gavel.yaml: agent: give one kind of agent: builtin, http, exec or go"}},
		{name: "a Func takes no events", agent: "{go: desk}", agents: map[string]agent.Agent{"desk": desk},
			cases: "  - {id: ev, rounds: [{prompt: hi}, {event: {name: tick}, rules: [{contains: x}]}]}\n",
			want:  []string{`gavel.yaml:3: case ev: round 2 sends the event "tick", but an agent.Func takes no events`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cases := tc.cases
			if cases == "" {
				cases = "  - {id: a, input: hi, rules: [{contains: Hello}]}\n"
			}
			dir := suiteDir(t, map[string]string{"gavel.yaml": "agent: " + tc.agent + "\ncases:\n" + cases})
			env := testEnv()
			env.Agents, env.DryRun = tc.agents, tc.dryRun
			b, err := spec.Open(dir, env)
			if tc.want != nil {
				placedProblems(t, dir, err, tc.want...)
				return
			}
			if err != nil {
				t.Fatalf("want a valid suite, got:\n%v", err)
			}
			defer b.Close()
			var warnings []string
			for _, w := range b.Warnings {
				warnings = append(warnings, strings.TrimPrefix(w.String(), dir+"/"))
			}
			if got := strings.Join(warnings, "\n"); got != tc.warning {
				t.Errorf("warnings:\ngot  %s\nwant %s", got, tc.warning)
			}
		})
	}
}
