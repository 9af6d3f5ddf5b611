package runner_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/runner"
	"github.com/gavelhq/gavel/secret"
	"github.com/gavelhq/gavel/telemetry"
)

// A suite's secrets are hidden in every trial the runner returns, run or
// run alone, and in its spans: where the agent repeats one in its reply,
// in a tool call's arguments and result, in an error, and where a judge
// quotes it; the judges saw the secret itself.
func TestSecretsAreHiddenInTrials(t *testing.T) {
	const token = "s3cr3t-token"
	var secrets secret.Set
	secrets.Add(token, "${TOKEN}")
	leaky := agent.Func(func(_ context.Context, _ string, msg agent.Message) (*agent.Reply, error) {
		if msg.Text == "fail" {
			return nil, errors.New("401: the token " + token + " is refused")
		}
		return &agent.Reply{Text: "your token is " + token, ToolCalls: []judge.ToolCall{
			{Name: "lookup", Arguments: json.RawMessage(`{"token":"` + token + `"}`), Result: "found " + token, IsError: true},
		}}, nil
	})
	quotes := judge.Func(func(_ context.Context, tr *judge.Transcript) (judge.Judgment, error) {
		j := judge.Verdict(strings.Contains(tr.Response(), token), "the reply says "+tr.Response())
		j.Name = "quotes"
		return j, nil
	})
	s := &gavel.Suite{Agent: leaky, Secrets: &secrets, Cases: []*gavel.Case{
		prompt("says", "hi", quotes),
		prompt("fails", "fail", quotes),
	}}

	rec := tracetest.NewSpanRecorder()
	defer telemetry.Use(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)))()
	var progress []gavel.Trial
	run := runner.Run(context.Background(), s, runner.Config{Progress: func(p runner.Progress) { progress = append(progress, p.Trial) }})
	alone := runner.RunTrial(context.Background(), s, s.Cases[0], 1, runner.Config{})

	if got := outcomes(run); got != "says:PASS fails:ERROR" {
		t.Errorf("outcomes %s, want says:PASS fails:ERROR (the judge saw the secret)", got)
	}
	for what, v := range map[string]any{"the run": run, "the trials of Progress": progress, "a trial run alone": alone} {
		data, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), token) || !strings.Contains(string(data), "${TOKEN}") {
			t.Errorf("%s holds the secret, or no marker:\n%s", what, data)
		}
	}
	for _, sp := range rec.Ended() {
		if text := fmt.Sprintf("%s %v %v %v", sp.Name(), sp.Attributes(), sp.Events(), sp.Status()); strings.Contains(text, token) {
			t.Errorf("span %s holds the secret: %s", sp.Name(), text)
		}
	}
}
