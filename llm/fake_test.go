package llm_test

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gavelhq/gavel/llm"
)

// answer returns a response echoing the request's last message.
func answer(req *llm.Request) *llm.Response {
	text := ""
	if n := len(req.Messages); n > 0 {
		text = "echo: " + req.Messages[n-1].Content
	}
	return &llm.Response{Text: text, Model: "gpt-5-mini", Usage: llm.Usage{InputTokens: 1000, OutputTokens: 100}}
}

// flaky fails with errs in turn, then answers.
type flaky struct {
	mu    sync.Mutex
	errs  []error
	calls int
}

func (f *flaky) Generate(_ context.Context, req *llm.Request) (*llm.Response, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if len(f.errs) > 0 {
		err := f.errs[0]
		f.errs = f.errs[1:]
		return nil, err
	}
	return answer(req), nil
}

// capacity answers 429 when more than limit requests are in flight, and
// records the most it saw at once.
type capacity struct {
	limit    int64
	hold     time.Duration
	inFlight atomic.Int64
	peak     atomic.Int64
	rejected atomic.Int64
}

func (c *capacity) Generate(ctx context.Context, req *llm.Request) (*llm.Response, error) {
	n := c.inFlight.Add(1)
	defer c.inFlight.Add(-1)
	for {
		p := c.peak.Load()
		if n <= p || c.peak.CompareAndSwap(p, n) {
			break
		}
	}
	if n > c.limit {
		c.rejected.Add(1)
		return nil, &llm.APIError{Provider: "fake", StatusCode: 429, RetryAfter: time.Millisecond}
	}
	select {
	case <-time.After(c.hold):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return answer(req), nil
}

func ask(text string) *llm.Request {
	return &llm.Request{Model: "gpt-5-mini", Messages: []llm.Message{{Role: llm.RoleUser, Content: text}}}
}
