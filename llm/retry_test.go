package llm_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gavelhq/gavel/llm"
)

func TestRetry(t *testing.T) {
	tests := []struct {
		name      string
		errs      []error
		wantCalls int
		wantErr   bool
		wantWaits []time.Duration // only checked when set: the minimum waits
	}{
		{"success at once", nil, 1, false, nil},
		{"500 then success", []error{&llm.APIError{StatusCode: 500}}, 2, false, nil},
		{"429 honours Retry-After", []error{&llm.APIError{StatusCode: 429, RetryAfter: 7 * time.Second}}, 2, false, []time.Duration{7 * time.Second}},
		{"timeout then success", []error{timeoutError{}}, 2, false, nil},
		{"400 is not retried", []error{&llm.APIError{StatusCode: 400}}, 1, true, nil},
		{"401 is not retried", []error{&llm.APIError{StatusCode: 401}}, 1, true, nil},
		{"403 is not retried", []error{&llm.APIError{StatusCode: 403}}, 1, true, nil},
		{"gives up after MaxAttempts", []error{&llm.APIError{StatusCode: 503}, &llm.APIError{StatusCode: 503}, &llm.APIError{StatusCode: 503}}, 3, true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			model := &flaky{errs: tt.errs}
			var waits []time.Duration
			retry := llm.Retry(llm.RetryConfig{MaxAttempts: 3, Sleep: func(_ context.Context, d time.Duration) error {
				waits = append(waits, d)
				return nil
			}})
			_, err := retry(model).Generate(context.Background(), ask("hi"))
			if (err != nil) != tt.wantErr || model.calls != tt.wantCalls {
				t.Errorf("got %d calls, error %v; want %d calls, error: %v", model.calls, err, tt.wantCalls, tt.wantErr)
			}
			for i, min := range tt.wantWaits {
				if i >= len(waits) || waits[i] < min {
					t.Errorf("waits = %v, want wait %d of at least %v", waits, i+1, min)
				}
			}
		})
	}
}

// The zero RetryConfig sends a request at most 4 times, as documented,
// and waits with the documented backoff: at most 500 ms, then 1 s, then 2 s.
func TestRetryDefaults(t *testing.T) {
	down := make([]error, 10)
	for i := range down {
		down[i] = &llm.APIError{StatusCode: 503}
	}
	model := &flaky{errs: down}
	var waits []time.Duration
	_, err := llm.Retry(llm.RetryConfig{Sleep: func(_ context.Context, d time.Duration) error {
		waits = append(waits, d)
		return nil
	}})(model).Generate(context.Background(), ask("hi"))
	if err == nil || model.calls != 4 {
		t.Fatalf("got %d calls, error %v; want 4 calls and the last error", model.calls, err)
	}
	for i, ceiling := range []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second} {
		if i >= len(waits) || waits[i] > ceiling {
			t.Errorf("waits %v: wait %d should be at most %v", waits, i+1, ceiling)
		}
	}
}

func TestRetryBackoffGrowsAndIsCapped(t *testing.T) {
	errs := make([]error, 9)
	for i := range errs {
		errs[i] = &llm.APIError{StatusCode: 503}
	}
	var waits []time.Duration
	retry := llm.Retry(llm.RetryConfig{MaxAttempts: 10, BaseDelay: 100 * time.Millisecond, MaxDelay: time.Second, Sleep: func(_ context.Context, d time.Duration) error {
		waits = append(waits, d)
		return nil
	}})
	if _, err := retry(&flaky{errs: errs}).Generate(context.Background(), ask("hi")); err != nil {
		t.Fatal(err)
	}
	for i, w := range waits {
		ceiling := min(time.Second, 100*time.Millisecond<<i)
		if w < 0 || w > ceiling {
			t.Errorf("wait %d = %v, want within 0..%v (full jitter under the doubling ceiling)", i+1, w, ceiling)
		}
	}
}

func TestRetryStopsWhenTheContextEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	model := &flaky{errs: []error{&llm.APIError{StatusCode: 503}, &llm.APIError{StatusCode: 503}}}
	retry := llm.Retry(llm.RetryConfig{Sleep: func(ctx context.Context, _ time.Duration) error {
		cancel()
		return ctx.Err()
	}})
	_, err := retry(model).Generate(ctx, ask("hi"))
	if !errors.Is(err, context.Canceled) || model.calls != 1 {
		t.Errorf("got %d calls, error %v; want 1 call and context.Canceled", model.calls, err)
	}
}

func TestRetryAttemptTimeout(t *testing.T) {
	calls := 0
	slowOnce := llm.Func(func(ctx context.Context, req *llm.Request) (*llm.Response, error) {
		calls++
		if calls == 1 {
			<-ctx.Done() // the attempt's own deadline
			return nil, ctx.Err()
		}
		return answer(req), nil
	})
	retry := llm.Retry(llm.RetryConfig{AttemptTimeout: 10 * time.Millisecond, BaseDelay: time.Millisecond})
	if _, err := retry(slowOnce).Generate(context.Background(), ask("hi")); err != nil || calls != 2 {
		t.Errorf("got %d calls, error %v; want a second attempt that succeeds", calls, err)
	}
}
