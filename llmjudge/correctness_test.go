package llmjudge

import (
	"strings"
	"testing"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/judge/judgetest"
	"github.com/gavelhq/gavel/llm"
)

func correctnessWith(c CorrectnessConfig, texts ...string) func() (judge.Judge, error) {
	return func() (judge.Judge, error) { return asJudge(NewCorrectness(answers(texts...), c)) }
}

func TestCorrectness(t *testing.T) {
	pass, fail := judge.StatusPass, judge.StatusFail
	judgetest.RunCases(t, []judgetest.Case{
		{Name: "accomplished", Build: correctnessWith(CorrectnessConfig{}, `{"reasoning": "looked it up", "score": 0.95}`), Transcript: orderTranscript(), WantStatus: pass, WantIn: []string{"score 0.95 ≥ 0.7"}},
		{Name: "claimed but not done", Build: correctnessWith(CorrectnessConfig{}, `{"reasoning": "cancel_order failed", "score": 0.1}`), Transcript: complexTranscript(), WantStatus: fail, WantIn: []string{"cancel_order failed"}},
		{Name: "an empty transcript fails without a call", Build: correctnessWith(CorrectnessConfig{}, "not called"), Transcript: &judge.Transcript{Goal: "x"}, WantStatus: fail, WantIn: []string{"the transcript is empty"}},
		{Name: "no transcript", Build: correctnessWith(CorrectnessConfig{}, "not called"), Transcript: nil, WantStatus: fail},
	})
}

// The judge sees the whole transcript: every tool call with its name,
// arguments, result and failure, and every turn.
func TestCorrectnessShowsTheWholeTranscript(t *testing.T) {
	model := answers(`{"reasoning": "ok", "score": 0.2}`)
	j := must(NewCorrectness(model, CorrectnessConfig{MaxToolChars: -1}))
	judgetest.Run(t, j, complexTranscript())
	prompt := lastUser(model.Calls()[0])
	for _, want := range []string{
		`Tool call 3.1: "get_order_status", succeeded.`,
		`Tool call 3.2: "cancel_order", FAILED: the tool reported an error.`,
		`{"order_id":"12345","confirmation":true}`,
		"order is locked for shipping",
		`a very long list of items that goes on and on`,
		"Turn 5, user:",
		"(The session was closed here and reopened with the same id.)",
		"Yes, it is cancelled.",
		`The execution ended with status "TIMEOUT"`,
	} {
		if !strings.Contains(prompt, want) {
			t.Errorf("the prompt lacks %q:\n%s", want, prompt)
		}
	}
}

// A call that a replay of recorded tool results refused is said to be
// the test's refusal, not the tool's failure.
func TestCorrectnessSaysARefusedReplay(t *testing.T) {
	model := answers(`{"reasoning": "ok", "score": 0.9}`)
	j := must(NewCorrectness(model, CorrectnessConfig{}))
	tr := orderTranscript()
	for i := range tr.Turns {
		for k := range tr.Turns[i].ToolCalls {
			tr.Turns[i].ToolCalls[k].IsError, tr.Turns[i].ToolCalls[k].Replayed = true, judge.ReplayUnmatched
		}
	}
	judgetest.Run(t, j, tr)
	want := "FAILED: the tool reported an error (the test refused this call: it replays the tool results of a recorded run, which made no such call)."
	if prompt := lastUser(model.Calls()[0]); !strings.Contains(prompt, want) {
		t.Errorf("the prompt lacks %q:\n%s", want, prompt)
	}
}

// A turn whose model calls suffered faults the test injected (a model
// endpoint's faults) says so to the judge, which can then ask how the
// agent coped.
func TestCorrectnessIsToldOfModelFaults(t *testing.T) {
	model := answers(`{"reasoning": "ok", "score": 0.9}`)
	j := must(NewCorrectness(model, CorrectnessConfig{}))
	tr := orderTranscript()
	for i := range tr.Turns {
		if tr.Turns[i].Role == judge.RoleAgent {
			tr.Turns[i].ModelFaults = []string{"rate_limit (429, Retry-After 1s)"}
			break
		}
	}
	judgetest.Run(t, j, tr)
	want := `(the test injected faults into the agent's model calls on purpose: "rate_limit (429, Retry-After 1s)"):`
	if prompt := lastUser(model.Calls()[0]); !strings.Contains(prompt, want) {
		t.Errorf("the prompt lacks %q:\n%s", want, prompt)
	}
}

func TestCorrectnessRefusesBadConfiguration(t *testing.T) {
	build := func(m llm.Model, c CorrectnessConfig) func() (judge.Judge, error) {
		return func() (judge.Judge, error) { return asJudge(NewCorrectness(m, c)) }
	}
	judgetest.RunBuildErrorCases(t, []judgetest.BuildErrorCase{
		{Name: "no model", Build: build(nil, CorrectnessConfig{}), WantErr: "correctness: no model given"},
		{Name: "threshold", Build: build(answers(""), CorrectnessConfig{Threshold: new(70.0)}), WantErr: "threshold 70"},
	})
}
