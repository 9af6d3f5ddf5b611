package runner_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/conversation"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llmjudge"
	"github.com/gavelhq/gavel/runner"
)

// echo answers every message with itself, after the delay the message
// names ("slow" waits 50ms), and fails on "crash" or hangs on "hang".
var echo = agent.Func(func(ctx context.Context, _ string, msg agent.Message) (*agent.Reply, error) {
	switch msg.Text {
	case "slow":
		time.Sleep(50 * time.Millisecond)
	case "crash":
		return nil, errors.New("exit status 2")
	case "hang":
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return &agent.Reply{Text: msg.Text, Usage: judge.Usage{InputTokens: 100, CostUSD: 0.01}}, nil
})

// says passes when the response contains want, counting its calls.
func says(want string, calls *atomic.Int32) judge.Judge {
	return judge.Func(func(_ context.Context, t *judge.Transcript) (judge.Judgment, error) {
		if calls != nil {
			calls.Add(1)
		}
		j := judge.Verdict(strings.Contains(t.Response(), want), fmt.Sprintf("response %q", t.Response()))
		j.Name = "says " + want
		return j, nil
	})
}

func prompt(id, text string, j judge.Judge) *gavel.Case {
	return &gavel.Case{ID: id, Script: conversation.Script{Rounds: []conversation.Round{{Prompt: text}}}, Judge: j}
}

func outcomes(run *gavel.Run) string {
	var out []string
	for _, c := range run.Cases {
		out = append(out, fmt.Sprintf("%s:%s", c.Case.ID, c.Outcome))
	}
	return strings.Join(out, " ")
}

func TestSuiteOrderAndOutcomes(t *testing.T) {
	var judged atomic.Int32
	s := &gavel.Suite{Agent: echo, Cases: []*gavel.Case{
		prompt("slow", "slow", says("slow", &judged)),
		prompt("fails", "hello", says("bye", &judged)),
		prompt("crashes", "crash", says("crash", &judged)),
		prompt("hangs", "hang", says("hang", &judged)),
		prompt("no-judge", "hi", nil),
		prompt("abstains", "hi", judge.All()),
	}}
	var progress []int
	run := runner.Run(context.Background(), s, runner.Config{
		Concurrency: 3,
		Timeout:     200 * time.Millisecond,
		Progress:    func(p runner.Progress) { progress = append(progress, p.Done) },
	})
	if got, want := outcomes(run), "slow:PASS fails:FAIL crashes:ERROR hangs:ERROR no-judge:ERROR abstains:ERROR"; got != want {
		t.Errorf("outcomes:\n got %s\nwant %s", got, want)
	}
	if judged.Load() != 2 {
		t.Errorf("%d judge calls; the crashed and hung conversations must not be judged", judged.Load())
	}
	hang := run.Cases[3].Trials[0]
	if hang.Transcript.Status != judge.ExecTimeout || !strings.Contains(hang.Verdict.Reasoning, "did not complete (TIMEOUT)") {
		t.Errorf("the hung trial: %s, %q", hang.Transcript.Status, hang.Verdict.Reasoning)
	}
	if len(progress) != 6 || progress[5] != 6 {
		t.Errorf("progress reports %v, want 1..6", progress)
	}
	if stats := run.Stats(); stats.PassRate == nil || *stats.PassRate != 1.0/6 || stats.Usage.Agent.CostUSD == 0 {
		t.Errorf("stats %+v", stats)
	}
}

// pass^k follows τ-bench: a case passing 2 of 4 trials has pass^2 =
// C(2,2)/C(4,2) = 1/6 and pass@2 = 1 - C(2,2)/C(4,2) = 5/6.
func TestTrialsAndPassHatK(t *testing.T) {
	var n atomic.Int32
	alternate := judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) {
		return judge.Verdict(n.Add(1)%2 == 0, "alternating"), nil
	})
	s := &gavel.Suite{Agent: echo, Trials: 2, Cases: []*gavel.Case{
		{ID: "flaky", Trials: 4, Script: conversation.Script{Rounds: []conversation.Round{{Prompt: "x"}}}, Judge: alternate},
	}}
	run := runner.Run(context.Background(), s, runner.Config{Concurrency: 1})
	stats := run.Stats()
	if run.Cases[0].Outcome != gavel.Flaky || stats.Trials != 4 {
		t.Fatalf("outcome %s with %d trials", run.Cases[0].Outcome, stats.Trials)
	}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	if !near(stats.PassHatK[1], 1.0/6) || !near(stats.PassAtK[1], 5.0/6) || !near(stats.PassHatK[0], 0.5) {
		t.Errorf("pass^k %v, pass@k %v", stats.PassHatK, stats.PassAtK)
	}
	if len(runner.Run(context.Background(), s, runner.Config{Trials: 3}).Cases[0].Trials) != 3 {
		t.Error("Config.Trials must override the case's trials")
	}
}

