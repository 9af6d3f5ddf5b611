package importer

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/judge/judgetest"
	"github.com/gavelhq/gavel/report"
)

// A Gavel report's verdicts come in as they were written, the threshold
// each judgment recorded included, so an imported run reads in words as
// the run it came from.
func TestGavelReportKeepsThresholds(t *testing.T) {
	rubric := judge.Judgment{Name: "tone", Status: judge.StatusFail, Score: judge.Unit(0.6), Reasoning: "curt", Prompt: "p1a2b3", Threshold: judge.AtLeast(0.6, 0.7)}
	c := &gavel.Case{ID: "late_order"}
	tr := gavel.Trial{CaseID: c.ID, N: 1, Verdict: judge.Judgment{Name: "all", Status: judge.StatusFail, Score: judge.Unit(0.8), Parts: []judge.Judgment{
		{Name: "contains sorry", Status: judge.StatusPass, Score: judge.Bool(true)}, rubric,
	}}, Transcript: &judge.Transcript{CaseID: c.ID, Trial: 1, Goal: "my order is late",
		Turns: []judge.Turn{{Role: judge.RoleUser, Content: "my order is late"}, {Role: judge.RoleAgent, Content: "ok"}}, Status: judge.ExecSuccess}}
	cr := gavel.CaseResult{Case: c, Trials: []gavel.Trial{tr}}
	cr.Summarize()
	path := filepath.Join(t.TempDir(), "report.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := report.Write(f, report.JSON, &gavel.Run{Suite: &gavel.Suite{Name: "desk", Cases: []*gavel.Case{c}}, Cases: []gavel.CaseResult{cr}}, report.Options{}); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}

	b := read(t, "", path)
	if len(b.Cases) != 1 || len(b.Cases[0].Trials) != 1 || len(b.Cases[0].Trials[0].Verdict.Parts) != 2 {
		t.Fatalf("read %+v, want the case's one trial with its verdict's two parts", b.Cases)
	}
	v := b.Cases[0].Trials[0].Verdict
	judgetest.CheckThreshold(t, v, nil)
	judgetest.CheckThreshold(t, v.Parts[1], judge.AtLeast(0.6, 0.7))
	if got, want := report.Decision(v), "FAIL: decided by tone (a model judge): scored 0.6, below its threshold 0.7"; got != want {
		t.Errorf("the imported verdict reads %q, want %q", got, want)
	}
}
