package llmjudge

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/judge/judgetest"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/llmtest"
)

const dateCriteria = "The response should give the delivery date and the order number."

func rubricWith(c RubricConfig, texts ...string) func() (judge.Judge, error) {
	return func() (judge.Judge, error) { return asJudge(NewRubric(answers(texts...), dateCriteria, c)) }
}

func TestRubric(t *testing.T) {
	pass, fail, errored := judge.StatusPass, judge.StatusFail, judge.StatusError
	judgetest.RunCases(t, []judgetest.Case{
		{Name: "good response", Build: rubricWith(RubricConfig{}, `{"reasoning": "gives both", "score": 0.85}`), Transcript: orderTranscript(), WantStatus: pass, WantIn: []string{"score 0.85 ≥ 0.7: gives both"}},
		{Name: "poor response", Build: rubricWith(RubricConfig{}, `{"reasoning": "no date", "score": 0.4}`), Transcript: orderTranscript(), WantStatus: fail, WantIn: []string{"score 0.4 < 0.7: no date"}},
		{Name: "the threshold itself passes", Build: rubricWith(RubricConfig{}, `{"reasoning": "acceptable", "score": 0.7}`), Transcript: orderTranscript(), WantStatus: pass},
		{Name: "a stricter threshold", Build: rubricWith(RubricConfig{Threshold: new(0.9)}, `{"reasoning": "good", "score": 0.85}`), Transcript: orderTranscript(), WantStatus: fail, WantIn: []string{"0.85 < 0.9"}},
		{Name: "XML answer", Build: rubricWith(RubricConfig{}, "<reasoning>fine</reasoning><score>0.9</score>"), Transcript: orderTranscript(), WantStatus: pass},
		{Name: "no response fails without a call", Build: rubricWith(RubricConfig{}, "not called"), Transcript: reply("where's my order?", "  "), WantStatus: fail, WantIn: []string{"no response to judge"}},
		{Name: "garbage, then a valid answer", Build: rubricWith(RubricConfig{}, "I'd say 9/10!", `{"reasoning": "gives both", "score": 0.9}`), Transcript: orderTranscript(), WantStatus: pass},
		{Name: "out of range, then a valid answer", Build: rubricWith(RubricConfig{}, `{"reasoning": "great", "score": 9}`, `{"reasoning": "great", "score": 0.9}`), Transcript: orderTranscript(), WantStatus: pass},
		{Name: "always garbage is an error, never a pass", Build: rubricWith(RubricConfig{}, "PASS"), Transcript: orderTranscript(), WantStatus: errored, WantIn: []string{"rubric: the model's answer could not be used after 3 attempt(s): no JSON object"}},
		{Name: "always out of range", Build: rubricWith(RubricConfig{}, `{"reasoning": "perfect", "score": 10}`), Transcript: orderTranscript(), WantStatus: errored, WantIn: []string{`"score" is "10", outside 0..1`}},
	})
}

func TestRubricReasksWithTheParseError(t *testing.T) {
	model := answers("The response is great, 9/10.", `{"reasoning": "gives both", "score": 0.9}`)
	r := must(NewRubric(model, dateCriteria, RubricConfig{}))
	got := judgetest.Run(t, r, orderTranscript())
	judgetest.Check(t, got, judge.StatusPass, nil, nil)

	calls := model.Calls()
	if len(calls) != 2 {
		t.Fatalf("got %d calls, want 2 (one re-ask)", len(calls))
	}
	first, second := calls[0].Messages, calls[1].Messages
	if len(second) != len(first)+2 {
		t.Fatalf("the re-ask has %d messages, want the %d first ones and 2 more", len(second), len(first))
	}
	if diff := cmp.Diff(first, second[:len(first)]); diff != "" {
		t.Errorf("the re-ask changed the original messages:\n%s", diff)
	}
	want := []llm.Message{
		{Role: llm.RoleAssistant, Content: "The response is great, 9/10."},
		{Role: llm.RoleUser, Content: reask(errNoVerdict)},
	}
	if diff := cmp.Diff(want, second[len(first):]); diff != "" {
		t.Errorf("appended messages (-want +got):\n%s", diff)
	}
}

func TestRetriesBoundTheCalls(t *testing.T) {
	for _, tc := range []struct {
		retries   int
		wantCalls int
	}{{0, 3}, {1, 2}, {-1, 1}, {4, 5}} {
		t.Run(fmt.Sprintf("retries %d", tc.retries), func(t *testing.T) {
			model := answers("garbage")
			r := must(NewRubric(model, dateCriteria, RubricConfig{Options: Options{Retries: tc.retries}}))
			got := judge.Run(context.Background(), r, orderTranscript())
			if got.Status != judge.StatusError {
				t.Errorf("status = %s, want ERROR", got.Status)
			}
			if n := len(model.Calls()); n != tc.wantCalls {
				t.Errorf("Retries %d: got %d calls, want %d", tc.retries, n, tc.wantCalls)
			}
		})
	}
}

func TestProviderErrorIsAnError(t *testing.T) {
	down := &llm.APIError{Provider: "anthropic", StatusCode: 529, Message: "overloaded"}
	model := &llmtest.Scripted{Rules: []llmtest.Rule{{Err: down}}}
	r := must(NewRubric(model, dateCriteria, RubricConfig{}))
	_, err := r.Judge(context.Background(), orderTranscript())
	if !errors.Is(err, down) {
		t.Errorf("error = %v, want it to wrap the provider's %v", err, down)
	}
	if n := len(model.Calls()); n != 1 {
		t.Errorf("got %d calls, want 1: a provider error is not re-asked (llm.Retry does that)", n)
	}
	got := judge.Run(context.Background(), r, orderTranscript())
	judgetest.Check(t, got, judge.StatusError, []string{"overloaded"}, nil)
}