func TestStopScheduling(t *testing.T) {
	cases := func() []*gavel.Case {
		var out []*gavel.Case
		for i := range 5 {
			out = append(out, prompt(fmt.Sprint(i), "hello", says("hello", nil)))
		}
		out[1].Judge = says("bye", nil)
		return out
	}
	stop := make(chan struct{})
	tests := []struct {
		name        string
		config      runner.Config
		want        string
		wantReason  string
		wantStopped gavel.StopCause
	}{
		{"budget in dollars", runner.Config{Budget: runner.Budget{MaxCostUSD: 0.02}},
			"0:PASS 1:FAIL 2:SKIPPED 3:SKIPPED 4:SKIPPED", "the budget of $0.02 was spent ($0.0200)", gavel.StopBudget},
		{"a budget in fractions of a cent is not rounded", runner.Config{Budget: runner.Budget{MaxCostUSD: 0.005}},
			"0:PASS 1:SKIPPED 2:SKIPPED 3:SKIPPED 4:SKIPPED", "the budget of $0.005 was spent ($0.0100)", gavel.StopBudget},
		{"budget in tokens", runner.Config{Budget: runner.Budget{MaxTokens: 300}},
			"0:PASS 1:FAIL 2:PASS 3:SKIPPED 4:SKIPPED", "the budget of 300 tokens was spent (300)", gavel.StopBudget},
		{"fail fast", runner.Config{FailFast: true},
			"0:PASS 1:FAIL 2:SKIPPED 3:SKIPPED 4:SKIPPED", "fail-fast: 1 trial 1 did not pass (FAIL)", gavel.StopFailFast},
		{"stopped", runner.Config{Stop: stop, Why: func() string { return "interrupted (SIGTERM)" }, Progress: func(p runner.Progress) {
			if p.Done == 1 {
				close(stop)
			}
		}}, "0:PASS 1:SKIPPED 2:SKIPPED 3:SKIPPED 4:SKIPPED", "interrupted (SIGTERM)", gavel.StopInterrupted},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.config.Concurrency = 1
			run := runner.Run(context.Background(), &gavel.Suite{Agent: echo, Cases: cases()}, tc.config)
			if got := outcomes(run); got != tc.want {
				t.Errorf("outcomes:\n got %s\nwant %s", got, tc.want)
			}
			if reason := run.Cases[4].SkipReason; reason != tc.wantReason {
				t.Errorf("skip reason %q, want %q", reason, tc.wantReason)
			}
			if run.Stopped != tc.wantStopped || run.StopReason != tc.wantReason || run.Passed() {
				t.Errorf("stopped %q (%q), passed %v; want %q (%q), not passed", run.Stopped, run.StopReason, run.Passed(), tc.wantStopped, tc.wantReason)
			}
		})
	}
}

// A cost budget cannot be kept once something was spent without a
// price: the run stops there, incomplete, rather than go on spending what
// it cannot count.
func TestCostBudgetStopsAtUnpricedUsage(t *testing.T) {
	unpriced := agent.Func(func(_ context.Context, _ string, msg agent.Message) (*agent.Reply, error) {
		return &agent.Reply{Text: msg.Text, Usage: judge.Usage{InputTokens: 100, Unpriced: true}}, nil
	})
	var cases []*gavel.Case
	for i := range 3 {
		cases = append(cases, prompt(fmt.Sprint(i), "hello", says("hello", nil)))
	}
	run := runner.Run(context.Background(), &gavel.Suite{Agent: unpriced, Cases: cases},
		runner.Config{Concurrency: 1, Budget: runner.Budget{MaxCostUSD: 1}})
	const why = "the budget of $1.00 cannot be kept: some of what was spent has no price (an agent that reports tokens without their cost, or a model without a price)"
	if got := outcomes(run); got != "0:PASS 1:SKIPPED 2:SKIPPED" || run.StopReason != why || run.Stopped != gavel.StopBudget {
		t.Errorf("outcomes %s, stopped %q (%q); want only the first trial, stopped by the budget: %q", got, run.Stopped, run.StopReason, why)
	}
	// A token budget counts unpriced tokens as any others.
	run = runner.Run(context.Background(), &gavel.Suite{Agent: unpriced, Cases: cases},
		runner.Config{Concurrency: 1, Budget: runner.Budget{MaxTokens: 1000}})
	if got := outcomes(run); got != "0:PASS 1:PASS 2:PASS" {
		t.Errorf("with a token budget: outcomes %s, want every trial run", got)
	}
}

