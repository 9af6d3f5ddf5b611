package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/eval"
)

// Once people have labelled enough of a suite's verdicts, gavel run
// corrects the pass rate for the judge's errors, beside the raw one. The
// starter suite gets a case its scripted judge fails (strict); a first
// run of 30 trials of it and of returns_policy, which the judge passes, is
// labelled: people fail 3 of the judge's 30 passes and pass 5 of its 30
// failures. The judge's sensitivity is then 27/32, its specificity 25/28,
// and a pass rate of 50% is corrected to
//
//	se=27/32; sp=25/28; ap=30/60
//	print((ap+sp-1)/(se+sp-1))   # 0.5333333333333333: 53.3%
func TestPassRateCorrectedForTheJudge(t *testing.T) {
	dir := t.TempDir()
	if code, _, errs := gavelCmd(t, "init", dir); code != eval.ExitPassed {
		t.Fatal(errs)
	}
	suite := filepath.Join(dir, "gavel.yaml")
	data, _ := os.ReadFile(suite)
	os.WriteFile(suite, append(data, []byte(`
  - id: strict
    input: hello
    judge_prompt: The response explains the returns policy.
`)...), 0o644)
	db := filepath.Join(t.TempDir(), "results.db")
	run := func() (string, string) {
		code, out, errs := gavelCmd(t, "run", "--no-cache", "--db", db, "--trials", "30", "--id", "returns_policy", "--id", "strict",
			"--out", filepath.Join(t.TempDir(), "r.json"), dir)
		if code != eval.ExitFailed {
			t.Fatalf("exit %d, want 1 (strict fails)\n%s%s", code, out, errs)
		}
		return out, runID.FindStringSubmatch(errs)[1]
	}
	out, id := run()
	if strings.Contains(out, "Corrected") {
		t.Errorf("corrected without labels:\n%s", out)
	}
	var labels strings.Builder
	labels.WriteString("run,case,trial,category\n")
	for n := 1; n <= 30; n++ {
		fmt.Fprintf(&labels, "%s,returns_policy,%d,%s\n", id, n, map[bool]string{true: "fail", false: "pass"}[n <= 3])
		fmt.Fprintf(&labels, "%s,strict,%d,%s\n", id, n, map[bool]string{true: "pass", false: "fail"}[n <= 5])
	}
	file := filepath.Join(t.TempDir(), "labels.csv")
	os.WriteFile(file, []byte(labels.String()), 0o644)
	if code, out, errs := gavelCmd(t, "labels", "import", "--db", db, file); code != eval.ExitPassed {
		t.Fatalf("labels import: exit %d\n%s%s", code, out, errs)
	}
	out, _ = run()
	if want := "Corrected for the judge's errors: 53.3%, 95% interval"; !strings.Contains(out, want) ||
		!strings.Contains(out, "from 60 people's labels: the judge passes 84.4% of what people pass and fails 89.3% of what they fail") {
		t.Errorf("the report lacks %q with the judge's rates:\n%s", want, out)
	}
}
