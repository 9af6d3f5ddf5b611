package openai_test

import (
	"encoding/json"
	"net/http/httptest"
	"testing"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/gateway"
	"github.com/gavelhq/gavel/llm/llmtest"
)

// OpenAI's own SDK streams from Gavel's model endpoint (llm/gateway) as
// from OpenAI: its accumulator puts the text, a tool call and the usage
// of the last chunk together.
func TestSDKStreamsFromTheGateway(t *testing.T) {
	model := &llmtest.Scripted{Name: "served", Rules: []llmtest.Rule{
		{Match: "order", ToolCalls: []llm.ToolCall{{ID: "call_7", Name: "get_order_status", Arguments: json.RawMessage(`{"order_id":"12345"}`)}}},
		{Text: "Hello! How can I help you with your orders today? Ask away."},
	}}
	srv := httptest.NewServer(gateway.New(model, gateway.Config{}))
	defer srv.Close()
	client := sdk.NewClient(option.WithBaseURL(srv.URL+"/v1"), option.WithAPIKey("unused"), option.WithMaxRetries(0))
	for _, tc := range []struct {
		message, wantText, wantTool, wantArgs, wantFinish string
	}{
		{"hello", "Hello! How can I help you with your orders today? Ask away.", "", "", "stop"},
		{"where is my order?", "", "get_order_status", `{"order_id":"12345"}`, "tool_calls"},
	} {
		stream := client.Chat.Completions.NewStreaming(t.Context(), sdk.ChatCompletionNewParams{
			Model:         "gpt-5-mini",
			Messages:      []sdk.ChatCompletionMessageParamUnion{sdk.UserMessage(tc.message)},
			StreamOptions: sdk.ChatCompletionStreamOptionsParam{IncludeUsage: sdk.Bool(true)},
		})
		var acc sdk.ChatCompletionAccumulator
		chunks := 0
		for stream.Next() {
			acc.AddChunk(stream.Current())
			chunks++
		}
		if err := stream.Err(); err != nil {
			t.Fatalf("%s: %v", tc.message, err)
		}
		if len(acc.Choices) != 1 {
			t.Fatalf("%s: %d choices after %d chunks", tc.message, len(acc.Choices), chunks)
		}
		c := acc.Choices[0]
		tool, args := "", ""
		if len(c.Message.ToolCalls) == 1 {
			tool, args = c.Message.ToolCalls[0].Function.Name, c.Message.ToolCalls[0].Function.Arguments
		}
		if c.Message.Content != tc.wantText || tool != tc.wantTool || args != tc.wantArgs || c.FinishReason != tc.wantFinish {
			t.Errorf("%s: content %q, tool %q %s, finish %q; want %q, %q %s, %q", tc.message, c.Message.Content, tool, args, c.FinishReason, tc.wantText, tc.wantTool, tc.wantArgs, tc.wantFinish)
		}
		if acc.Usage.PromptTokens == 0 || acc.Usage.TotalTokens != acc.Usage.PromptTokens+acc.Usage.CompletionTokens || acc.Model != "served" {
			t.Errorf("%s: usage %+v, model %q: want the served model's usage, summed", tc.message, acc.Usage, acc.Model)
		}
	}
}