// A resumed run's budget and fail-fast are about the trials it runs: a
// copied trial that cost a lot or failed was paid for and judged by the
// run it came from, and stops nothing here.
func TestReusedTrialsDoNotStopTheRun(t *testing.T) {
	expensive := gavel.Trial{CaseID: "0", N: 1, Verdict: judge.Verdict(false, "failed before"),
		Usage: gavel.RoleUsage{Agent: judge.Usage{InputTokens: 1_000_000, CostUSD: 10}}}
	reuse := func(caseID string, n int) (gavel.Trial, bool) { return expensive, caseID == "0" }
	for _, tc := range []struct {
		name   string
		config runner.Config
	}{
		{"budget in dollars", runner.Config{Budget: runner.Budget{MaxCostUSD: 1}}},
		{"budget in tokens", runner.Config{Budget: runner.Budget{MaxTokens: 1000}}},
		{"fail fast", runner.Config{FailFast: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var cases []*gavel.Case
			for i := range 3 {
				cases = append(cases, prompt(fmt.Sprint(i), "hello", says("hello", nil)))
			}
			tc.config.Concurrency, tc.config.Reuse = 1, reuse
			run := runner.Run(context.Background(), &gavel.Suite{Agent: echo, Cases: cases}, tc.config)
			if got := outcomes(run); got != "0:FAIL 1:PASS 2:PASS" || run.Stopped != "" {
				t.Errorf("outcomes %s, stopped %q (%q); want the new trials run", got, run.Stopped, run.StopReason)
			}
		})
	}
}

func TestCancelledRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	s := &gavel.Suite{Agent: echo, Cases: []*gavel.Case{prompt("a", "hang", says("x", nil)), prompt("b", "hi", says("hi", nil))}}
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	run := runner.Run(ctx, s, runner.Config{Concurrency: 1})
	if got := outcomes(run); got != "a:ERROR b:SKIPPED" || run.Stopped != gavel.StopInterrupted {
		t.Errorf("outcomes %s, stopped %q", got, run.Stopped)
	}
	cut := run.Cases[0].Trials[0]
	if cut.Transcript.Status != judge.ExecCancelled || cut.Cause() != judge.CauseCancelled {
		t.Errorf("the trial in flight ended %s, cause %q; want CANCELLED, cancelled", cut.Transcript.Status, cut.Cause())
	}
}

// The agent's lanes do not wait for judges: with two lanes and the first
// two trials' judges waiting, the third trial still talks with the agent.
func TestJudgingDoesNotHoldTheAgentsLanes(t *testing.T) {
	var talked atomic.Int32
	third := make(chan struct{})
	counting := agent.Func(func(ctx context.Context, id string, msg agent.Message) (*agent.Reply, error) {
		if talked.Add(1) == 3 {
			close(third)
		}
		return echo(ctx, id, msg)
	})
	waitForThird := judge.Func(func(ctx context.Context, t *judge.Transcript) (judge.Judgment, error) {
		select {
		case <-third:
			return judge.Verdict(true, "the third trial talked meanwhile"), nil
		case <-time.After(5 * time.Second):
			return judge.Verdict(false, "the third trial never started: judging held the agent's lanes"), nil
		}
	})
	s := &gavel.Suite{Agent: counting, Cases: []*gavel.Case{
		prompt("a", "hi", waitForThird), prompt("b", "hi", waitForThird), prompt("c", "hi", says("hi", nil)),
	}}
	run := runner.Run(context.Background(), s, runner.Config{Concurrency: 2})
	if got := outcomes(run); got != "a:PASS b:PASS c:PASS" {
		t.Errorf("outcomes %s: the judges of a and b waited for c's conversation", got)
	}
}

