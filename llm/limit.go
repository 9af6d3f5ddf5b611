package llm

import (
	"context"
	"math"
	"sync"
	"time"
)

// LimitConfig configures a Limiter.
type LimitConfig struct {
	// MaxInFlight caps the requests in flight at once. Zero means no cap
	// until the vendor answers 429; then the Limiter finds one.
	MaxInFlight int
	// RequestsPerMinute caps the rate of requests, with bursts of up to a
	// second's worth. Zero means no cap.
	RequestsPerMinute int
}

// A Limiter bounds the requests sent to one provider; every model of the
// provider shares it. Its concurrency limit adapts (additive increase,
// multiplicative decrease): a rate-limit answer (429) halves it (or the
// requests in flight, when fewer), and every limit's worth of successes
// while the limit is reached raises it by one, up to MaxInFlight. A MaxInFlight set too high therefore costs a few 429s,
// not a failed run.
//
// It remembers the highest limit that worked, so that it does not keep
// halving against a vendor that takes a fixed number of requests at once:
// a 429 just above that limit (a probe) falls back to it instead, and
// makes the next probe wait twice as many successes, up to maxProbeWait
// times the limit. A 429 at or below it means the vendor takes fewer than
// it did, and halves the limit again.
type Limiter struct {
	max int // MaxInFlight; 0: no cap

	mu        sync.Mutex
	limit     int // the current limit; 0: none yet
	inFlight  int
	waiting   []chan struct{} // FIFO; a closed channel is a granted slot
	successes int             // while the limit was reached, since it last moved
	epoch     int             // bumped when the limit falls
	good      int             // the highest limit that worked since the last halving; 0: none
	probeWait int             // successes needed to rise, in limits: 1, 2, 4, … maxProbeWait

	rate   float64 // tokens a second; 0: no rate cap
	burst  float64
	tokens float64
	filled time.Time // when tokens was last brought up to date
}

// NewLimiter returns a Limiter configured by c.
func NewLimiter(c LimitConfig) *Limiter {
	l := &Limiter{max: max(0, c.MaxInFlight), limit: max(0, c.MaxInFlight), probeWait: 1}
	if c.RequestsPerMinute > 0 {
		l.rate = float64(c.RequestsPerMinute) / 60
		l.burst = math.Max(1, math.Ceil(l.rate))
		l.tokens = l.burst
		l.filled = time.Now()
	}
	return l
}

// Limit returns the Limiter as middleware.
func (l *Limiter) Limit() Middleware {
	return func(next Model) Model {
		return Func(func(ctx context.Context, req *Request) (*Response, error) {
			if err := l.waitForRate(ctx); err != nil {
				return nil, err
			}
			epoch, err := l.acquire(ctx)
			if err != nil {
				return nil, err
			}
			resp, err := next.Generate(ctx, req)
			l.release(epoch, err)
			return resp, err
		})
	}
}

// InFlightLimit returns the current concurrency limit; 0 means none.
func (l *Limiter) InFlightLimit() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.limit
}

// acquire waits for a slot and returns the epoch it was granted in.
func (l *Limiter) acquire(ctx context.Context) (int, error) {
	l.mu.Lock()
	if len(l.waiting) == 0 && (l.limit == 0 || l.inFlight < l.limit) {
		l.inFlight++
		epoch := l.epoch
		l.mu.Unlock()
		return epoch, nil
	}
	ch := make(chan struct{})
	l.waiting = append(l.waiting, ch)
	l.mu.Unlock()

	select {
	case <-ch:
		l.mu.Lock()
		defer l.mu.Unlock()
		return l.epoch, nil
	case <-ctx.Done():
		l.mu.Lock()
		defer l.mu.Unlock()
		for i, w := range l.waiting {
			if w == ch {
				l.waiting = append(l.waiting[:i], l.waiting[i+1:]...)
				return 0, ctx.Err()
			}
		}
		// The slot was granted while ctx ended: hand it on.
		l.inFlight--
		l.grant()
		return 0, ctx.Err()
	}
}

// maxProbeWait bounds how many limits' worth of successes a probe above
// the highest limit that worked waits for, so that a vendor that takes
// more later is still found out.
const maxProbeWait = 16

// release frees a slot and adapts the limit to how the request went.
func (l *Limiter) release(epoch int, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	// A success says the limit can rise only when it was granted under the
	// current limit, and that limit was what held requests back: every
	// slot taken, or requests waiting.
	reached := l.limit > 0 && (l.inFlight >= l.limit || len(l.waiting) > 0)
	l.inFlight--
	switch {
	case epoch != l.epoch:
		// Started before the limit last fell: the other requests of the
		// wave that failed the same way do not cut again, and its
		// successes say nothing of the new limit.
	case RateLimited(err):
		l.fall()
	case err == nil && reached && (l.max == 0 || l.limit < l.max):
		l.successes++
		if l.successes >= l.limit*l.probeWait {
			l.good = l.limit
			l.limit++
			l.successes = 0
		}
	}
	l.grant()
}

// fall lowers the limit after a 429, from the limit or, when fewer were in
// flight, from what was. l.mu is held.
func (l *Limiter) fall() {
	current := l.inFlight + 1 // this request was in flight too
	if l.limit > 0 && l.limit < current {
		current = l.limit
	}
	if l.good > 0 && current > l.good {
		// A probe failed: back to what worked, and probe less often.
		l.limit = l.good
		l.probeWait = min(2*l.probeWait, maxProbeWait)
	} else {
		l.limit = max(1, current/2)
		l.good, l.probeWait = 0, 1
	}
	l.epoch++
	l.successes = 0
}

// grant hands free slots to waiters, first come first served. l.mu is
// held.
func (l *Limiter) grant() {
	for len(l.waiting) > 0 && (l.limit == 0 || l.inFlight < l.limit) {
		l.inFlight++
		close(l.waiting[0])
		l.waiting = l.waiting[1:]
	}
}

// waitForRate takes a token from the rate bucket, waiting for one when it
// is empty.
func (l *Limiter) waitForRate(ctx context.Context) error {
	if l.rate == 0 {
		return nil
	}
	l.mu.Lock()
	now := time.Now()
	l.tokens = math.Min(l.burst, l.tokens+now.Sub(l.filled).Seconds()*l.rate)
	l.filled = now
	l.tokens-- // may go negative: a debt later callers wait behind
	wait := time.Duration(0)
	if l.tokens < 0 {
		wait = time.Duration(-l.tokens / l.rate * float64(time.Second))
	}
	l.mu.Unlock()
	if wait == 0 {
		return nil
	}
	if err := sleep(ctx, wait); err != nil {
		l.mu.Lock()
		l.tokens++ // give the token back
		l.mu.Unlock()
		return err
	}
	return nil
}
