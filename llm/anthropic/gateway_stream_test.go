package anthropic_test

import (
	"encoding/json"
	"net/http/httptest"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"

	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/gateway"
	"github.com/gavelhq/gavel/llm/llmtest"
)

// Anthropic's own SDK streams from Gavel's model endpoint (llm/gateway)
// as from Anthropic: Message.Accumulate puts the text, a tool use and
// the usage together.
func TestSDKStreamsFromTheGateway(t *testing.T) {
	model := &llmtest.Scripted{Name: "served", Rules: []llmtest.Rule{
		{Match: "order", ToolCalls: []llm.ToolCall{{ID: "toolu_7", Name: "get_order_status", Arguments: json.RawMessage(`{"order_id":"12345"}`)}}},
		{Text: "Hello! How can I help you with your orders today? Ask away."},
	}}
	srv := httptest.NewServer(gateway.New(model, gateway.Config{}))
	defer srv.Close()
	client := sdk.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("unused"), option.WithMaxRetries(0))
	for _, tc := range []struct {
		message, wantText, wantTool, wantInput, wantStop string
	}{
		{"hello", "Hello! How can I help you with your orders today? Ask away.", "", "", "end_turn"},
		{"where is my order?", "", "get_order_status", `{"order_id":"12345"}`, "tool_use"},
	} {
		stream := client.Messages.NewStreaming(t.Context(), sdk.MessageNewParams{
			Model:     "claude-haiku-4-5",
			MaxTokens: 100,
			Messages:  []sdk.MessageParam{sdk.NewUserMessage(sdk.NewTextBlock(tc.message))},
		})
		var msg sdk.Message
		for stream.Next() {
			if err := msg.Accumulate(stream.Current()); err != nil {
				t.Fatalf("%s: %v", tc.message, err)
			}
		}
		if err := stream.Err(); err != nil {
			t.Fatalf("%s: %v", tc.message, err)
		}
		text, tool, input := "", "", ""
		for _, b := range msg.Content {
			switch b.Type {
			case "text":
				text += b.Text
			case "tool_use":
				tool, input = b.Name, string(b.Input)
			}
		}
		if text != tc.wantText || tool != tc.wantTool || input != tc.wantInput || string(msg.StopReason) != tc.wantStop {
			t.Errorf("%s: text %q, tool %q %s, stop %q; want %q, %q %s, %q", tc.message, text, tool, input, msg.StopReason, tc.wantText, tc.wantTool, tc.wantInput, tc.wantStop)
		}
		if msg.Usage.InputTokens == 0 || msg.Usage.OutputTokens == 0 || msg.Model != "served" {
			t.Errorf("%s: usage %+v, model %q: want the served model's", tc.message, msg.Usage, msg.Model)
		}
	}
}
