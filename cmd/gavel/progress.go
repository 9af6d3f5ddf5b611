package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/report"
	"github.com/gavelhq/gavel/runner"
)

// A progress shows how a run goes, on stderr: on a terminal, one bar
// redrawn in place; otherwise (a CI log) plain lines: every trial that
// does not pass, and the counts every 5% of the run (every trial, in runs
// of 100 trials or fewer).
type progress struct {
	w        io.Writer
	terminal bool

	mu    sync.Mutex
	drawn bool // a bar is on screen
	shown int  // the last 5% step printed
}

func newProgress(w io.Writer) *progress {
	return &progress{w: w, terminal: isTerminal(w)}
}

// isTerminal reports whether w is a terminal that can redraw a line.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || os.Getenv("TERM") == "dumb" {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// update is runner.Config.Progress.
func (p *progress) update(r runner.Progress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.terminal {
		fmt.Fprintf(p.w, "\r\033[K%s", bar(r))
		p.drawn = true
		return
	}
	step := r.Done * 20 / max(r.Total, 1)
	if r.Trial.Verdict.Status != judge.StatusPass || r.Total <= 100 || step > p.shown || r.Done == r.Total {
		p.shown = step
		fmt.Fprintln(p.w, line(r))
	}
}

// finish ends the bar's line, so the report starts on a line of its own.
func (p *progress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn {
		fmt.Fprintln(p.w)
		p.drawn = false
	}
}

// line is a plain progress line, about the trial that just finished.
func line(r runner.Progress) string {
	return fmt.Sprintf("[%d/%d] %-5s %s#%d  (pass %d, fail %d, error %d; %d tokens, %s)",
		r.Done, r.Total, r.Trial.Verdict.Status, r.Trial.CaseID, r.Trial.N,
		r.Passed, r.Failed, r.Errored, r.Usage.Total().Tokens(), report.Cost(r.Usage.Total()))
}

// bar is the terminal's progress bar.
func bar(r runner.Progress) string {
	const width = 24
	filled := r.Done * width / max(r.Total, 1)
	eta := "--"
	if r.Done > 0 && r.Done < r.Total {
		left := r.Elapsed / time.Duration(r.Done) * time.Duration(r.Total-r.Done)
		eta = left.Round(time.Second).String()
	} else if r.Done == r.Total {
		eta = "done"
	}
	return fmt.Sprintf("[%s%s] %d/%d trials  pass %d  fail %d  error %d  %d tokens  %s  ETA %s",
		strings.Repeat("#", filled), strings.Repeat("-", width-filled), r.Done, r.Total,
		r.Passed, r.Failed, r.Errored, r.Usage.Total().Tokens(), report.Cost(r.Usage.Total()), eta)
}
