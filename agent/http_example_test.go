package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/gavelhq/gavel/agent"
)

// An existing agent API fits without code: a template writes the request
// body, JSON pointers say where the reply's parts are.
func ExampleNewHTTP() {
	// A stand-in for the agent's API, which takes {"conversation_id",
	// "input"} and answers {"output": {"text"}, "tokens": {"in", "out"}}.
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ConversationID string `json:"conversation_id"`
			Input          string `json:"input"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		_ = json.NewEncoder(w).Encode(map[string]any{
			"output": map[string]string{"text": "You said: " + req.Input},
			"tokens": map[string]int{"in": 3, "out": 4},
		})
	}))
	defer api.Close()

	a, err := agent.NewHTTP(agent.HTTPConfig{
		URL:     api.URL + "/v1/chat",
		Request: `{"conversation_id": {{json .SessionID}}, "input": {{json .Message}}}`,
		Reply: agent.ReplyMapping{
			Text:         "/output/text",
			InputTokens:  "/tokens/in",
			OutputTokens: "/tokens/out",
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	s, err := a.Open(ctx, "case-1")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close(ctx)
	reply, err := s.Send(ctx, agent.Message{Text: `say "hi"`})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(reply.Text)
	fmt.Println(reply.Usage.Tokens(), "tokens")
	// Output:
	// You said: say "hi"
	// 7 tokens
}
