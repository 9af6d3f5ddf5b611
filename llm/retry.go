package llm

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

// RetryConfig configures Retry.
type RetryConfig struct {
	// MaxAttempts is how many times a request is sent at most, the first
	// included. Defaults to 4.
	MaxAttempts int
	// BaseDelay is the backoff before the first retry; it doubles for each
	// retry after. Defaults to 500 ms.
	BaseDelay time.Duration
	// MaxDelay caps the backoff. Defaults to 30 s.
	MaxDelay time.Duration
	// AttemptTimeout, when set, bounds each attempt; an attempt that runs
	// out of it is retried.
	AttemptTimeout time.Duration
	// Sleep waits between attempts. Defaults to a timer that returns early,
	// with ctx's error, when ctx ends. Tests replace it.
	Sleep func(ctx context.Context, d time.Duration) error
}

// Retry sends a request again when it fails in a way that may go away: a
// rate limit (429), a server error (5xx), a timeout (see Retryable). It
// waits with exponential backoff and full jitter between attempts, and at
// least as long as the vendor's Retry-After asks. It never retries a bad
// request, a bad key or a forbidden model (400, 401, 403, 404), nor a
// cancelled context. The last error is returned as it is.
func Retry(c RetryConfig) Middleware {
	if c.MaxAttempts <= 0 {
		c.MaxAttempts = 4
	}
	if c.BaseDelay <= 0 {
		c.BaseDelay = 500 * time.Millisecond
	}
	if c.MaxDelay <= 0 {
		c.MaxDelay = 30 * time.Second
	}
	if c.Sleep == nil {
		c.Sleep = sleep
	}
	return func(next Model) Model {
		return Func(func(ctx context.Context, req *Request) (*Response, error) {
			for attempt := 1; ; attempt++ {
				resp, err := c.attempt(ctx, next, req)
				if err == nil || attempt >= c.MaxAttempts || !c.retryable(ctx, err) {
					return resp, err
				}
				if serr := c.Sleep(ctx, c.backoff(attempt, err)); serr != nil {
					return nil, errors.Join(err, serr)
				}
			}
		})
	}
}

func (c RetryConfig) attempt(ctx context.Context, next Model, req *Request) (*Response, error) {
	if c.AttemptTimeout <= 0 {
		return next.Generate(ctx, req)
	}
	actx, cancel := context.WithTimeout(ctx, c.AttemptTimeout)
	defer cancel()
	return next.Generate(actx, req)
}

// retryable reports whether err is worth another attempt: Retryable, or
// the attempt's own timeout while the caller's context is still alive.
func (c RetryConfig) retryable(ctx context.Context, err error) bool {
	if ctx.Err() != nil {
		return false
	}
	return Retryable(err) || (c.AttemptTimeout > 0 && errors.Is(err, context.DeadlineExceeded))
}

// backoff returns the wait before attempt+1: a random duration up to
// BaseDelay·2^(attempt-1), capped at MaxDelay, and no shorter than the
// vendor's Retry-After.
func (c RetryConfig) backoff(attempt int, err error) time.Duration {
	ceiling := c.MaxDelay
	if shift := attempt - 1; shift < 30 && c.BaseDelay<<shift < c.MaxDelay {
		ceiling = c.BaseDelay << shift
	}
	d := time.Duration(rand.Int64N(int64(ceiling) + 1))
	var api *APIError
	if errors.As(err, &api) && api.RetryAfter > d {
		d = api.RetryAfter
	}
	return d
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
