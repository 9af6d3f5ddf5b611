package eval

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/runner"
)

func trialDone(done, total int, status judge.Status) runner.Progress {
	return runner.Progress{
		Trial: gavel.Trial{CaseID: "case_001", N: 1, Verdict: judge.Judgment{Status: status}},
		Done:  done, Total: total, Passed: done, Elapsed: time.Duration(done) * time.Second,
	}
}

// Not on a terminal (a CI log), a long run prints every 5%, and every
// trial that does not pass.
func TestProgressLines(t *testing.T) {
	var out bytes.Buffer
	p := NewProgressBar(&out)
	for i := 1; i <= 200; i++ {
		status := judge.StatusPass
		if i == 33 {
			status = judge.StatusFail
		}
		p.Update(trialDone(i, 200, status))
	}
	p.Finish()
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 21 || !strings.HasPrefix(lines[0], "[10/200] PASS") || !strings.HasPrefix(lines[3], "[33/200] FAIL") {
		t.Errorf("got %d lines, want 20 steps and the failure:\n%s", len(lines), out.String())
	}
	if strings.Contains(out.String(), "\r") {
		t.Error("plain lines redraw like a terminal bar")
	}
}

func TestProgressBar(t *testing.T) {
	for _, tc := range []struct {
		done, total int
		want        string
	}{
		{0, 4, "[------------------------] 0/4 trials"},
		{1, 4, "[######------------------] 1/4 trials  pass 1  fail 0  error 0  0 tokens  $0.0000  ETA 3s"},
		{4, 4, "ETA done"},
	} {
		if got := bar(trialDone(tc.done, tc.total, judge.StatusPass)); !strings.Contains(got, tc.want) {
			t.Errorf("bar(%d/%d) = %q, want it to contain %q", tc.done, tc.total, got, tc.want)
		}
	}
}

// syncBuffer is a buffer written from several goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Something is said from the start of a run, and while trials take long:
// a line when the run starts, then a heartbeat while no trial finishes
// (pulse is what the heartbeat's ticker calls), and none after the end.
func TestProgressFromTheStart(t *testing.T) {
	var out syncBuffer
	p := NewProgressBar(&out)
	p.every = time.Hour // the test pulses by itself
	p.Start("support-desk", 12, 4)
	if !p.pulse() {
		t.Fatal("pulse during the run reports the run finished")
	}
	p.Finish()
	if p.pulse() {
		t.Error("pulse after finish reports the run still going")
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || lines[0] != "gavel: support-desk: 12 trials, 4 at a time" || !strings.HasPrefix(lines[1], "[0/12] running, 0s so far") {
		t.Errorf("progress:\n%s", out.String())
	}
}