func TestUsageCountsEveryCall(t *testing.T) {
	model := answers("garbage", `{"reasoning": "ok", "score": 0.8}`)
	r := must(NewRubric(model, dateCriteria, RubricConfig{}))
	got := judgetest.Run(t, r, orderTranscript())
	var want judge.Usage
	for i, call := range model.Calls() {
		resp := must(answers([]string{"garbage", `{"reasoning": "ok", "score": 0.8}`}[i]).Generate(context.Background(), call))
		want = want.Add(judgeUsage(resp.Usage))
	}
	if got.Usage != want || got.Usage.InputTokens == 0 {
		t.Errorf("usage = %+v, want %+v (both calls)", got.Usage, want)
	}

	// A judge that fails to judge still reports what it spent.
	bad := must(NewRubric(answers("garbage"), dateCriteria, RubricConfig{}))
	out, err := bad.Judge(context.Background(), orderTranscript())
	if err == nil || out.Usage.OutputTokens == 0 {
		t.Errorf("got %+v, %v; want an error and the usage of the 3 calls", out.Usage, err)
	}
}

func TestEveryCallHasTheDefaults(t *testing.T) {
	model := answers(`{"reasoning": "ok", "score": 0.8}`)
	r := must(NewRubric(model, dateCriteria, RubricConfig{}))
	judgetest.Run(t, r, orderTranscript())
	req := model.Calls()[0]
	if req.Temperature == nil || *req.Temperature != 0 {
		t.Errorf("temperature = %v, want 0", req.Temperature)
	}
	if req.MaxTokens != 1024 {
		t.Errorf("max tokens = %d, want 1024", req.MaxTokens)
	}
	if s := req.ResponseSchema; s == nil || !s.Strict {
		t.Errorf("schema = %+v, want a strict schema", s)
	}
}

func TestFindingsReachThePrompt(t *testing.T) {
	ctx := judge.WithFindings(context.Background(),
		judge.Finding{Judge: "max_bubbles 2", Message: "turn 2 has 3 bubble(s), at most 2 allowed"})
	score := `{"reasoning": "ok", "score": 1}`
	builds := map[string]struct {
		answer string
		build  func(llm.Model) judge.Judge
	}{
		"rubric": {score, func(m llm.Model) judge.Judge { return must(NewRubric(m, dateCriteria, RubricConfig{})) }},
		"traits": {score, func(m llm.Model) judge.Judge {
			return must(NewTraits(m, []string{"mentions the date"}, TraitsConfig{}))
		}},
		"correctness": {score, func(m llm.Model) judge.Judge { return must(NewCorrectness(m, CorrectnessConfig{})) }},
		"criteria": {`{"style": {"reasoning": "ok", "score": 7}}`, func(m llm.Model) judge.Judge {
			return must(NewCriteria(m, []Axis{{Name: "style", Description: "short bubbles"}}, CriteriaConfig{}))
		}},
	}
	for name, b := range builds {
		t.Run(name, func(t *testing.T) {
			model := answers(b.answer)
			got := judge.Run(ctx, b.build(model), orderTranscript())
			if got.Status == judge.StatusError {
				t.Fatalf("ERROR: %s", got.Reasoning)
			}
			prompt := lastUser(model.Calls()[0])
			if !contains(prompt, "Deterministic checks noticed", "Weigh these in your scores", "- max_bubbles 2: turn 2 has 3 bubble(s), at most 2 allowed\n</findings_") {
				t.Errorf("the prompt does not show the finding, fenced:\n%s", prompt)
			}
		})
	}
}

func TestRubricRefusesBadConfiguration(t *testing.T) {
	model := answers("")
	build := func(m llm.Model, criteria string, c RubricConfig) func() (judge.Judge, error) {
		return func() (judge.Judge, error) { return asJudge(NewRubric(m, criteria, c)) }
	}
	judgetest.RunBuildErrorCases(t, []judgetest.BuildErrorCase{
		{Name: "no model", Build: build(nil, dateCriteria, RubricConfig{}), WantErr: "rubric: no model given"},
		{Name: "no criteria", Build: build(model, " \n", RubricConfig{}), WantErr: "no criteria given"},
		{Name: "threshold above 1", Build: build(model, dateCriteria, RubricConfig{Threshold: new(7.0)}), WantErr: "threshold 7: want a number in 0..1"},
		{Name: "negative threshold", Build: build(model, dateCriteria, RubricConfig{Threshold: new(-0.5)}), WantErr: "threshold -0.5"},
		{Name: "too many retries", Build: build(model, dateCriteria, RubricConfig{Options: Options{Retries: 11}}), WantErr: "retries 11: at most 10"},
		{Name: "negative samples", Build: build(model, dateCriteria, RubricConfig{Options: Options{Samples: -1}}), WantErr: "samples -1: want 1..25"},
		{Name: "too many samples", Build: build(model, dateCriteria, RubricConfig{Options: Options{Samples: 100}}), WantErr: "samples 100"},
		{Name: "unknown aggregate", Build: build(model, dateCriteria, RubricConfig{Options: Options{Aggregate: "mode"}}), WantErr: `aggregate "mode": want "mean" or "median"`},
		{Name: "temperature", Build: build(model, dateCriteria, RubricConfig{Options: Options{Temperature: 3}}), WantErr: "temperature 3: want 0..2"},
		{Name: "negative max tokens", Build: build(model, dateCriteria, RubricConfig{Options: Options{MaxTokens: -1}}), WantErr: "max tokens -1 is negative"},
		{Name: "a name in the errors", Build: build(nil, dateCriteria, RubricConfig{Options: Options{Name: "dates"}}), WantErr: "dates: no model given"},
	})
}
