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
		{name: "an answer", answers: []string{`{"reasoning": "answers", "needs_followup": false, "reply": ""}`},
			reply: "The Beach House is 80% booked.", want: FollowUpResult{Reasoning: "answers"}, calls: 1},
		{name: "a blank reply costs no call", answers: []string{"not called"}, reply: " ", want: FollowUpResult{Reasoning: "the reply is blank: it asks nothing"}, calls: 0},
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
		{Name: "answers", Build: build(`{"reasoning": "gives the rate", "needs_followup": false, "reply": ""}`), Transcript: reply("What's the occupancy?", "80%."), WantStatus: judge.StatusPass,
			WantIn: []string{"the agent answers instead of asking for clarification: gives the rate"}},
		{Name: "asks", Build: build(`{"reasoning": "asks which", "needs_followup": true, "reply": "The first one."}`), Transcript: reply("What's the occupancy?", "Which listing?"), WantStatus: judge.StatusFail,
			WantIn: []string{"asks for clarification instead of answering"}},
		{Name: "no response", Build: build("not called"), Transcript: reply("What's the occupancy?", ""), WantStatus: judge.StatusFail},
	})
}
