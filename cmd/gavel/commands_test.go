package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/eval"
)

func TestInitWritesARunnableSuite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "evals")
	code, out, errs := gavelCmd(t, "init", dir)
	if code != eval.ExitPassed || !strings.Contains(out, "gavel run "+dir) {
		t.Fatalf("init: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := gavelCmd(t, "run", "--no-cache", dir); code != eval.ExitPassed {
		t.Fatalf("run of the starter suite: exit %d\n%s%s", code, out, errs)
	}
	suite := filepath.Join(dir, "gavel.yaml")
	os.WriteFile(suite, []byte("# mine\n"), 0o644)
	code, _, errs = gavelCmd(t, "init", dir)
	if code != eval.ExitUsage || !strings.Contains(errs, "nothing written") {
		t.Errorf("init over a suite: exit %d, %q; want 2 and nothing written", code, errs)
	}
	if data, _ := os.ReadFile(suite); string(data) != "# mine\n" {
		t.Errorf("init overwrote gavel.yaml: %q", data)
	}
}

func TestSchema(t *testing.T) {
	code, out, _ := gavelCmd(t, "schema")
	var schema map[string]any
	if err := json.Unmarshal([]byte(out), &schema); code != eval.ExitPassed || err != nil {
		t.Fatalf("schema: exit %d, %v", code, err)
	}
	if schema["$schema"] == nil || schema["$defs"] == nil {
		t.Errorf("the schema lacks $schema or $defs: %.200s", out)
	}
}

func TestCompletion(t *testing.T) {
	for _, tc := range []struct {
		shell string
		want  []string
	}{
		{"bash", []string{"complete -o filenames -F _gavel gavel", "run validate runs show report rejudge compare flaky quarantine calibrate audit labels cases serve users migrate init", "--changed-since"}},
		{"zsh", []string{"bashcompinit", "_gavel"}},
		{"fish", []string{"-a run", "__fish_seen_subcommand_from run' -l tag"}},
	} {
		t.Run(tc.shell, func(t *testing.T) {
			code, out, _ := gavelCmd(t, "completion", tc.shell)
			if code != eval.ExitPassed {
				t.Fatalf("exit %d", code)
			}
			for _, want := range tc.want {
				if !strings.Contains(out, want) {
					t.Errorf("the %s script lacks %q:\n%s", tc.shell, want, out)
				}
			}
		})
	}
	if code, _, errs := gavelCmd(t, "completion", "powershell"); code != eval.ExitUsage || !strings.Contains(errs, "want bash, zsh or fish") {
		t.Errorf("unknown shell: exit %d, %q", code, errs)
	}
}

func TestJudges(t *testing.T) {
	if code, out, _ := gavelCmd(t, "judges"); code != eval.ExitPassed || !strings.Contains(out, "no_placeholders") || !strings.Contains(out, "jury") {
		t.Errorf("judges: exit %d\n%s", code, out)
	}
	if code, out, _ := gavelCmd(t, "judges", "criteria"); code != eval.ExitPassed || !strings.Contains(out, "min_axis") || !strings.Contains(out, "```yaml") {
		t.Errorf("judges criteria: exit %d\n%s", code, out)
	}
	if code, _, errs := gavelCmd(t, "judges", "critera"); code != eval.ExitUsage || !strings.Contains(errs, `did you mean "criteria"?`) {
		t.Errorf("judges critera: exit %d, %q", code, errs)
	}
}
