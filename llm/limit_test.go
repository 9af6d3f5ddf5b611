package llm_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/gavelhq/gavel/llm"
)

// hammer sends n requests from n goroutines through m and returns how many
// failed.
func hammer(m llm.Model, n int) int {
	var wg sync.WaitGroup
	var mu sync.Mutex
	failed := 0
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // hang guard only
			defer cancel()
			if _, err := m.Generate(ctx, ask(string(rune('a'+i%26)))); err != nil {
				mu.Lock()
				failed++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return failed
}

func TestLimitCapsRequestsInFlight(t *testing.T) {
	vendor := &capacity{limit: 100, hold: 2 * time.Millisecond}
	limited := llm.NewLimiter(llm.LimitConfig{MaxInFlight: 4}).Limit()(vendor)
	if failed := hammer(limited, 40); failed != 0 {
		t.Fatalf("%d requests failed", failed)
	}
	if peak := vendor.peak.Load(); peak > 4 {
		t.Errorf("peak in flight = %d, want at most 4", peak)
	}
}

func TestLimitAdaptsToRateLimits(t *testing.T) {
	// The vendor takes 3 at once; the limiter is told 32. Retries carry the
	// rejected requests; the limiter must fall to what the vendor takes.
	vendor := &capacity{limit: 3, hold: 2 * time.Millisecond}
	limiter := llm.NewLimiter(llm.LimitConfig{MaxInFlight: 32})
	model := llm.Chain(vendor, llm.Retry(llm.RetryConfig{MaxAttempts: 20, BaseDelay: time.Millisecond, MaxDelay: 5 * time.Millisecond}), limiter.Limit())
	if failed := hammer(model, 200); failed != 0 {
		t.Fatalf("%d requests failed after retries", failed)
	}
	if got := limiter.InFlightLimit(); got > 8 {
		t.Errorf("limit after the run = %d, want it brought down near the vendor's 3", got)
	}
	if rejected := vendor.rejected.Load(); rejected > 100 {
		t.Errorf("vendor rejected %d of 200 requests; the limiter should have learned", rejected)
	}
}

func TestLimitWithoutCapFindsOneOnRateLimit(t *testing.T) {
	limiter := llm.NewLimiter(llm.LimitConfig{})
	if got := limiter.InFlightLimit(); got != 0 {
		t.Fatalf("limit before any 429 = %d, want 0 (none)", got)
	}
	vendor := &capacity{limit: 2, hold: 2 * time.Millisecond}
	model := llm.Chain(vendor, llm.Retry(llm.RetryConfig{MaxAttempts: 20, BaseDelay: time.Millisecond, MaxDelay: 5 * time.Millisecond}), limiter.Limit())
	if failed := hammer(model, 50); failed != 0 {
		t.Fatalf("%d requests failed after retries", failed)
	}
	if got := limiter.InFlightLimit(); got < 1 {
		t.Errorf("limit after 429s = %d, want one found", got)
	}
}

func TestLimitWaiterLeavesOnCancel(t *testing.T) {
	block := make(chan struct{})
	slow := llm.Func(func(ctx context.Context, req *llm.Request) (*llm.Response, error) {
		<-block
		return answer(req), nil
	})
	model := llm.NewLimiter(llm.LimitConfig{MaxInFlight: 1}).Limit()(slow)
	first := make(chan error, 1)
	go func() { _, err := model.Generate(context.Background(), ask("first")); first <- err }()
	time.Sleep(10 * time.Millisecond) // let the first take the slot

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := model.Generate(ctx, ask("second")); err != context.DeadlineExceeded {
		t.Errorf("waiting request: error = %v, want context.DeadlineExceeded", err)
	}
	close(block)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	if _, err := model.Generate(context.Background(), ask("third")); err != nil {
		t.Errorf("after the waiter left, a new request: %v", err)
	}
}

func TestLimitRequestsPerMinute(t *testing.T) {
	// 6000 a minute is 100 a second with bursts of 100: the 150th request
	// must wait about half a second. The test checks order, not speed: no
	// more than the burst goes through before the bucket refills.
	model := llm.NewLimiter(llm.LimitConfig{RequestsPerMinute: 6000}).Limit()(llm.Func(func(_ context.Context, req *llm.Request) (*llm.Response, error) {
		return answer(req), nil
	}))
	start := time.Now()
	for range 150 {
		if _, err := model.Generate(context.Background(), ask("x")); err != nil {
			t.Fatal(err)
		}
	}
	if elapsed := time.Since(start); elapsed < 400*time.Millisecond {
		t.Errorf("150 requests at 100/s with a burst of 100 took %v; the bucket did not hold them back", elapsed)
	}
}
