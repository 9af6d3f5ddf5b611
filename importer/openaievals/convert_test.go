package openaievals_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/importer/openaievals"
	"github.com/gavelhq/gavel/internal/golden"
	"github.com/gavelhq/gavel/llm/providers"
	"github.com/gavelhq/gavel/spec"
)

// Every eval of testdata's registry converts into a suite gavel validate
// accepts, as its golden files say.
func TestConvertRegistry(t *testing.T) {
	for _, tt := range []struct{ file, eval string }{
		{"basic.yaml", "capitals-match"},
		{"basic.yaml", "capitals-includes"},
		{"basic.yaml", "capitals-fuzzy"},
		{"basic.yaml", "json-answers.dev.v0"},
		{"graded.yaml", "answers-closedqa"},
		{"graded.yaml", "answers-fact"},
		{"graded.yaml", "answers-stars"},
	} {
		t.Run(tt.eval, func(t *testing.T) {
			s, err := openaievals.Convert(filepath.Join("testdata", "registry", "evals", tt.file), tt.eval)
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
			name := strings.TrimSuffix(tt.eval, ".dev.v0")
			golden.Check(t, name, string(suite)+"---\n"+string(cases)+"---\n"+s.Report.Summary()+"\n")
			dir := t.TempDir()
			if err := s.Write(dir, false); err != nil {
				t.Fatal(err)
			}
			env := spec.Env{Registry: providers.Registry(), Getenv: func(string) string { return "" }, DryRun: true, Probe: providers.Probe}
			if _, err := spec.Validate(dir, env); err != nil {
				data, _ := os.ReadFile(filepath.Join(dir, "cases.yaml"))
				t.Fatalf("gavel validate refuses the suite:\n%v\n%s", err, data)
			}
		})
	}
}

// What Convert cannot convert at all it refuses with a message that says
// what to do: an eval of a class with Python logic, a file of several
// evals without a name, a name the file lacks.
func TestConvertRefuses(t *testing.T) {
	basic := filepath.Join("testdata", "registry", "evals", "basic.yaml")
	for _, tt := range []struct{ eval, want string }{
		{"python-only", "class evals.elsuite.custom.solver:SomethingInPython, which gavel import does not convert"},
		{"", "defines 5 evals (capitals-fuzzy, capitals-includes, capitals-match, json-answers, python-only): name one with --eval"},
		{"capitals", `no eval "capitals"`},
	} {
		_, err := openaievals.Convert(basic, tt.eval)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Convert(%q) = %v, want an error containing %q", tt.eval, err, tt.want)
		}
	}
}
