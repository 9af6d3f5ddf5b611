package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/eval"
)

// flipsSuite writes a suite of 40 one-round cases, q00 to q39, each
// passing when the agent says "ok", and an agent script for each of
// passing: the ids of the cases it answers "ok". It returns the suite's
// directory and, by name, the model reference of each agent, for
// $FLIPS_AGENT.
func flipsSuite(t *testing.T, agents map[string][]int) (string, map[string]string) {
	t.Helper()
	dir := t.TempDir()
	var suite strings.Builder
	suite.WriteString("name: flips\nthreshold: 0.3\nagent:\n  builtin:\n    model: ${FLIPS_AGENT}\ncases:\n")
	for i := range 40 {
		fmt.Fprintf(&suite, "  - {id: q%02d, input: q%02d, rules: [{contains: ok}]}\n", i, i)
	}
	write(t, dir, "gavel.yaml", suite.String())
	refs := map[string]string{}
	for name, passing := range agents {
		ids := make([]string, len(passing))
		for i, n := range passing {
			ids[i] = fmt.Sprintf("q%02d", n)
		}
		script := fmt.Sprintf("name: %s\nrules:\n  - when: {user: '^(%s)$'}\n    text: ok\n  - text: no\n", name, strings.Join(ids, "|"))
		write(t, dir, name+".yaml", script)
		refs[name] = "script:" + name + ".yaml"
	}
	return dir, refs
}

// span returns the integers from lo to hi, both included.
func span(lo, hi int) []int {
	var out []int
	for n := lo; n <= hi; n++ {
		out = append(out, n)
	}
	return out
}

// Two runs of an unchanged agent are not a regression; a real drop is.
// The base passes q00..q24. The A/A run flips 3 of them to failing and 2
// others to passing, as chance does; the drop fails 12 of them and passes
// 1 other. The p-values are the exact McNemar test's:
//
//	from statsmodels.stats.contingency_tables import mcnemar
//	mcnemar([[0, 3], [2, 0]], exact=True).pvalue    # 1.0
//	mcnemar([[0, 12], [1, 0]], exact=True).pvalue   # 0.00341796875
//
// gavel compare exits 0 and 1 on them; gavel run --baseline gates a run
// the same way, though each run passes its own threshold.
func TestCompareIsStatisticallyHonest(t *testing.T) {
	dir, agents := flipsSuite(t, map[string][]int{
		"base": span(0, 24),
		"aa":   append(span(3, 24), 25, 26),
		"drop": append(span(12, 24), 25),
	})
	db := filepath.Join(t.TempDir(), "results.db")
	run := func(agent string, want int, args ...string) (string, string) {
		t.Helper()
		t.Setenv("FLIPS_AGENT", agents[agent])
		code, out, errs := gavelCmd(t, append([]string{"run", "--no-cache", "--quiet", "--db", db, "--out", filepath.Join(t.TempDir(), "r.json")}, append(args, dir)...)...)
		if code != want {
			t.Fatalf("gavel run (%s) %v: exit %d, want %d\n%s%s", agent, args, code, want, out, errs)
		}
		m := runID.FindStringSubmatch(errs)
		if m == nil {
			t.Fatalf("gavel run (%s) saved no run:\n%s", agent, errs)
		}
		return m[1], out
	}
	base, _ := run("base", eval.ExitPassed)
	aa, _ := run("aa", eval.ExitPassed)
	drop, _ := run("drop", eval.ExitPassed)

	for _, tc := range []struct {
		head string
		want int
		says []string
	}{
		{aa, eval.ExitPassed, []string{"NO SIGNIFICANT CHANGE", "exact McNemar test, 40 cases both runs judged alike: 3 worse, 2 better, p = 1"}},
		{drop, eval.ExitFailed, []string{": REGRESSED\n", "exact McNemar test, 40 cases both runs judged alike: 12 worse, 1 better, p = 0.0034",
			"pass rate 62.5% -> 35% on them: -27.5 points"}},
	} {
		code, out, errs := gavelCmd(t, "compare", "--db", db, base, tc.head)
		if code != tc.want {
			t.Errorf("compare %s %s: exit %d, want %d\n%s%s", base, tc.head, code, tc.want, out, errs)
		}
		for _, s := range tc.says {
			if !strings.Contains(out, s) {
				t.Errorf("compare %s %s lacks %q:\n%s", base, tc.head, s, out)
			}
		}
	}
	// With no minimum effect and a stricter alpha, the drop is still one.
	if code, out, _ := gavelCmd(t, "compare", "--db", db, "--alpha", "0.01", "--min-effect", "0", base, drop); code != eval.ExitFailed {
		t.Errorf("compare --alpha 0.01 --min-effect 0: exit %d\n%s", code, out)
	}
	// A drop of 27.5 points is under a minimum effect of 30.
	if code, out, _ := gavelCmd(t, "compare", "--db", db, "--min-effect", "0.3", base, drop); code != eval.ExitPassed || !strings.Contains(out, "NO SIGNIFICANT CHANGE") {
		t.Errorf("compare --min-effect 0.3: exit %d\n%s", code, out)
	}
	if code, _, errs := gavelCmd(t, "compare", "--db", db, "--alpha", "5", base, drop); code != eval.ExitUsage || !strings.Contains(errs, "--alpha 5: want a significance level between 0 and 1") {
		t.Errorf("compare --alpha 5: exit %d, %q", code, errs)
	}

	_, out := run("aa", eval.ExitPassed, "--baseline", base)
	if !strings.Contains(out, "Compare "+base+" -> ") || !strings.Contains(out, "NO SIGNIFICANT CHANGE") {
		t.Errorf("run --baseline of the A/A agent:\n%s", out)
	}
	// In GitHub Actions, the step summary has the run's report, then the
	// comparison.
	summary := filepath.Join(t.TempDir(), "summary.md")
	t.Setenv("GITHUB_ACTIONS", "true")
	t.Setenv("GITHUB_STEP_SUMMARY", summary)
	_, out = run("drop", eval.ExitFailed, "--baseline", base)
	if !regexp.MustCompile(`Compare ` + base + ` -> \S+: REGRESSED\n`).MatchString(out) {
		t.Errorf("run --baseline of the dropping agent:\n%s", out)
	}
	md, _ := os.ReadFile(summary)
	if !regexp.MustCompile(`(?s)flips.*## ❌ Compare: REGRESSED\n.*p = 0\.0034`).Match(md) {
		t.Errorf("the step summary:\n%s", md)
	}
	t.Setenv("GITHUB_ACTIONS", "")
	// No such baseline yet: the run is gated on its threshold alone.
	t.Setenv("FLIPS_AGENT", agents["drop"])
	code, _, errs := gavelCmd(t, "run", "--no-cache", "--quiet", "--db", db, "--baseline", "release-7", dir)
	if code != eval.ExitPassed || !strings.Contains(errs, `--baseline release-7: no run has id or label "release-7"`) {
		t.Errorf("run --baseline of nothing: exit %d\n%s", code, errs)
	}
}

