package llmjudge

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/judge/judgetest"
)

func TestFollowUpDetect(t *testing.T) {
	for _, tc := range []struct {
		name    string
		answers []string
		reply   string
		want    FollowUpResult
		calls   int
		wantErr string
	}{
		{name: "a clarifying question", answers: []string{`{"reasoning": "asks which listing", "needs_followup": true, "reply": "The Beach House."}`},
			reply: "Which listing would you like the occupancy for?", want: FollowUpResult{NeedsFollowUp: true, Reply: "The Beach House.", Reasoning: "asks which listing"}, calls: 1},
		{name: "an answer with a question", answers: []string{`{"reasoning": "answers", "needs_followup": false, "reply": ""}`},
			reply: "The Beach House is 80% booked. Anything else?", want: FollowUpResult{Reasoning: "answers"}, calls: 1},
		{name: "no question costs no call", answers: []string{"not called"},
			reply: "The Beach House is 80% booked.", want: FollowUpResult{Reasoning: "no question mark in the reply"}, calls: 0},
		{name: "a blank reply costs no call", answers: []string{"not called"}, reply: " ", want: FollowUpResult{Reasoning: "the reply is blank"}, calls: 0},
		{name: "a follow-up without a reply is re-asked", answers: []string{`{"reasoning": "x", "needs_followup": true, "reply": ""}`, `{"reasoning": "x", "needs_followup": true, "reply": "May."}`},
			reply: "Which month?", want: FollowUpResult{NeedsFollowUp: true, Reply: "May.", Reasoning: "x"}, calls: 2},
		{name: "garbage is an error", answers: []string{"maybe"}, reply: "Which month?", calls: 3, wantErr: "follow-up: the model's answer could not be used after 3 attempt(s)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			model := answers(tc.answers...)
			f := must(NewFollowUp(model, FollowUpConfig{}))
			got, err := f.Detect(context.Background(), "What's the occupancy?", tc.reply)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("error = %v, want one containing %q", err, tc.wantErr)
				}
			} else if err != nil {
				t.Fatal(err)
			} else if diff := cmp.Diff(tc.want, got, cmpopts.IgnoreFields(FollowUpResult{}, "Usage")); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
			if n := len(model.Calls()); n != tc.calls {
				t.Errorf("got %d calls, want %d", n, tc.calls)
			}
			if tc.calls > 0 && got.Usage.InputTokens == 0 {
				t.Errorf("usage = %+v, want the calls counted", got.Usage)
			}
		})
	}
}

func TestFollowUpAsAJudge(t *testing.T) {
	build := func(text string) func() (judge.Judge, error) {
		return func() (judge.Judge, error) { return asJudge(NewFollowUp(answers(text), FollowUpConfig{})) }
	}
	judgetest.RunCases(t, []judgetest.Case{
		{Name: "answers", Build: build(`{"reasoning": "gives the rate", "needs_followup": false, "reply": ""}`), Transcript: reply("What's the occupancy?", "80%. Anything else?"), WantStatus: judge.StatusPass,
			WantIn: []string{"the agent answers instead of asking for clarification: gives the rate"}},
		{Name: "asks nothing", Build: build("not called"), Transcript: reply("What's the occupancy?", "80%."), WantStatus: judge.StatusPass,
			WantIn: []string{"the agent answers instead of asking for clarification: no question mark in the reply"}},
		{Name: "asks", Build: build(`{"reasoning": "asks which", "needs_followup": true, "reply": "The first one."}`), Transcript: reply("What's the occupancy?", "Which listing?"), WantStatus: judge.StatusFail,
			WantIn: []string{"asks for clarification instead of answering"}},
		{Name: "no response", Build: build("not called"), Transcript: reply("What's the occupancy?", ""), WantStatus: judge.StatusFail},
	})
}

// The pre-check tells, without a model, a reply that asks nothing: it has
// no question mark, in any script's form.
func TestAsksNothing(t *testing.T) {
	for _, tc := range []struct {
		reply     string
		toolCalls int
		want      string // the reason; "" when the reply may ask something
	}{
		{"", 0, "the reply is blank"},
		{"Order 12345 has shipped.", 0, "no question mark in the reply"},
		{"Order 12345 has shipped.", 2, "the agent made 2 tool call(s) and its reply has no question mark"},
		{"Which order do you mean?", 0, ""},
		{"Which order do you mean?", 1, ""},
		{"¿Cuál pedido", 0, ""},
		{"どの注文ですか？", 0, ""},
		{"أي طلب؟", 0, ""},
	} {
		got, ok := AsksNothing(tc.reply, tc.toolCalls)
		if ok != (tc.want != "") || got != tc.want {
			t.Errorf("AsksNothing(%q, %d) = %q, %v; want %q", tc.reply, tc.toolCalls, got, ok, tc.want)
		}
	}
}
