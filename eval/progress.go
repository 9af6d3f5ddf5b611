package eval

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

// A ProgressBar is the Progress gavel prints on stderr as a run goes: a
// line when it starts; on a terminal, one bar redrawn in place; otherwise
// (a CI log) plain lines: every trial that does not pass, and the counts
// every 5% of the run (every trial, in runs of 100 trials or fewer).
// While no trial finishes, a heartbeat says the run is still going, every
// second on a terminal, every `every` in a log.
type ProgressBar struct {
	w        io.Writer
	terminal bool
	every    time.Duration // between heartbeats in a log

	mu      sync.Mutex
	drawn   bool // a bar is on screen
	shown   int  // the last 5% step printed
	last    runner.Progress
	started time.Time
	beat    time.Time // of the last line or heartbeat
	stop    chan struct{}
}

// NewProgressBar returns the progress of runs written to w: a bar when w
// is a terminal, lines when it is a log.
func NewProgressBar(w io.Writer) *ProgressBar {
	return &ProgressBar{w: w, terminal: isTerminal(w), every: 15 * time.Second}
}

// Start says that the run of suite starts, with total trials, and keeps a
// heartbeat going until finish.
func (p *ProgressBar) Start(suite string, total, concurrency int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if total > 0 {
		fmt.Fprintf(p.w, "gavel: %s: %d trials, %d at a time\n", suite, total, concurrency)
	} else { // cases from a pipe: counted as they are read
		fmt.Fprintf(p.w, "gavel: %s: trials as the cases are read, %d at a time\n", suite, concurrency)
	}
	p.started, p.beat = time.Now(), time.Now()
	p.last = runner.Progress{Total: total}
	p.stop = make(chan struct{})
	tick := p.every
	if p.terminal {
		tick = time.Second
	}
	go p.heartbeat(tick, p.stop)
}

func (p *ProgressBar) heartbeat(tick time.Duration, stop chan struct{}) {
	t := time.NewTicker(tick)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		p.mu.Lock()
		due := p.terminal || time.Since(p.beat) >= tick
		p.mu.Unlock()
		if due && !p.pulse() {
			return
		}
	}
}

// pulse redraws the bar with the time elapsed (on a terminal) or prints
// that the run is still going; it reports false once the run finished.
func (p *ProgressBar) pulse() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stop == nil { // finished
		return false
	}
	elapsed := time.Since(p.started).Round(time.Second)
	if p.terminal {
		r := p.last
		r.Elapsed = time.Since(p.started)
		fmt.Fprintf(p.w, "\r\033[K%s  %s", bar(r), elapsed)
		p.drawn = true
		return true
	}
	fmt.Fprintf(p.w, "[%s] running, %s so far\n", done(p.last), elapsed)
	p.beat = time.Now()
	return true
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

// Update is runner.Config.Progress.
func (p *ProgressBar) Update(r runner.Progress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.last = r
	if p.terminal {
		fmt.Fprintf(p.w, "\r\033[K%s", bar(r))
		p.drawn = true
		return
	}
	step := r.Done * 20 / max(r.Total, 1)
	if r.Total == 0 { // not known: a line every 100 trials
		step = p.shown
	}
	if r.Trial.Verdict.Status != judge.StatusPass || r.Total > 0 && r.Total <= 100 || step > p.shown || r.Done == r.Total || r.Total == 0 && r.Done%100 == 0 {
		p.shown = step
		fmt.Fprintln(p.w, line(r))
		p.beat = time.Now()
	}
}

// Finish ends the bar's line, so the report starts on a line of its own.
func (p *ProgressBar) Finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stop != nil {
		close(p.stop)
		p.stop = nil
	}
	if p.drawn {
		fmt.Fprintln(p.w)
		p.drawn = false
	}
}

// done says how many trials are done, of how many when it is known:
// "3/40", or "3" for cases from a pipe.
func done(r runner.Progress) string {
	if r.Total == 0 {
		return fmt.Sprint(r.Done)
	}
	return fmt.Sprintf("%d/%d", r.Done, r.Total)
}

// line is a plain progress line, about the trial that just finished.
func line(r runner.Progress) string {
	return fmt.Sprintf("[%s] %-5s %s#%d  (pass %d, fail %d, error %d; %s tokens, %s)",
		done(r), r.Trial.Verdict.Status, r.Trial.CaseID, r.Trial.N,
		r.Passed, r.Failed, r.Errored, report.Tokens(r.Usage.Total()), report.Cost(r.Usage.Total()))
}

// bar is the terminal's progress bar.
func bar(r runner.Progress) string {
	const width = 24
	if r.Total == 0 { // not known: no bar, no ETA
		return fmt.Sprintf("%d trials  pass %d  fail %d  error %d  %s tokens  %s",
			r.Done, r.Passed, r.Failed, r.Errored, report.Tokens(r.Usage.Total()), report.Cost(r.Usage.Total()))
	}
	filled := r.Done * width / max(r.Total, 1)
	eta := "--"
	if r.Done > 0 && r.Done < r.Total {
		left := r.Elapsed / time.Duration(r.Done) * time.Duration(r.Total-r.Done)
		eta = left.Round(time.Second).String()
	} else if r.Done == r.Total {
		eta = "done"
	}
	return fmt.Sprintf("[%s%s] %d/%d trials  pass %d  fail %d  error %d  %s tokens  %s  ETA %s",
		strings.Repeat("#", filled), strings.Repeat("-", width-filled), r.Done, r.Total,
		r.Passed, r.Failed, r.Errored, report.Tokens(r.Usage.Total()), report.Cost(r.Usage.Total()), eta)
}
