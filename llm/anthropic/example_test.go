package anthropic_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/anthropic"
	"github.com/gavelhq/gavel/llm/llmtest"
)

// A model opened from a reference, talking to a fake Anthropic server that
// answers from a scripted model.
func Example() {
	srv := llmtest.NewAnthropicServer(&llmtest.Scripted{Rules: []llmtest.Rule{
		{Match: "France", Text: "Paris."},
	}})
	defer srv.Close()

	getenv := func(name string) string {
		return map[string]string{"ANTHROPIC_API_KEY": "sk-ant-test", "ANTHROPIC_BASE_URL": srv.URL}[name]
	}
	ref, _ := llm.ParseRef("anthropic:claude-opus-4-5")
	model, err := anthropic.Open(ref, getenv)
	if err != nil {
		fmt.Println(err)
		return
	}
	resp, err := model.Generate(context.Background(), &llm.Request{
		Messages: []llm.Message{
			{Role: llm.RoleSystem, Content: "Answer in one word."},
			{Role: llm.RoleUser, Content: "Capital of France?"},
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(resp.Text, resp.FinishReason, resp.Model, resp.RequestID)
	// Output: Paris. stop claude-opus-4-5 req_fake_000001
}

// Structured output: the schema goes out as a forced tool, and the tool's
// input comes back as the response's text.
func ExampleModel_Generate_structuredOutput() {
	srv := llmtest.NewAnthropicServer(&llmtest.Scripted{Rules: []llmtest.Rule{
		{Text: `{"verdict":"pass"}`},
	}})
	defer srv.Close()
	model, err := anthropic.New(anthropic.Config{APIKey: "sk-ant-test", BaseURL: srv.URL, Model: "claude-opus-4-5"})
	if err != nil {
		fmt.Println(err)
		return
	}

	resp, err := model.Generate(context.Background(), &llm.Request{
		Messages: []llm.Message{{Role: llm.RoleUser, Content: "Did the agent book the flight?"}},
		ResponseSchema: &llm.Schema{
			Name:   "verdict",
			Schema: json.RawMessage(`{"type":"object","properties":{"verdict":{"type":"string"}},"required":["verdict"]}`),
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	var sent struct {
		ToolChoice json.RawMessage `json:"tool_choice"`
	}
	json.Unmarshal(srv.Bodies()[0], &sent)
	fmt.Println(string(sent.ToolChoice))
	fmt.Println(resp.Text, resp.FinishReason)
	// Output:
	// {"name":"verdict","type":"tool"}
	// {"verdict":"pass"} stop
}
