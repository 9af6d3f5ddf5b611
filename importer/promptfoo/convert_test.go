package promptfoo_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/importer/promptfoo"
	"github.com/gavelhq/gavel/internal/golden"
	"github.com/gavelhq/gavel/llm/providers"
	"github.com/gavelhq/gavel/spec"
)

// Every configuration of testdata converts into a suite that gavel
// validate accepts, as its golden files say: gavel.yaml, cases.yaml and
// the report, every unconverted assertion in it and in the comments.
func TestConvertTestdata(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("testdata", "*", "promptfooconfig.yaml"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no configurations in testdata: %v", err)
	}
	for _, config := range dirs {
		name := filepath.Base(filepath.Dir(config))
		t.Run(name, func(t *testing.T) {
			s, err := promptfoo.Convert(config)
			if err != nil {
				t.Fatal(err)
			}
			suite, err := s.SuiteYAML()
			if err != nil {
				t.Fatal(err)
			}
			cases, err := s.CasesYAML()
			if err != nil {
				t.Fatal(err)
			}
			report := s.Report.Summary() + "\n" + strings.Join(s.Report.Lines(), "\n") + "\n"
			golden.Check(t, name+"-gavel.yaml", string(suite))
			golden.Check(t, name+"-cases.yaml", string(cases))
			golden.Check(t, name+"-report.txt", report)
			validate(t, s)
		})
	}
}

// validate writes the suite to a directory of its own and validates it as
// gavel validate does (no keys needed).
func validate(t *testing.T, s interface{ Write(string, bool) error }) {
	t.Helper()
	dir := t.TempDir()
	if err := s.Write(dir, false); err != nil {
		t.Fatal(err)
	}
	getenv := func(string) string { return "" }
	if _, err := spec.Validate(dir, spec.Env{Registry: providers.Registry(), Getenv: getenv, DryRun: true, Probe: providers.Probe}); err != nil {
		data, _ := os.ReadFile(filepath.Join(dir, "cases.yaml"))
		t.Fatalf("gavel validate refuses the suite:\n%v\ncases.yaml:\n%s", err, data)
	}
}