// A resumed run reuses the trials already done and runs only the others.
func TestReuse(t *testing.T) {
	var judged atomic.Int32
	done := gavel.Trial{CaseID: "a", N: 2, Verdict: judge.Verdict(true, "from the first run")}
	s := &gavel.Suite{Agent: echo, Trials: 2, Cases: []*gavel.Case{prompt("a", "hi", says("hi", &judged)), prompt("b", "hi", says("hi", &judged))}}
	var reused []string
	run := runner.Run(context.Background(), s, runner.Config{
		Reuse: func(caseID string, n int) (gavel.Trial, bool) {
			return done, caseID == "a" && n == 2
		},
		Progress: func(p runner.Progress) {
			if p.Reused {
				reused = append(reused, fmt.Sprintf("%s#%d", p.Trial.CaseID, p.Trial.N))
			}
		},
	})
	if got := judged.Load(); got != 3 {
		t.Errorf("judged %d trials, want 3 (a#1, b#1, b#2)", got)
	}
	if len(reused) != 1 || reused[0] != "a#2" {
		t.Errorf("reused %v, want [a#2]", reused)
	}
	a := run.Cases[0].Trials
	if len(a) != 2 || a[0].N != 1 || a[1].Verdict.Reasoning != "from the first run" {
		t.Errorf("case a's trials %+v, want #1 run and #2 reused, in order", a)
	}
}

// detector is a follow-up detector that asks a model (it spends tokens)
// and finds no question.
type detector struct{ usage judge.Usage }

func (d detector) DetectIn(context.Context, *judge.Transcript) (llmjudge.FollowUpResult, error) {
	return llmjudge.FollowUpResult{Usage: d.usage}, nil
}

// The follow-up detector's tokens are a role of their own, apart from the
// judges', and count in the trial's total.
func TestFollowUpsHaveTheirOwnRole(t *testing.T) {
	spent := judge.Usage{InputTokens: 400, OutputTokens: 27, CostUSD: 0.001}
	costly := judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) {
		return judge.Judgment{Status: judge.StatusPass, Usage: judge.Usage{InputTokens: 1000, CostUSD: 0.002}}, nil
	})
	s := &gavel.Suite{Agent: echo, Cases: []*gavel.Case{prompt("asks", "which order do you mean?", costly)}}
	run := runner.Run(context.Background(), s, runner.Config{Timeout: time.Minute, FollowUps: detector{spent}})
	got := run.Cases[0].Trials[0].Usage
	want := gavel.RoleUsage{
		Agent:    judge.Usage{InputTokens: 100, CostUSD: 0.01},
		Judge:    judge.Usage{InputTokens: 1000, CostUSD: 0.002},
		FollowUp: spent,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("trial usage (-want +got):\n%s", diff)
	}
	if total := got.Total(); total.InputTokens != 1500 {
		t.Errorf("total = %+v, want 1500 input tokens: every role's", total)
	}
}

// The budget counts every token paid for: a judge that could not judge
// still spent its tokens, and they stop the run as any others.
func TestBudgetCountsWhatErredJudgesSpent(t *testing.T) {
	erring := judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) {
		return judge.Judgment{Name: "rubric", Usage: judge.Usage{InputTokens: 5000}}, errors.New("malformed answers")
	})
	s := &gavel.Suite{Agent: echo, Cases: []*gavel.Case{prompt("first", "hi", erring), prompt("second", "hi", erring)}}
	run := runner.Run(context.Background(), s, runner.Config{Concurrency: 1, Timeout: time.Minute, Budget: runner.Budget{MaxTokens: 1000}})
	if got := outcomes(run); got != "first:ERROR second:SKIPPED" {
		t.Errorf("outcomes %s, want the second case skipped: the first spent 5,100 tokens of a budget of 1,000", got)
	}
	if u := run.Cases[0].Trials[0].Usage; u.Judge.InputTokens != 5000 {
		t.Errorf("the first trial's usage %+v, want the erring judge's 5,000 tokens", u)
	}
}
