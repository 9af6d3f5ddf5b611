package agent_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/llm/llmtest"
)

// An agent says whether it takes events before a case sends it one; the
// wrappers of other agents say what the agent they wrap says.
func TestTakesEvents(t *testing.T) {
	builtin, err := agent.NewBuiltin(agent.BuiltinConfig{Model: &llmtest.Scripted{}})
	if err != nil {
		t.Fatal(err)
	}
	noEvents, err := agent.NewHTTP(agent.HTTPConfig{URL: "http://127.0.0.1:1/chat"})
	if err != nil {
		t.Fatal(err)
	}
	withEvents, err := agent.NewHTTP(agent.HTTPConfig{URL: "http://127.0.0.1:1/chat", EventURL: "http://127.0.0.1:1/event"})
	if err != nil {
		t.Fatal(err)
	}
	restarted, err := agent.WithRestart(noEvents, agent.RestartConfig{Command: []string{"true"}})
	if err != nil {
		t.Fatal(err)
	}
	fn := agent.Func(func(context.Context, string, agent.Message) (*agent.Reply, error) { return &agent.Reply{}, nil })
	for _, tc := range []struct {
		name  string
		agent agent.Agent
		want  string // "": takes events
	}{
		{"builtin", builtin, ""},
		{"http with an event URL", withEvents, ""},
		{"http without an event URL", noEvents, "takes no events: give it an event URL (HTTPConfig.EventURL)"},
		{"restarted http without an event URL", restarted, "takes no events"},
		{"recorded http without an event URL", agent.Recorded(noEvents, nil), "takes no events"},
		{"func", fn, "an agent.Func takes no events"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := agent.TakesEvents(tc.agent)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("got %v, want the agent to take events", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("got %v, want an error saying %q", err, tc.want)
			}
		})
	}
}