// A case marked critical fails the run's gate on any failure, whatever
// the pass rate, and says so.
func TestCriticalCaseFailsTheGate(t *testing.T) {
	dir, agents := flipsSuite(t, map[string][]int{"most": span(0, 38)})
	suite := filepath.Join(dir, "gavel.yaml")
	data, _ := os.ReadFile(suite)
	write(t, dir, "gavel.yaml", strings.Replace(string(data), "{id: q39, input: q39,", "{id: q39, input: q39, critical: true,", 1))
	t.Setenv("FLIPS_AGENT", agents["most"])
	code, out, errs := gavelCmd(t, "run", "--no-cache", "--db", filepath.Join(t.TempDir(), "r.db"), "--out", filepath.Join(t.TempDir(), "r.json"), dir)
	if code != eval.ExitFailed {
		t.Errorf("exit %d, want 1\n%s%s", code, out, errs)
	}
	for _, want := range []string{"Pass rate: 97.5%", "overall FAIL", "Failed by its critical cases (q39): a case marked critical: true fails the gate on any failure"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	// So does the whole run its shards make: the mark goes through their
	// JSON reports into gavel merge.
	var reports []string
	for _, shard := range []string{"1/2", "2/2"} {
		report := filepath.Join(t.TempDir(), "shard.json")
		code, out, errs := gavelCmd(t, "run", "--no-cache", "--quiet", "--db", filepath.Join(t.TempDir(), "r.db"), "--shard", shard, "--out", report, dir)
		if code != eval.ExitPassed {
			t.Fatalf("shard %s: exit %d\n%s%s", shard, code, out, errs)
		}
		reports = append(reports, report)
	}
	code, out, errs = gavelCmd(t, append([]string{"merge", "--db", filepath.Join(t.TempDir(), "r.db")}, reports...)...)
	if code != eval.ExitFailed || !strings.Contains(out, "Failed by its critical cases (q39)") {
		t.Errorf("merge: exit %d, want 1 for the critical case\n%s%s", code, out, errs)
	}
}
