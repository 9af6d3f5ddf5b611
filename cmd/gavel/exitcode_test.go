package main

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm/llmtest"
)

// exitCode's precedence, run by run.
func TestExitCode(t *testing.T) {
	pass, fail := judge.Verdict(true, "ok"), judge.Verdict(false, "no")
	unreachable := judge.Judgment{Name: "rubric", Status: judge.StatusError, Cause: judge.CauseUnreachable}
	badAnswer := judge.Judgment{Name: "rubric", Status: judge.StatusError, Reasoning: "openai: 400 Bad Request"}
	cut := judge.Judgment{Name: "conversation", Status: judge.StatusError, Cause: judge.CauseCancelled}
	run := func(stopped gavel.StopCause, verdicts ...judge.Judgment) *gavel.Run {
		r := &gavel.Run{Suite: &gavel.Suite{Threshold: 0.5}, Stopped: stopped}
		for i, v := range verdicts {
			cr := gavel.CaseResult{Case: &gavel.Case{ID: string(rune('a' + i))}, Trials: []gavel.Trial{{N: 1, Verdict: v}}}
			cr.Summarize()
			r.Cases = append(r.Cases, cr)
		}
		r.Cases = append(r.Cases, gavel.CaseResult{Case: &gavel.Case{ID: "skipped"}, Outcome: gavel.Skipped})
		return r
	}
	tests := []struct {
		name string
		run  *gavel.Run
		want int
	}{
		{"complete and met", run("", pass, pass, fail), eval.ExitPassed},
		{"complete and missed", run("", pass, fail, fail), eval.ExitFailed},
		{"the judge's provider was down for every trial", run("", unreachable, unreachable), eval.ExitInfra},
		{"the judge's provider answered badly every time", run("", badAnswer, badAnswer), eval.ExitFailed},
		{"down, then stopped at once", run(gavel.StopInterrupted, unreachable, cut), eval.ExitInfra},
		{"down for some trials only", run("", unreachable, fail), eval.ExitFailed},
		{"interrupted after passing", run(gavel.StopInterrupted, pass, pass), eval.ExitIncomplete},
		{"interrupted after failing", run(gavel.StopInterrupted, fail, fail), eval.ExitIncomplete},
		{"out of budget", run(gavel.StopBudget, pass), eval.ExitIncomplete},
		{"cut short by a second signal", run(gavel.StopInterrupted, pass, cut), eval.ExitIncomplete},
		{"stopped by fail-fast", run(gavel.StopFailFast, pass, fail), eval.ExitFailed},
		{"nothing ran", run(gavel.StopInterrupted), eval.ExitIncomplete},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := eval.ExitCode(tc.run); got != tc.want {
				t.Errorf("exitCode = %d, want %d", got, tc.want)
			}
		})
	}
}

// Several suites: a failure says more than an incomplete run.
func TestWorse(t *testing.T) {
	order := []int{eval.ExitPassed, eval.ExitIncomplete, eval.ExitFailed, eval.ExitInfra, eval.ExitUsage, eval.ExitUnknown}
	for i, a := range order {
		for j, b := range order {
			if got, want := eval.Worse(a, b), order[max(i, j)]; got != want {
				t.Errorf("eval.Worse(%d, %d) = %d, want %d", a, b, got, want)
			}
		}
	}
}

// Exit code 3 means a provider could not be reached for the whole run: the
// judge's provider down gives 3; a judge's or the agent's provider that is
// reached and answers badly (a 400, malformed bodies) gives 1, like any
// run below its threshold.
func TestExitCodeOfProviders(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String() + "/v1"
	l.Close()
	tests := []struct {
		name  string
		role  string // the variable naming the model: GAVEL_JUDGE_MODEL or GAVEL_AGENT_MODEL
		fault func(f *llmtest.Fake)
		down  bool
		want  int
	}{
		{"the judge's provider refuses connections", "GAVEL_JUDGE_MODEL", nil, true, eval.ExitInfra},
		{"the judge's provider answers 400", "GAVEL_JUDGE_MODEL", func(f *llmtest.Fake) {
			for range 50 {
				f.FailNext(400, 0)
			}
		}, false, eval.ExitFailed},
		{"the judge's provider answers malformed bodies", "GAVEL_JUDGE_MODEL", func(f *llmtest.Fake) {
			for range 50 {
				f.MalformedNext()
			}
		}, false, eval.ExitFailed},
		{"the agent's provider refuses connections", "GAVEL_AGENT_MODEL", nil, true, eval.ExitInfra},
		{"the agent's provider answers 400", "GAVEL_AGENT_MODEL", func(f *llmtest.Fake) {
			for range 50 {
				f.FailNext(400, 0)
			}
		}, false, eval.ExitFailed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir, db := starterSuite(t)
			// No follow-up detector, which would call the judge's model in
			// the conversation: the judge's model is called by the judge alone.
			suite := filepath.Join(dir, "gavel.yaml")
			data, _ := os.ReadFile(suite)
			os.WriteFile(suite, []byte(strings.Replace(string(data), "\nmodels:", "\nmax_followups: -1\nmodels:", 1)), 0o644)
			srv := llmtest.NewOpenAIServer(&llmtest.Scripted{})
			t.Cleanup(srv.Close)
			url := srv.URL
			if tc.down {
				url = closed
			} else {
				tc.fault(&srv.Fake)
			}
			t.Setenv(tc.role, "openai:model")
			t.Setenv("OPENAI_BASE_URL", url)
			t.Setenv("OPENAI_API_KEY", "sk-test")
			code, out, errs := gavelCmd(t, "run", "--quiet", "--no-cache", "--db", db, "--id", "returns_policy", dir)
			if code != tc.want {
				t.Errorf("exit %d, want %d\n%s%s", code, tc.want, out, errs)
			}
			if !strings.Contains(out, "ERROR") {
				t.Errorf("the report shows no ERROR:\n%s", out)
			}
		})
	}
}

// A run cut by its budget is incomplete: exit 5, and its report does not
// pass, though every case that ran passed.
func TestBudgetMakesAnIncompleteRun(t *testing.T) {
	dir, db := starterSuite(t)
	code, out, errs := gavelCmd(t, "run", "--no-cache", "--db", db, "--id", "returns_policy", "--trials", "3", "--concurrency", "1", "--max-tokens", "1", dir)
	if code != eval.ExitIncomplete {
		t.Fatalf("exit %d, want %d\n%s%s", code, eval.ExitIncomplete, out, errs)
	}
	for _, want := range []string{"Pass rate: 100% over 1 cases", "overall INCOMPLETE", "Incomplete: the budget of 1 tokens was spent"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errs, "is incomplete (the budget of 1 tokens was spent") {
		t.Errorf("no word of the incomplete run:\n%s", errs)
	}
}
