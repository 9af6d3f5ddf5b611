package eval

import "sync"

// A Drain stops a run from starting trials, once, for a reason: those in
// flight finish, the others are skipped, and the run is incomplete. The
// gavel command drains on SIGINT and SIGTERM, the web app when it stops,
// the recorder when the results database stops taking writes.
type Drain struct {
	ch     chan struct{} // runner.Config.Stop
	once   sync.Once
	mu     sync.Mutex
	reason string
}

// NewDrain returns a drain not yet stopped.
func NewDrain() *Drain { return &Drain{ch: make(chan struct{})} }

// Stop drains for why ("interrupted (SIGTERM)"); later calls do nothing.
func (d *Drain) Stop(why string) {
	d.once.Do(func() {
		d.mu.Lock()
		d.reason = why
		d.mu.Unlock()
		close(d.ch)
	})
}

// Stopped is closed once Stop was called.
func (d *Drain) Stopped() <-chan struct{} { return d.ch }

// Why says why the run was stopped: runner.Config.Why.
func (d *Drain) Why() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.reason
}
