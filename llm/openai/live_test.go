package openai_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/openai"
)

// TestLive is a smoke test against the real OpenAI API: a text answer, a
// tool call round trip and strict structured output. It runs only when
// OPENAI_API_KEY is set; otherwise it skips, even when
// GAVEL_REQUIRE_INTEGRATION=1, since CI has no vendor keys. The model is
// $GAVEL_OPENAI_TEST_MODEL, by default gpt-4.1-mini.
func TestLive(t *testing.T) {
	if os.Getenv("OPENAI_API_KEY") == "" {
		t.Skip("OPENAI_API_KEY is not set: skipping the smoke test against the real OpenAI API")
	}
	name := os.Getenv("GAVEL_OPENAI_TEST_MODEL")
	if name == "" {
		name = "gpt-4.1-mini"
	}
	m, err := openai.Open(llm.Ref{Provider: "openai", Model: name}, os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	model := llm.Retry(llm.RetryConfig{})(m)
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()

	t.Run("text", func(t *testing.T) {
		resp, err := model.Generate(ctx, &llm.Request{Messages: []llm.Message{
			{Role: llm.RoleUser, Content: "What is the capital of France? Answer with the city's name only."},
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
			Messages: []llm.Message{{Role: llm.RoleUser, Content: "What is the weather in Paris? Use the tool."}},
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
			Messages: []llm.Message{{Role: llm.RoleUser, Content: "Is 7 a prime number?"}},
			ResponseSchema: &llm.Schema{
				Name:   "answer",
				Schema: json.RawMessage(`{"type":"object","properties":{"prime":{"type":"boolean"}},"required":["prime"],"additionalProperties":false}`),
				Strict: true,
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
