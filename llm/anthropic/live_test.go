package anthropic_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/anthropic"
)

// TestLive is a smoke test against the real Anthropic API: a text answer,
// a tool call round trip and structured output. It runs only when
// ANTHROPIC_API_KEY is set; otherwise it skips, even when
// GAVEL_REQUIRE_INTEGRATION=1, since CI has no vendor keys. The model is
// $GAVEL_ANTHROPIC_TEST_MODEL, by default claude-haiku-4-5.
func TestLive(t *testing.T) {
	if os.Getenv("ANTHROPIC_API_KEY") == "" {
		t.Skip("ANTHROPIC_API_KEY is not set: skipping the smoke test against the real Anthropic API")
	}
	name := os.Getenv("GAVEL_ANTHROPIC_TEST_MODEL")
	if name == "" {
		name = "claude-haiku-4-5"
	}
	m, err := anthropic.Open(llm.Ref{Provider: "anthropic", Model: name}, os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	model := llm.Retry(llm.RetryConfig{})(m)
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()

	t.Run("text", func(t *testing.T) {
		resp, err := model.Generate(ctx, &llm.Request{MaxTokens: 100, Messages: []llm.Message{
			{Role: llm.RoleSystem, Content: "Answer with the city's name only."},
			{Role: llm.RoleUser, Content: "What is the capital of France?"},
		}})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(resp.Text, "Paris") || resp.RequestID == "" || resp.Usage.InputTokens == 0 {
			t.Errorf("got %q, request id %q, usage %+v; want Paris, an id, tokens", resp.Text, resp.RequestID, resp.Usage)
		}
	})

	t.Run("tool round trip", func(t *testing.T) {
		req := &llm.Request{
			MaxTokens: 500,
			Messages:  []llm.Message{{Role: llm.RoleUser, Content: "What is the weather in Paris? Use the tool."}},
			Tools: []llm.Tool{{
				Name:        "get_weather",
				Description: "The current weather of a city.",
				Parameters:  json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`),
			}},
		}
		first, err := model.Generate(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		if len(first.ToolCalls) == 0 {
			t.Fatalf("no tool call: %q (%s)", first.Text, first.FinishReason)
		}
		req.Messages = append(req.Messages, llm.Message{Role: llm.RoleAssistant, Content: first.Text, ToolCalls: first.ToolCalls})
		for _, c := range first.ToolCalls {
			req.Messages = append(req.Messages, llm.Message{Role: llm.RoleTool, ToolCallID: c.ID, Content: "Sunny, 24°C."})
		}
		second, err := model.Generate(ctx, req)
		if err != nil {
			t.Fatalf("the API refused the tool results: %v", err)
		}
		if !strings.Contains(second.Text, "24") {
			t.Errorf("answer %q, want the tool's temperature", second.Text)
		}
	})

	t.Run("structured output", func(t *testing.T) {
		resp, err := model.Generate(ctx, &llm.Request{
			MaxTokens: 200,
			Messages:  []llm.Message{{Role: llm.RoleUser, Content: "Is 7 a prime number?"}},
			ResponseSchema: &llm.Schema{
				Name:   "answer",
				Schema: json.RawMessage(`{"type":"object","properties":{"prime":{"type":"boolean"}},"required":["prime"]}`),
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		var got struct{ Prime *bool }
		if err := json.Unmarshal([]byte(resp.Text), &got); err != nil || got.Prime == nil || !*got.Prime {
			t.Errorf("got %q, want {\"prime\":true}", resp.Text)
		}
	})
}
