package llmjudge_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/anthropic"
	"github.com/gavelhq/gavel/llm/llmtest"
	"github.com/gavelhq/gavel/llm/openai"
	"github.com/gavelhq/gavel/llmjudge"
)

// A vendor opens a provider model against a fake server of that vendor,
// which answers with backend and validates every request as the real API
// would (OpenAI's strict structured-output rules included).
type vendor struct {
	name string
	open func(t *testing.T, backend llm.Model) (llm.Model, func() int)
}

var vendors = []vendor{
	{"openai", func(t *testing.T, backend llm.Model) (llm.Model, func() int) {
		srv := llmtest.NewOpenAIServer(backend)
		t.Cleanup(srv.Close)
		m, err := openai.New(openai.Config{APIKey: "sk-test", BaseURL: srv.URL, Model: "gpt-5-mini"})
		if err != nil {
			t.Fatal(err)
		}
		return m, srv.Requests
	}},
	{"anthropic", func(t *testing.T, backend llm.Model) (llm.Model, func() int) {
		srv := llmtest.NewAnthropicServer(backend)
		t.Cleanup(srv.Close)
		m, err := anthropic.New(anthropic.Config{APIKey: "sk-ant-test", BaseURL: srv.URL, Model: "claude-opus-4-5"})
		if err != nil {
			t.Fatal(err)
		}
		return m, srv.Requests
	}},
}

// TestJudgesThroughTheVendorsWireFormats runs every LLM judge through each
// provider and its fake server: the judges' prompts, parameters and
// response schemas must be requests the vendors accept, and their answers
// must come back parsed, in one call each.
func TestJudgesThroughTheVendorsWireFormats(t *testing.T) {
	transcript := &judge.Transcript{
		Goal: "where's my order #12345?",
		Turns: []judge.Turn{
			{Role: judge.RoleUser, Content: "where's my order #12345?"},
			// A question, so that the follow-up detector asks its model.
			{Role: judge.RoleAgent, Content: "It shipped and arrives on 2026-03-15. Anything else?", ToolCalls: []judge.ToolCall{
				{Name: "get_order_status", Arguments: json.RawMessage(`{"order_id":"12345"}`), Result: `{"status":"shipped"}`},
			}},
		},
	}
	judges := []struct {
		name   string
		answer string
		build  func(m llm.Model) (judge.Judge, error)
	}{
		{"rubric", `{"reasoning": "Gives the date.", "score": 0.9}`, func(m llm.Model) (judge.Judge, error) {
			return llmjudge.NewRubric(m, "The response gives the delivery date.", llmjudge.RubricConfig{})
		}},
		{"criteria", `{"accuracy": {"reasoning": "Right date.", "score": 9}, "tone": {"reasoning": "Friendly.", "score": 8}}`, func(m llm.Model) (judge.Judge, error) {
			return llmjudge.NewCriteria(m, []llmjudge.Axis{{Name: "accuracy", Description: "Is it right?"}, {Name: "tone", Description: "Is it friendly?"}}, llmjudge.CriteriaConfig{})
		}},
		{"traits", `{"reasoning": "Both traits.", "score": 3}`, func(m llm.Model) (judge.Judge, error) {
			return llmjudge.NewTraits(m, []string{"mentions delivery date", "no false apology"}, llmjudge.TraitsConfig{})
		}},
		{"correctness", `{"reasoning": "Looked the order up and answered.", "score": 1}`, func(m llm.Model) (judge.Judge, error) {
			return llmjudge.NewCorrectness(m, llmjudge.CorrectnessConfig{})
		}},
		{"follow-up", `{"reasoning": "It answers.", "needs_followup": false, "reply": ""}`, func(m llm.Model) (judge.Judge, error) {
			return llmjudge.NewFollowUp(m, llmjudge.FollowUpConfig{})
		}},
	}
	for _, v := range vendors {
		for _, j := range judges {
			t.Run(v.name+"/"+j.name, func(t *testing.T) {
				model, requests := v.open(t, &llmtest.Scripted{Rules: []llmtest.Rule{{Text: j.answer}}})
				built, err := j.build(model)
				if err != nil {
					t.Fatal(err)
				}
				got := judge.Run(context.Background(), built, transcript)
				if got.Status != judge.StatusPass {
					t.Fatalf("status = %s, want PASS: %s", got.Status, got.Reasoning)
				}
				if got.Usage.InputTokens == 0 {
					t.Error("no token usage recorded")
				}
				if n := requests(); n != 1 {
					t.Errorf("%d requests reached the vendor, want 1 (a rejected or re-asked request means the wire format is off)", n)
				}
			})
		}
		t.Run(v.name+"/pairwise", func(t *testing.T) {
			model, requests := v.open(t, &llmtest.Scripted{Rules: []llmtest.Rule{
				{Match: "2026-03-15", Text: `{"reasoning": "Only one gives the date.", "winner": "A"}`},
			}})
			p, err := llmjudge.NewPairwise(model, "Which response gives the delivery date?", llmjudge.PairwiseConfig{})
			if err != nil {
				t.Fatal(err)
			}
			vague := &judge.Transcript{Goal: transcript.Goal, FinalResponse: "It is on its way."}
			res, err := p.Compare(context.Background(), transcript, vague)
			if err != nil {
				t.Fatal(err)
			}
			if n := requests(); n != 2 {
				t.Errorf("%d requests, want 2 (both orders)", n)
			}
			// The scripted judge always says "A": a position-biased judge, so
			// the two orders disagree and the comparison is a tie.
			if res.Winner != llmjudge.Tie {
				t.Errorf("winner = %s, want a tie from a position-biased judge", res.Winner)
			}
		})
	}
}
