package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/eval"
)

// gavel validate says what gavel run would refuse: a judge model whose
// API key is not set is a warning (the suite is valid, and validates in
// CI without keys), said once at the field that names it. It said
// "valid", and the run then refused the suite.
func TestValidateWarnsOfAMissingKey(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	dir := t.TempDir()
	suite := filepath.Join(dir, "gavel.yaml")
	os.WriteFile(suite, []byte(`name: keys
agent:
  exec: {command: [cat]}
models: {judge: 'openai:gpt-5-mini'}
max_followups: -1
cases:
  - {id: a, input: hi, judge_prompt: be nice}
  - {id: b, input: hi, judge_prompt: be kind}
`), 0o644)
	code, out, errs := gavelCmd(t, "validate", suite)
	const want = "gavel.yaml:4:10: warning: models.judge: openai:gpt-5-mini needs OPENAI_API_KEY: set it in the environment: gavel run will refuse it"
	if code != eval.ExitPassed || !strings.Contains(out, "2 cases, valid") || strings.Count(errs, "needs OPENAI_API_KEY") != 1 || !strings.Contains(errs, want) {
		t.Errorf("validate: exit %d\n%s%s", code, out, errs)
	}
}

// --min-pass-rate 0 and NaN are refused: they were replaced by the
// suite's threshold without a word.
func TestMinPassRateRefusesWhatIsNoRate(t *testing.T) {
	for _, v := range []string{"0", "NaN", "1.5", "-0.1"} {
		code, _, errs := gavelCmd(t, "run", "--min-pass-rate", v, t.TempDir())
		if code != eval.ExitUsage || !strings.Contains(errs, "--min-pass-rate "+v+": want a pass rate above 0 and at most 1") {
			t.Errorf("--min-pass-rate %s: exit %d, %q", v, code, errs)
		}
	}
}
