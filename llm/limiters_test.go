package llm_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/gavelhq/gavel/llm"
)

// ExampleLimiters shows one Limiter per server, shared by every model sent
// to it.
func ExampleLimiters() {
	var limits llm.Limiters
	agent := limits.For(llm.Ref{Provider: "openai", Model: "gpt-5"})
	judge := limits.For(llm.Ref{Provider: "openai", Model: "gpt-5-mini"})
	local := limits.For(llm.Ref{Provider: "openai", Model: "qwen2.5-7b", BaseURL: "http://127.0.0.1:8000/v1"})
	fmt.Println(agent == judge, agent == local)
	// Output: true false
}

func TestLimitersRegistryShareALimiterPerServer(t *testing.T) {
	// Every model of the fake provider answers 429 until told otherwise.
	var limits llm.Limiters
	refuseAll := func(llm.Ref, func(string) string) (llm.Model, error) {
		return llm.Func(func(context.Context, *llm.Request) (*llm.Response, error) { return nil, rateLimited }), nil
	}
	broken := errors.New("cannot open")
	reg := limits.Registry(llm.Registry{
		"fake":   refuseAll,
		"broken": func(llm.Ref, func(string) string) (llm.Model, error) { return nil, broken },
	})

	agent, err := reg.Open("fake:agent-model", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := reg.Open("broken:x", nil); !errors.Is(err, broken) {
		t.Errorf("opening a broken model: error %v, want the opener's", err)
	}
	if _, err := agent.Generate(context.Background(), ask("x")); !llm.RateLimited(err) {
		t.Fatalf("error %v, want the 429", err)
	}

	tests := []struct {
		ref  llm.Ref
		want int
	}{
		{llm.Ref{Provider: "fake", Model: "judge-model"}, 1}, // the same server learnt from the agent's 429
		{llm.Ref{Provider: "fake", Model: "agent-model", BaseURL: "http://127.0.0.1:8000/v1"}, 0},
		{llm.Ref{Provider: "other", Model: "agent-model"}, 0},
	}
	for _, tt := range tests {
		if got := limits.For(tt.ref).InFlightLimit(); got != tt.want {
			t.Errorf("limit of %s = %d, want %d", tt.ref, got, tt.want)
		}
	}
}
