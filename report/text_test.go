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
	if want := "pass^k: k=2 66.7%, k=3 50%\n"; !strings.Contains(out, want) {
		t.Errorf("want %q in:\n%s", want, out)
	}
	if want := "Flaky: b (2 of 3 trials passed)\n"; !strings.Contains(out, want) {
		t.Errorf("want %q in:\n%s", want, out)
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
