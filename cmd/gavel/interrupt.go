package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/gavelhq/gavel/eval"
)

// stopper turns SIGINT (Ctrl-C) and SIGTERM (what CI runners send to
// cancel a job) into a graceful stop: no new trials, those in flight
// finish. A second signal stops at once: the trials in flight are
// cancelled (the context interrupts returns is). Either way the run ends
// as usual: what finished is stored and reported, and the run is
// incomplete (exit code 5).
type stopper struct {
	*eval.Drain
	release func()
}

func interrupts(stderr io.Writer) (context.Context, stopper) {
	ctx, cancel := context.WithCancel(context.Background())
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	s := stopper{Drain: eval.NewDrain()}
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-signals:
			fmt.Fprintf(stderr, "\ngavel: %s: stopping: the trials in flight finish, no new one starts; send it again to cancel them\n", signalName(sig))
			s.Stop("interrupted (" + signalName(sig) + ")")
		case <-done:
			return
		}
		select {
		case sig := <-signals:
			fmt.Fprintf(stderr, "gavel: %s again: cancelling the trials in flight; what finished is kept\n", signalName(sig))
			cancel()
		case <-done:
		}
	}()
	s.release = func() { signal.Stop(signals); close(done); cancel() }
	return ctx, s
}

// signalName names the signals gavel stops on as people know them.
func signalName(sig os.Signal) string {
	switch sig {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return sig.String()
}
