package judge_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"testing"

	"github.com/gavelhq/gavel/judge"
)

// answered is an error that classifies itself, as llm.APIError does.
type answered struct{ status int }

func (e answered) Error() string     { return fmt.Sprintf("%d", e.status) }
func (e answered) Unreachable() bool { return e.status == 429 || e.status >= 500 }

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

func TestCauseOf(t *testing.T) {
	addr := closedAddress(t)
	_, refused := net.Dial("tcp", addr)
	_, refusedHTTP := http.Get("http://" + addr + "/v1/chat/completions")
	if refused == nil || refusedHTTP == nil {
		t.Fatalf("connecting to %s did not fail: %v, %v", addr, refused, refusedHTTP)
	}
	tests := []struct {
		name string
		err  error
		want judge.Cause
	}{
		{"no error", nil, ""},
		{"a refused connection", fmt.Errorf("judge: %w", refused), judge.CauseUnreachable},
		{"a refused HTTP request", fmt.Errorf("openai: %w", refusedHTTP), judge.CauseUnreachable},
		{"a name that does not resolve", &net.DNSError{Err: "no such host", Name: "judge.invalid", IsNotFound: true}, judge.CauseUnreachable},
		{"a timeout", fmt.Errorf("judge: %w", context.DeadlineExceeded), judge.CauseUnreachable},
		{"a connection dropped before the answer", &url.Error{Op: "Post", URL: "http://" + addr, Err: io.EOF}, judge.CauseUnreachable},
		{"a 503 after retries", fmt.Errorf("judge: %w", answered{503}), judge.CauseUnreachable},
		{"a 429 after retries", answered{429}, judge.CauseUnreachable},
		{"a 400", fmt.Errorf("judge: %w", answered{400}), ""},
		{"a malformed body", fmt.Errorf("decode the answer: %w", io.ErrUnexpectedEOF), ""},
		{"a verdict that could not be parsed", errors.New("no verdict in the answer after 3 attempts"), ""},
		{"a cancelled run", fmt.Errorf("judge: %w", context.Canceled), judge.CauseCancelled},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := judge.CauseOf(tc.err); got != tc.want {
				t.Errorf("CauseOf(%v) = %q, want %q", tc.err, got, tc.want)
			}
		})
	}
}

// Run keeps the cause of a judge's error on the ERROR judgment it makes.
func TestRunKeepsTheCause(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want judge.Cause
	}{
		{fmt.Errorf("rubric: %w", answered{502}), judge.CauseUnreachable},
		{fmt.Errorf("rubric: %w", answered{400}), ""},
	} {
		failing := judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) {
			return judge.Judgment{Name: "rubric"}, tc.err
		})
		got := judge.Run(context.Background(), failing, &judge.Transcript{})
		if got.Status != judge.StatusError || got.Cause != tc.want || got.Name != "rubric" {
			t.Errorf("Run with error %v: %s %q cause %q, want ERROR rubric cause %q", tc.err, got.Status, got.Name, got.Cause, tc.want)
		}
	}
}
