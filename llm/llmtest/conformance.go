package llmtest

import (
	"context"
	"encoding/json"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gavelhq/gavel/llm"
)

// A Provider starts what a conformance test needs: a fake server of the
// provider's vendor answering from backend (closed when the test ends), a
// model of the provider talking to it, and the fake's controls.
type Provider func(t *testing.T, backend llm.Model) (llm.Model, *Fake)

// hangGuard bounds a conformance test that would otherwise hang.
const hangGuard = 30 * time.Second

// TestProvider runs the behaviour every provider must share against its
// vendor's fake server, so a new provider is held to the same contract:
// an answer and its usage come back; under llm.Retry a rate limit is
// waited out for at least its Retry-After, server errors are retried and
// bad requests or keys are not (the provider itself never retries); a 200
// with a malformed body is a plain error quoting the body; a server that
// hangs gives up at the context's deadline; a reply cut off by the token
// limit says so (FinishLength); and a 200 that is not a true answer is an
// error, read no further than needed: a number where the text should be,
// negative usage or more tokens than a call can spend, a body larger than
// the provider's cap (tested with one of 256 MiB, which must not be read
// whole).
func TestProvider(t *testing.T, open Provider) {
	t.Run("answer", func(t *testing.T) {
		m, _ := open(t, &Scripted{Rules: []Rule{{Text: "ok"}}})
		resp, err := generate(t, m)
		if err != nil || resp.Text != "ok" || resp.Usage.InputTokens == 0 || resp.Usage.OutputTokens == 0 || resp.RequestID == "" || resp.ID == "" {
			t.Fatalf("got %+v, %v; want ok with usage, a request id and the response's id", resp, err)
		}
	})

	t.Run("retry", func(t *testing.T) {
		tests := []struct {
			name         string
			inject       func(*Fake)
			wantErr      bool
			wantRequests int
			wantWait     time.Duration // the least wait asked of Sleep
		}{
			{"a rate limit is waited out", func(f *Fake) { f.FailNext(429, 20*time.Millisecond) }, false, 2, 20 * time.Millisecond},
			{"a server error is retried", func(f *Fake) { f.FailNext(500, 0) }, false, 2, 0},
			{"two server errors are retried", func(f *Fake) { f.FailNext(502, 0); f.FailNext(503, 0) }, false, 3, 0},
			{"a connection reset is retried", func(f *Fake) { f.ResetNext() }, false, 2, 0},
			{"two resets and a server error are retried", func(f *Fake) { f.ResetNext(); f.FailNext(500, 0); f.ResetNext() }, false, 4, 0},
			{"a bad request is not retried", func(f *Fake) { f.FailNext(400, 0) }, true, 1, 0},
			{"a bad key is not retried", func(f *Fake) { f.FailNext(401, 0) }, true, 1, 0},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				m, fake := open(t, &Scripted{Rules: []Rule{{Text: "ok"}}})
				tc.inject(fake)
				var waits []time.Duration
				retry := llm.Retry(llm.RetryConfig{
					BaseDelay: time.Millisecond,
					Sleep: func(ctx context.Context, d time.Duration) error {
						waits = append(waits, d)
						return nil
					},
				})
				resp, err := generate(t, retry(m))
				if (err != nil) != tc.wantErr {
					t.Fatalf("error = %v, want error: %v", err, tc.wantErr)
				}
				if err == nil && resp.Text != "ok" {
					t.Errorf("Text = %q, want ok", resp.Text)
				}
				if got := fake.Requests(); got != tc.wantRequests {
					t.Errorf("the server got %d requests, want %d", got, tc.wantRequests)
				}
				if tc.wantWait > 0 && (len(waits) == 0 || waits[0] < tc.wantWait) {
					t.Errorf("Retry waited %v, want at least the Retry-After, %v", waits, tc.wantWait)
				}
			})
		}
	})

	t.Run("retry with the real sleep", func(t *testing.T) {
		m, fake := open(t, &Scripted{Rules: []Rule{{Text: "ok"}}})
		fake.FailNext(429, time.Millisecond)
		resp, err := generate(t, llm.Retry(llm.RetryConfig{BaseDelay: time.Millisecond})(m))
		if err != nil || resp.Text != "ok" {
			t.Fatalf("got %v, %v; want ok after the rate limit", resp, err)
		}
		if fake.Requests() != 2 || fake.RateLimited() != 1 {
			t.Errorf("requests %d, rate limited %d; want 2, 1", fake.Requests(), fake.RateLimited())
		}
	})

	t.Run("malformed body", func(t *testing.T) {
		m, fake := open(t, &Scripted{Rules: []Rule{{Text: "ok"}}})
		fake.MalformedNext()
		_, err := generate(t, m)
		if err == nil || !strings.Contains(err.Error(), `"content":"The answer is`) {
			t.Fatalf("error = %v, want one quoting the body", err)
		}
		var api *llm.APIError
		if errors.As(err, &api) {
			t.Errorf("error is an APIError %v, want a plain error: the status was 200", api)
		}
	})

	t.Run("a reply cut off by the token limit", func(t *testing.T) {
		m, fake := open(t, &Scripted{Rules: []Rule{{Text: "Let me look.", ToolCalls: []llm.ToolCall{
			{Name: "get_order_status", Arguments: json.RawMessage(`{"order_id":"12345"}`)},
		}}}})
		fake.TruncateNext()
		resp, err := generate(t, m)
		if err != nil {
			t.Fatal(err)
		}
		if resp.FinishReason != llm.FinishLength {
			t.Errorf("FinishReason = %q, want %q", resp.FinishReason, llm.FinishLength)
		}
	})

	t.Run("spoiled answers", func(t *testing.T) {
		tests := []struct {
			name   string
			inject func(*Fake)
			wantIn []string // substrings of the error
		}{
			{"numeric content", (*Fake).NumericContentNext, []string{"a number", "want a string"}},
			{"negative usage", (*Fake).NegativeUsageNext, []string{"usage", "-999999", "want a count of at least 0"}},
			{"impossible usage", (*Fake).ImpossibleUsageNext, []string{"usage", "9223372036854775807", "more than"}},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				m, fake := open(t, &Scripted{Rules: []Rule{{Text: "ok"}}})
				tc.inject(fake)
				resp, err := generate(t, m)
				if err == nil {
					t.Fatalf("got %+v, want an error", resp)
				}
				for _, want := range tc.wantIn {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("error = %v, want one containing %q", err, want)
					}
				}
			})
		}
	})

	t.Run("oversized body", func(t *testing.T) {
		m, fake := open(t, &Scripted{Rules: []Rule{{Text: "ok"}}})
		const size = 8 * llm.DefaultMaxResponseBytes
		fake.OversizedNext(size)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		resp, err := generate(t, m)
		runtime.ReadMemStats(&after)
		var tooLarge *llm.TooLargeError
		if !errors.As(err, &tooLarge) {
			t.Fatalf("got %v, %v; want an *llm.TooLargeError", resp, err)
		}
		if !strings.Contains(err.Error(), "larger than") {
			t.Errorf("error = %v, want one saying the response is too large", err)
		}
		// Reading up to the cap allocates a few times the cap (a growing
		// buffer, and twice that under the race detector), far less than
		// reading the whole body would.
		if allocated := after.TotalAlloc - before.TotalAlloc; allocated >= 6*llm.DefaultMaxResponseBytes {
			t.Errorf("reading it allocated %d MiB, want less than 6 times the cap of %d MiB: read no further than the cap (the body is %d MiB)", allocated>>20, llm.DefaultMaxResponseBytes>>20, size>>20)
		}
	})

	t.Run("hanging server", func(t *testing.T) {
		m, fake := open(t, &Scripted{Rules: []Rule{{Text: "ok"}}})
		fake.HangNext()
		ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
		defer cancel()
		done := make(chan error, 1)
		go func() {
			_, err := m.Generate(ctx, &llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}})
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("error = %v, want the context's deadline", err)
			}
		case <-time.After(hangGuard):
			t.Fatal("Generate hangs past its context's deadline")
		}
	})
}

func generate(t *testing.T, m llm.Model) (*llm.Response, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), hangGuard)
	defer cancel()
	return m.Generate(ctx, &llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}})
}
