package eval

import (
	"testing"
	"time"
)

// gavel run --queue tries to reach its database again with backoff, for
// awaitOutage and no longer.
func TestOutageBacksOffAndGivesUp(t *testing.T) {
	t0 := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	var o outage
	for i, c := range []struct {
		at   time.Duration // since the first failure
		wait time.Duration
		ok   bool
	}{
		{0, 250 * time.Millisecond, true},
		{time.Second, 500 * time.Millisecond, true},
		{2 * time.Second, time.Second, true},
		{3 * time.Second, 2 * time.Second, true},
		{5 * time.Second, 4 * time.Second, true},
		{9 * time.Second, 8 * time.Second, true},
		{17 * time.Second, 8 * time.Second, true},
		{awaitOutage - time.Second, 8 * time.Second, true},
		{awaitOutage, 0, false},
	} {
		wait, ok := o.retry(t0.Add(c.at))
		if wait != c.wait || ok != c.ok {
			t.Errorf("try %d, %v into the outage: wait %v (%v), want %v (%v)", i+1, c.at, wait, ok, c.wait, c.ok)
		}
	}
	// Reached again, a new outage starts afresh.
	o = outage{}
	if wait, ok := o.retry(t0.Add(time.Hour)); wait != awaitPoll || !ok {
		t.Errorf("a new outage: wait %v (%v), want %v", wait, ok, awaitPoll)
	}
}
