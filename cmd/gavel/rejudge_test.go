package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/store"
	"github.com/gavelhq/gavel/store/sqlite"
)

// verdicts reads a stored run's verdicts: case id, trial, status and the
// verdict's first reason, one line a trial.
func verdicts(t *testing.T, db, id string) (store.RunInfo, string) {
	t.Helper()
	st, err := sqlite.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r, err := st.Run(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, c := range r.Run.Cases {
		fmt.Fprintf(&b, "%s %s", c.ID(), c.Outcome)
		for _, tr := range c.Trials {
			fmt.Fprintf(&b, " [%d %s %s]", tr.N, tr.Verdict.Status, tr.Verdict.Summary())
		}
		b.WriteString("\n")
	}
	return r.Info, b.String()
}

// copySuite copies the support-desk suite (its files and the orders
// database its sql check reads) into a directory of its own, with edit
// applied to cases.yaml, and returns its gavel.yaml.
func copySuite(t *testing.T, from string, edit func(string) string) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"gavel.yaml", "cases.yaml", "models/agent.yaml", "models/judge.yaml", "models/user.yaml", ".gavel/orders.db"} {
		data, err := os.ReadFile(filepath.Join(from, f))
		if err != nil {
			t.Fatal(err)
		}
		if f == "cases.yaml" {
			data = []byte(edit(string(data)))
		}
		os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "gavel.yaml")
}

// gavel rejudge judges a stored run of the support desk again without
// calling the agent: with the suite unchanged it gives the same verdicts;
// with a rule tightened, the new verdicts; a new run that names its
// source either way.
func TestRejudge(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the example's MCP server")
	}
	suite := example(t)
	db := filepath.Join(t.TempDir(), "results.db")
	first := savedRun(t, eval.ExitPassed, "--db", db, suite)
	_, want := verdicts(t, db, first)

	// From here on the agent's model is a server that counts its calls.
	var agentCalls atomic.Int32
	fakeOpenAI(t, llm.Func(func(context.Context, *llm.Request) (*llm.Response, error) {
		agentCalls.Add(1)
		return &llm.Response{Text: "called"}, nil
	}))
	t.Setenv("GAVEL_AGENT_MODEL", "openai:gpt-5-mini")

	// The round trip: the same suite, the same verdicts.
	code, out, errs := gavelCmd(t, "rejudge", "--db", db, first)
	if code != eval.ExitPassed {
		t.Fatalf("rejudge: exit %d, want 0\n%s%s", code, out, errs)
	}
	again := runID.FindStringSubmatch(errs)
	if again == nil {
		t.Fatalf("rejudge saved no run:\n%s", errs)
	}
	info, got := verdicts(t, db, again[1])
	if got != want {
		t.Errorf("rejudged with the same suite:\n%s\nwant the verdicts of the run rejudged:\n%s", got, want)
	}
	if info.Rejudges != first || info.Continues != "" {
		t.Errorf("the new run rejudges %q (continues %q), want %q", info.Rejudges, info.Continues, first)
	}
	if u := info.Stats.Usage.Agent; u.Calls != 0 || u.Tokens() != 0 {
		t.Errorf("the rejudged run's agent usage: %+v, want none", u)
	}
	if !strings.Contains(out, "case_005 | FAIL") || !strings.Contains(out, "called forbidden tool cancel_order") {
		t.Errorf("the report lacks case_005's hard-rule failure:\n%s", out)
	}
	if code, out, _ := gavelCmd(t, "show", "--db", db, again[1]); code != eval.ExitPassed || !strings.Contains(out, "Rejudges run "+first) {
		t.Errorf("show: exit %d, want it to name the source:\n%s", code, out)
	}

	// A rule tightened (case_001 may no longer look the order up), a case
	// removed (case_011) and one added (case_012) in a copy of the suite.
	tightened := copySuite(t, suite, func(cases string) string {
		cases = strings.Replace(cases, "  expected_response_traits: [mentions delivery date, no false apology]\n",
			"  expected_response_traits: [mentions delivery date, no false apology]\n  forbidden_tools: [get_order_status]\n", 1)
		cases = cases[:strings.Index(cases, "- id: case_011")]
		return cases + "- {id: case_012, input: hello, rules: [{contains: hello}]}\n"
	})
	code, out, errs = gavelCmd(t, "rejudge", "--db", db, "--suite", tightened, "--min-pass-rate", "0.9", first)
	if code != eval.ExitFailed {
		t.Errorf("rejudge, tightened: exit %d, want 1 (two of ten cases fail)\n%s%s", code, out, errs)
	}
	for _, w := range []string{
		"has cases that suite support-desk no longer has, not judged: case_011",
		"has no transcript of these cases of suite support-desk, skipped: case_012",
	} {
		if !strings.Contains(errs, w) {
			t.Errorf("rejudge does not say %q:\n%s", w, errs)
		}
	}
	tight := runID.FindStringSubmatch(errs)
	if tight == nil {
		t.Fatalf("rejudge saved no run:\n%s", errs)
	}
	info, got = verdicts(t, db, tight[1])
	if !strings.HasPrefix(got, "case_001 FAIL [1 FAIL") || !strings.Contains(got, "forbidden_tools get_order_status: called forbidden tool get_order_status") {
		t.Errorf("case_001 rejudged with the tightened rule:\n%s", got)
	}
	if !strings.Contains(got, "case_012 SKIPPED\n") || strings.Contains(got, "case_011") {
		t.Errorf("case_012 should be skipped and case_011 left out:\n%s", got)
	}
	if info.Rejudges != first {
		t.Errorf("the new run rejudges %q, want %q", info.Rejudges, first)
	}
	if n := agentCalls.Load(); n != 0 {
		t.Errorf("rejudging called the agent's model %d times, want 0", n)
	}

	// A rejudged run is not carried on by gavel run.
	if code, _, errs := gavelCmd(t, "run", "--db", db, "--resume", tight[1], suite); code != eval.ExitUsage || !strings.Contains(errs, "gavel rejudge "+first) {
		t.Errorf("run --resume of a rejudged run: exit %d, want 2\n%s", code, errs)
	}
}
