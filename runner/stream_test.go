package runner_test

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/runner"
)

// pulled yields n cases, case_001 to case_n, counting those asked for.
func pulled(n int, count *atomic.Int32) func(yield func(*gavel.Case) bool) {
	return func(yield func(*gavel.Case) bool) {
		for i := 1; i <= n; i++ {
			count.Add(1)
			id := fmt.Sprintf("case_%03d", i)
			if !yield(prompt(id, id, says(id, nil))) {
				return
			}
		}
	}
}

// RunCases asks for a case when the workers are ready for it: when the
// first trial starts, at most one case more than the workers take has
// been read (and built). The results are in the order the cases came,
// whatever order they finished in.
func TestRunCasesReadsCasesAsTheyRun(t *testing.T) {
	const concurrency, n = 2, 40
	var asked, atFirst atomic.Int32
	atFirst.Store(-1)
	first := agent.Func(func(ctx context.Context, session string, msg agent.Message) (*agent.Reply, error) {
		atFirst.CompareAndSwap(-1, asked.Load())
		return echo(ctx, session, msg)
	})
	s := &gavel.Suite{Name: "stream", Agent: first}
	var total int
	run := runner.RunCases(t.Context(), s, pulled(n, &asked), n, runner.Config{
		Concurrency: concurrency,
		Started:     func(trials, _ int) { total = trials },
	})
	if got := atFirst.Load(); got < 1 || got > concurrency+1 {
		t.Errorf("%d cases were read when the first trial started, want 1 to %d (of %d)", got, concurrency+1, n)
	}
	if total != n {
		t.Errorf("Started with %d trials, want %d", total, n)
	}
	var want []string
	for i := 1; i <= n; i++ {
		want = append(want, fmt.Sprintf("case_%03d:PASS", i))
	}
	if got := outcomes(run); got != strings.Join(want, " ") {
		t.Errorf("outcomes:\n%s\nwant\n%s", got, strings.Join(want, " "))
	}
	if !run.Complete() {
		t.Errorf("the run is incomplete: %s", run.StopReason)
	}
	for _, cr := range run.Cases {
		if cr.Case.Judge != nil || cr.Case.Input() != cr.Case.ID {
			t.Errorf("case %s: judge %v, input %q; want the judge let go and the input kept", cr.Case.ID, cr.Case.Judge, cr.Case.Input())
		}
	}
}

// A run that stops (here, fail-fast after the first case) still reads
// the cases after it, and reports them skipped, in order: the run is
// incomplete and says why.
func TestRunCasesSkipsTheRestWhenStopped(t *testing.T) {
	var asked atomic.Int32
	cases := func(yield func(*gavel.Case) bool) {
		asked.Add(1)
		if !yield(prompt("fails", "hello", says("bye", nil))) {
			return
		}
		pulled(5, &asked)(yield)
	}
	run := runner.RunCases(t.Context(), &gavel.Suite{Name: "stream", Agent: echo}, cases, 0, runner.Config{Concurrency: 1, FailFast: true})
	if got := asked.Load(); got != 6 {
		t.Errorf("%d cases were read, want all 6", got)
	}
	want := "fails:FAIL case_001:SKIPPED case_002:SKIPPED case_003:SKIPPED case_004:SKIPPED case_005:SKIPPED"
	if got := outcomes(run); got != want {
		t.Errorf("outcomes %s, want %s", got, want)
	}
	if run.Stopped != gavel.StopFailFast || run.Cases[5].SkipReason == "" {
		t.Errorf("stopped %q, the last case's skip reason %q; want fail-fast and a reason", run.Stopped, run.Cases[5].SkipReason)
	}
}

// The cases a stopped run skips are let go of as the ones it ran are:
// their judges are not kept to the end of a long streamed suite.
func TestRunCasesLetsGoOfSkippedCases(t *testing.T) {
	var asked atomic.Int32
	cases := func(yield func(*gavel.Case) bool) {
		if !yield(prompt("fails", "hello", says("bye", nil))) {
			return
		}
		pulled(3, &asked)(yield)
	}
	run := runner.RunCases(t.Context(), &gavel.Suite{Name: "stream", Agent: echo}, cases, 0, runner.Config{Concurrency: 1, FailFast: true})
	for _, cr := range run.Cases {
		if cr.Case.Judge != nil {
			t.Errorf("case %s (%s): judge %v; want it let go", cr.Case.ID, cr.Outcome, cr.Case.Judge)
		}
		if cr.Outcome == gavel.Skipped && cr.Case.Input() != cr.Case.ID {
			t.Errorf("skipped case %s: input %q; want it kept", cr.Case.ID, cr.Case.Input())
		}
	}
}
