package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
)

// stopper turns Ctrl-C into a graceful stop (drain: no new trials), and a
// second Ctrl-C into cancelling the trials in flight.
type stopper struct {
	drain   chan struct{}
	now     func() // drains, as a first Ctrl-C does
	release func()
}

func interrupts(stderr io.Writer) (context.Context, stopper) {
	ctx, cancel := context.WithCancel(context.Background())
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt)
	s := stopper{drain: make(chan struct{})}
	var once sync.Once
	s.now = func() { once.Do(func() { close(s.drain) }) }
	done := make(chan struct{})
	go func() {
		select {
		case <-signals:
			fmt.Fprintln(stderr, "\ngavel: stopping: trials in flight finish; press Ctrl-C again to cancel them")
			s.now()
		case <-done:
			return
		}
		select {
		case <-signals:
			fmt.Fprintln(stderr, "gavel: cancelling the trials in flight")
			cancel()
		case <-done:
		}
	}()
	s.release = func() { signal.Stop(signals); close(done); cancel() }
	return ctx, s
}
