package llmjudge_test

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/llmtest"
	"github.com/gavelhq/gavel/llm/openai"
	"github.com/gavelhq/gavel/llmjudge"
)

// An LLM judge whose provider cannot be reached is an ERROR whose cause
// says so; one whose provider answered badly is an ERROR without a cause.
// Gavel's exit code 3 ("a provider could not be reached for the whole
// run") rests on this.
func TestJudgeErrorCause(t *testing.T) {
	answer := &llmtest.Scripted{Rules: []llmtest.Rule{{Text: `{"reasoning": "Fine.", "score": 0.9}`}}}
	tests := []struct {
		name  string
		fault func(f *llmtest.Fake)
		down  bool // the server is not there at all
		want  judge.Cause
	}{
		{"connection refused", nil, true, judge.CauseUnreachable},
		{"503 every time", func(f *llmtest.Fake) { repeat(f.FailNext, 503) }, false, judge.CauseUnreachable},
		{"429 every time", func(f *llmtest.Fake) { repeat(f.FailNext, 429) }, false, judge.CauseUnreachable},
		{"400", func(f *llmtest.Fake) { repeat(f.FailNext, 400) }, false, ""},
		{"401", func(f *llmtest.Fake) { repeat(f.FailNext, 401) }, false, ""},
		{"malformed bodies", func(f *llmtest.Fake) {
			for range 20 {
				f.MalformedNext()
			}
		}, false, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.NewOpenAIServer(answer)
			t.Cleanup(srv.Close)
			url := srv.URL
			if tc.down {
				url = "http://" + closedAddress(t) + "/v1"
			} else {
				tc.fault(&srv.Fake)
			}
			m, err := openai.New(openai.Config{BaseURL: url, Model: "gpt-5-mini"})
			if err != nil {
				t.Fatal(err)
			}
			retried := llm.Retry(llm.RetryConfig{Sleep: func(context.Context, time.Duration) error { return nil }})(m)
			rubric, err := llmjudge.NewRubric(retried, "The response gives the delivery date.", llmjudge.RubricConfig{})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
			defer cancel()
			got := judge.Run(ctx, rubric, &judge.Transcript{Goal: "when?", Turns: []judge.Turn{{Role: judge.RoleAgent, Content: "Tomorrow."}}})
			if got.Status != judge.StatusError || got.Cause != tc.want {
				t.Errorf("%s cause %q (%s), want ERROR cause %q", got.Status, got.Cause, got.Reasoning, tc.want)
			}
		})
	}
}

// repeat scripts a fault for more requests than a judge sends.
func repeat(fail func(status int, retryAfter time.Duration), status int) {
	for range 20 {
		fail(status, 0)
	}
}

// closedAddress returns a loopback address nothing listens on.
func closedAddress(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}
