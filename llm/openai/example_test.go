package openai_test

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/llmtest"
	"github.com/gavelhq/gavel/llm/openai"
)

// A model opened from a reference, talking to a fake OpenAI server that
// answers from a scripted model, with Gavel's retries around it.
func Example() {
	srv := llmtest.NewOpenAIServer(&llmtest.Scripted{Rules: []llmtest.Rule{
		{Match: "France", Text: "Paris."},
	}})
	defer srv.Close()
	srv.FailNext(429, time.Millisecond) // the first request is rate limited

	getenv := func(name string) string {
		return map[string]string{"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": srv.URL}[name]
	}
	ref, _ := llm.ParseRef("openai:gpt-5-mini")
	model, err := openai.Open(ref, getenv)
	if err != nil {
		fmt.Println(err)
		return
	}
	model = llm.Chain(model, llm.Retry(llm.RetryConfig{BaseDelay: time.Millisecond}))

	resp, err := model.Generate(context.Background(), &llm.Request{
		Messages: []llm.Message{{Role: llm.RoleUser, Content: "Capital of France?"}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(resp.Text, resp.FinishReason, resp.Model)
	fmt.Println("requests:", srv.Requests(), "rate limited:", srv.RateLimited())
	// Output:
	// Paris. stop gpt-5-mini
	// requests: 2 rate limited: 1
}

// Structured output: the schema goes out as response_format json_schema,
// and the JSON comes back as the response's text.
func ExampleModel_Generate_structuredOutput() {
	srv := llmtest.NewOpenAIServer(&llmtest.Scripted{Rules: []llmtest.Rule{
		{Text: `{"verdict":"pass"}`},
	}})
	defer srv.Close()
	model, err := openai.New(openai.Config{APIKey: "sk-test", BaseURL: srv.URL, Model: "gpt-5-mini"})
	if err != nil {
		fmt.Println(err)
		return
	}

	resp, err := model.Generate(context.Background(), &llm.Request{
		Messages: []llm.Message{{Role: llm.RoleUser, Content: "Did the agent book the flight?"}},
		ResponseSchema: &llm.Schema{
			Name:   "verdict",
			Schema: json.RawMessage(`{"type":"object","properties":{"verdict":{"type":"string"}},"required":["verdict"],"additionalProperties":false}`),
			Strict: true,
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	var sent struct {
		ResponseFormat struct {
			Type       string `json:"type"`
			JSONSchema struct {
				Name   string `json:"name"`
				Strict bool   `json:"strict"`
			} `json:"json_schema"`
		} `json:"response_format"`
	}
	json.Unmarshal(srv.Bodies()[0], &sent)
	fmt.Println(sent.ResponseFormat.Type, sent.ResponseFormat.JSONSchema.Name, sent.ResponseFormat.JSONSchema.Strict)
	fmt.Println(resp.Text)
	// Output:
	// json_schema verdict true
	// {"verdict":"pass"}
}
