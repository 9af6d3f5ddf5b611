package runner_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/runner"
)

// A run stopped at once while a trial was being judged is incomplete, and
// the trial cut short is an ERROR whose cause says so (--resume runs it
// again), even with no case left to skip.
func TestCutWhileJudging(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	judging := make(chan struct{})
	waits := judge.Func(func(ctx context.Context, _ *judge.Transcript) (judge.Judgment, error) {
		close(judging)
		<-ctx.Done()
		return judge.Judgment{Name: "rubric"}, fmt.Errorf("rubric: %w", ctx.Err())
	})
	go func() { <-judging; cancel() }()
	s := &gavel.Suite{Agent: echo, Cases: []*gavel.Case{prompt("a", "hi", waits)}}
	run := runner.Run(ctx, s, runner.Config{Why: func() string { return "stopped at once (a second SIGINT)" }})
	tr := run.Cases[0].Trials[0]
	if tr.Transcript.Status != judge.ExecSuccess || tr.Cause() != judge.CauseCancelled {
		t.Errorf("the trial: conversation %s, verdict %s cause %q; want SUCCESS, ERROR cause cancelled", tr.Transcript.Status, tr.Verdict.Status, tr.Cause())
	}
	if run.Stopped != gavel.StopInterrupted || run.StopReason != "stopped at once (a second SIGINT)" || run.Passed() {
		t.Errorf("run stopped %q (%q), passed %v; want interrupted, not passed", run.Stopped, run.StopReason, run.Passed())
	}
}

// A stop that comes once every trial has started skips nothing: the run
// is complete.
func TestStopAfterEveryTrialStarted(t *testing.T) {
	stop := make(chan struct{})
	s := &gavel.Suite{Agent: echo, Cases: []*gavel.Case{prompt("a", "hi", says("hi", nil)), prompt("b", "hi", says("hi", nil))}}
	run := runner.Run(context.Background(), s, runner.Config{Concurrency: 2, Stop: stop, Progress: func(p runner.Progress) {
		if p.Done == p.Total {
			close(stop)
		}
	}})
	if !run.Complete() || !run.Passed() {
		t.Errorf("stopped %q (%q), want a complete run that passed", run.Stopped, run.StopReason)
	}
}

// With fail-fast, every lane judges its trial before it starts another,
// however many lanes there are: while a's verdict is awaited (and b, in
// the other lane, talks), no other trial starts, and once a fails none
// does.
func TestFailFastConcurrent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		var started []string
		releaseA, releaseB := make(chan struct{}), make(chan struct{})
		recording := agent.Func(func(ctx context.Context, id string, msg agent.Message) (*agent.Reply, error) {
			mu.Lock()
			started = append(started, msg.Text)
			mu.Unlock()
			if msg.Text == "b" {
				<-releaseB
			}
			return echo(ctx, id, msg)
		})
		failsLater := judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) {
			<-releaseA
			return judge.Verdict(false, "a fails"), nil
		})
		s := &gavel.Suite{Agent: recording}
		for _, id := range []string{"a", "b", "c", "d", "e", "f"} {
			s.Cases = append(s.Cases, prompt(id, id, says(id, nil)))
		}
		s.Cases[0].Judge = failsLater
		done := make(chan *gavel.Run)
		go func() { done <- runner.Run(t.Context(), s, runner.Config{Concurrency: 2, FailFast: true}) }()

		synctest.Wait() // a is being judged, b talks: nothing else can move
		mu.Lock()
		early := slices.Sorted(slices.Values(started))
		mu.Unlock()
		if !slices.Equal(early, []string{"a", "b"}) {
			t.Errorf("while a was being judged, trials %v had started; want only a and b (each lane judges its trial before starting another)", early)
		}
		close(releaseA)
		synctest.Wait()
		close(releaseB)
		run := <-done
		if got, want := outcomes(run), "a:FAIL b:PASS c:SKIPPED d:SKIPPED e:SKIPPED f:SKIPPED"; got != want {
			t.Errorf("outcomes:\n got %s\nwant %s", got, want)
		}
		if run.Stopped != gavel.StopFailFast || run.StopReason != "fail-fast: a trial 1 did not pass (FAIL)" {
			t.Errorf("stopped %q (%q), want fail-fast after a", run.Stopped, run.StopReason)
		}
	})
}

// Fail-fast stops on an ERROR as on a FAIL, with two lanes too: a crashes,
// b (in the other lane) finishes, and nothing after them starts.
func TestFailFastOnError(t *testing.T) {
	aDone, bStarted := make(chan struct{}), make(chan struct{})
	var mu sync.Mutex
	var started []string
	waitsForA := agent.Func(func(ctx context.Context, id string, msg agent.Message) (*agent.Reply, error) {
		mu.Lock()
		started = append(started, msg.Text)
		mu.Unlock()
		switch msg.Text {
		case "crash": // a crashes once b talks, so that both lanes are busy
			<-bStarted
		case "b":
			close(bStarted)
			<-aDone
		}
		return echo(ctx, id, msg)
	})
	s := &gavel.Suite{Agent: waitsForA, Cases: []*gavel.Case{
		prompt("a", "crash", says("x", nil)), prompt("b", "b", says("b", nil)),
		prompt("c", "c", says("c", nil)), prompt("d", "d", says("d", nil)),
	}}
	run := runner.Run(context.Background(), s, runner.Config{Concurrency: 2, FailFast: true, Progress: func(p runner.Progress) {
		if p.Trial.CaseID == "a" {
			close(aDone)
		}
	}})
	if got, want := outcomes(run), "a:ERROR b:PASS c:SKIPPED d:SKIPPED"; got != want {
		t.Errorf("outcomes:\n got %s\nwant %s (started: %s)", got, want, strings.Join(started, " "))
	}
	if run.Stopped != gavel.StopFailFast || run.StopReason != "fail-fast: a trial 1 did not pass (ERROR)" {
		t.Errorf("stopped %q (%q), want fail-fast after a's ERROR", run.Stopped, run.StopReason)
	}
}
