package llmjudge

import (
	"context"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/judge/judgetest"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/llmtest"
)

var (
	withDate    = reply("where's my order #12345?", "It arrives on 2026-03-15.")
	withoutDate = reply("where's my order #12345?", "It is on its way.")
)

// prefers is a model that prefers the response holding text, wherever it
// is shown.
func prefers(text string) *llmtest.Scripted {
	return &llmtest.Scripted{Rules: []llmtest.Rule{
		{When: func(r *llm.Request) bool {
			user := lastUser(r)
			return strings.Index(user, text) < strings.Index(user, "Response B:")
		}, Text: `{"reasoning": "A has it", "winner": "A"}`},
		{Text: `{"reasoning": "B has it", "winner": "B"}`},
	}}
}

func TestPairwise(t *testing.T) {
	for _, tc := range []struct {
		name          string
		model         llm.Model
		a, b          *judge.Transcript
		want          Winner
		wantForward   string
		wantReversed  string
		wantReasoning string
	}{
		{name: "a consistent preference for a", model: prefers("2026-03-15"), a: withDate, b: withoutDate, want: WinnerA, wantForward: "A", wantReversed: "B", wantReasoning: "a wins in both orders"},
		{name: "a consistent preference for b", model: prefers("2026-03-15"), a: withoutDate, b: withDate, want: WinnerB, wantForward: "B", wantReversed: "A", wantReasoning: "b wins in both orders"},
		{name: "a model that always prefers the first shown gives a tie", model: answers(`{"reasoning": "first is better", "winner": "A"}`), a: withDate, b: withoutDate, want: Tie, wantForward: "A", wantReversed: "A",
			wantReasoning: "a tie: the orders disagree (a shown first: a; b shown first: b), so the preference may be position bias"},
		{name: "a model that always prefers the second shown gives a tie", model: answers(`{"reasoning": "second is better", "winner": "B"}`), a: withDate, b: withoutDate, want: Tie, wantForward: "B", wantReversed: "B"},
		{name: "a tie and a preference give a tie", model: answers(`{"reasoning": "same", "winner": "tie"}`, `{"reasoning": "B", "winner": "B"}`), a: withDate, b: withoutDate, want: Tie, wantForward: "tie", wantReversed: "B"},
		{name: "ties", model: answers(`{"reasoning": "same", "winner": "tie"}`), a: withDate, b: withoutDate, want: Tie, wantForward: "tie", wantReversed: "tie", wantReasoning: "a tie in both orders"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := must(NewPairwise(tc.model, "The response should give the delivery date.", PairwiseConfig{}))
			got, err := p.Compare(context.Background(), tc.a, tc.b)
			if err != nil {
				t.Fatal(err)
			}
			if got.Winner != tc.want || got.Forward.Choice != tc.wantForward || got.Reversed.Choice != tc.wantReversed {
				t.Errorf("got winner %s (forward %s, reversed %s), want %s (%s, %s)", got.Winner, got.Forward.Choice, got.Reversed.Choice, tc.want, tc.wantForward, tc.wantReversed)
			}
			if !strings.Contains(got.Reasoning, tc.wantReasoning) {
				t.Errorf("reasoning = %q, want it to contain %q", got.Reasoning, tc.wantReasoning)
			}
			if got.Usage.InputTokens == 0 {
				t.Errorf("usage = %+v, want both calls counted", got.Usage)
			}
		})
	}
}

// The two calls show the responses in both orders.
func TestPairwiseAsksInBothOrders(t *testing.T) {
	model := answers(`{"reasoning": "same", "winner": "tie"}`)
	p := must(NewPairwise(model, "criteria", PairwiseConfig{}))
	must(p.Compare(context.Background(), withDate, withoutDate))
	calls := model.Calls()
	if len(calls) != 2 {
		t.Fatalf("got %d calls, want 2", len(calls))
	}
	first, second := lastUser(calls[0]), lastUser(calls[1])
	if !(strings.Index(first, "2026-03-15") < strings.Index(first, "on its way")) || !(strings.Index(second, "on its way") < strings.Index(second, "2026-03-15")) {
		t.Errorf("want a shown first, then b shown first; got:\n%s\n\n%s", first, second)
	}
}

func TestPairwiseErrors(t *testing.T) {
	p := must(NewPairwise(answers("garbage"), "criteria", PairwiseConfig{}))
	if _, err := p.Compare(context.Background(), withDate, withoutDate); err == nil || !strings.Contains(err.Error(), "pairwise: the model's answer could not be used after 3 attempt(s)") {
		t.Errorf("error = %v, want the parse failure", err)
	}
	if _, err := p.Compare(context.Background(), withDate, reply("cancel my order", "done")); err == nil || !strings.Contains(err.Error(), "different requests") {
		t.Errorf("error = %v, want different requests refused", err)
	}
	if _, err := p.Compare(context.Background(), withDate, nil); err == nil {
		t.Error("comparing with nil: no error")
	}
	if _, err := NewPairwise(answers(""), "criteria", PairwiseConfig{Options{Samples: 3}}); err == nil || !strings.Contains(err.Error(), "pairwise does not sample") {
		t.Errorf("error = %v, want samples refused", err)
	}
	if _, err := NewPairwise(answers(""), "", PairwiseConfig{}); err == nil || !strings.Contains(err.Error(), "no criteria") {
		t.Errorf("error = %v, want blank criteria refused", err)
	}
}

func TestPairwiseAgainstABaseline(t *testing.T) {
	build := func(model llm.Model, baseline *judge.Transcript) func() (judge.Judge, error) {
		return func() (judge.Judge, error) {
			p, err := NewPairwise(model, "The response should give the delivery date.", PairwiseConfig{})
			if err != nil {
				return nil, err
			}
			return p.Against(baseline), nil
		}
	}
	judgetest.RunCases(t, []judgetest.Case{
		{Name: "better than the baseline", Build: build(prefers("2026-03-15"), withoutDate), Transcript: withDate, WantStatus: judge.StatusPass, WantIn: []string{"better than the baseline"}},
		{Name: "worse than the baseline", Build: build(prefers("2026-03-15"), withDate), Transcript: withoutDate, WantStatus: judge.StatusFail, WantIn: []string{"worse than the baseline"}},
		{Name: "position bias is a tie, which passes", Build: build(answers(`{"reasoning": "first", "winner": "A"}`), withDate), Transcript: withoutDate, WantStatus: judge.StatusPass, WantIn: []string{"no better than the baseline, and no worse"}},
		{Name: "no baseline", Build: build(answers(""), nil), Transcript: withDate, WantStatus: judge.StatusError, WantIn: []string{"no baseline"}},
	})
}
