package report

import (
	"strings"
	"testing"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
)

// pass^k is shown when every case ran more than one trial.
func TestTextPassHatK(t *testing.T) {
	pass := gavel.Trial{Verdict: judge.Verdict(true, "ok")}
	fail := gavel.Trial{Verdict: judge.Verdict(false, "no")}
	run := &gavel.Run{Cases: []gavel.CaseResult{
		{Case: &gavel.Case{ID: "a"}, Trials: []gavel.Trial{pass, pass, pass}},
		{Case: &gavel.Case{ID: "b"}, Trials: []gavel.Trial{pass, fail, pass}},
	}}
	for i := range run.Cases {
		run.Cases[i].Summarize()
	}
	out := write(t, Text, run, Options{})
	// b: C(2,2)/C(3,2) = 1/3 and 0 for k=3; a: 1 and 1.
	if want := "pass^k: k=2 66.7% (95% interval 33.3–100%), k=3 50% (95% interval 0–100%)\n"; !strings.Contains(out, want) {
		t.Errorf("want %q in:\n%s", want, out)
	}
	if want := "Flaky: b (2 of 3 trials passed)\n"; !strings.Contains(out, want) {
		t.Errorf("want %q in:\n%s", want, out)
	}
}

// A run whose pass rate is exactly its threshold passes, in every
// format: 3 cases passing 7 of 10 trials each is a pass rate of 70%
// (0.6999999999999998 as the mean of 0.7, 0.7 and 0.7 in floating point)
// against a threshold of 70%.
func TestPassRateAtThresholdPasses(t *testing.T) {
	run := &gavel.Run{Suite: &gavel.Suite{Name: "support-desk", Threshold: 0.7}}
	for _, id := range []string{"a", "b", "c"} {
		cr := gavel.CaseResult{Case: &gavel.Case{ID: id}}
		for n := 1; n <= 10; n++ {
			cr.Trials = append(cr.Trials, gavel.Trial{CaseID: id, N: n, Verdict: judge.Verdict(n <= 7, "")})
		}
		cr.Summarize()
		run.Cases = append(run.Cases, cr)
	}
	for _, tc := range []struct {
		format Format
		want   string
	}{
		{Text, "Threshold: 70% -> overall PASS\n"},
		{Markdown, "## ✅ support-desk: PASS"},
		{JSON, `"passed": true`},
		{JUnit, `<property name="passed" value="true">`},
	} {
		t.Run(string(tc.format), func(t *testing.T) {
			if out := write(t, tc.format, run, Options{}); !strings.Contains(out, tc.want) {
				t.Errorf("want %q in:\n%s", tc.want, out)
			}
		})
	}
}

// A case whose every trial abstained was not judged: it is SKIPPED,
// says why, and the pass rate is over the cases that were judged.
func TestTextAbstainedCaseIsSkipped(t *testing.T) {
	abstained := gavel.CaseResult{Case: &gavel.Case{ID: "c0000"},
		Trials: []gavel.Trial{{CaseID: "c0000", N: 1, Verdict: judge.Abstained("imported without a verdict")}}}
	passed := gavel.CaseResult{Case: &gavel.Case{ID: "c0001"},
		Trials: []gavel.Trial{{CaseID: "c0001", N: 1, Verdict: judge.Verdict(true, "ok")}}}
	run := &gavel.Run{Suite: &gavel.Suite{Name: "imported"}, Cases: []gavel.CaseResult{abstained, passed}}
	for i := range run.Cases {
		run.Cases[i].Summarize()
	}
	out := write(t, Text, run, Options{})
	for _, want := range []string{
		"c0000 | -     | -        | SKIPPED | not judged",
		"Pass rate: 100% over 1 cases (1 skipped), 95% interval",
		"c0000: not judged: no judge gave a verdict (imported without a verdict)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("want %q in:\n%s", want, out)
		}
	}
}

// A single trial per case shows no pass^k: it would repeat the pass rate.
func TestTextNoPassHatKForOneTrial(t *testing.T) {
	if out := write(t, Text, fixture(t), Options{}); strings.Contains(out, "pass^k") {
		t.Errorf("pass^k shown for cases of 1 trial:\n%s", out)
	}
}

// The text report writes no escape sequences, even when the agent does.
func TestTextHasNoControlCharacters(t *testing.T) {
	for _, verbose := range []bool{false, true} {
		out := write(t, Text, fixture(t), Options{Verbose: verbose})
		for _, r := range out {
			if r < 0x20 && r != '\n' && r != '\t' {
				t.Fatalf("verbose %v: the report holds control character %U", verbose, r)
			}
		}
	}
}
