package suitefile_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel/importer/suitefile"
)

// Cases are written in the order their keys were set, under their notes;
// a case not converted is its notes alone; several-line texts are literal
// blocks, short lists of scalars flow lists.
func TestCasesYAML(t *testing.T) {
	s := suitefile.Suite{Cases: []suitefile.Case{
		{Fields: suitefile.M{{Key: "id", Value: "a"}, {Key: "input", Value: "line one\nline two"},
			{Key: "rules", Value: []any{suitefile.M{{Key: "contains_any", Value: []string{"x", "y"}}, {Key: "threshold", Value: 1.0}}}}},
			Notes: []string{"approximated: something\nover two lines"}},
		{Notes: []string{"not converted: the case (test 2): why"}},
	}}
	got, err := s.CasesYAML()
	if err != nil {
		t.Fatal(err)
	}
	want := `# The cases of gavel.yaml, converted by gavel import.

# approximated: something
# over two lines
- id: a
  input: |-
    line one
    line two
  rules:
    - contains_any: [x, y]
      threshold: 1.0

# not converted: the case (test 2): why
`
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("cases.yaml (-want +got):\n%s", diff)
	}
}

// A suite whose cases were none converted still writes a list.
func TestCasesYAMLEmpty(t *testing.T) {
	s := suitefile.Suite{Cases: []suitefile.Case{{Notes: []string{"not converted: x"}}}}
	got, _ := s.CasesYAML()
	if want := "# The cases of gavel.yaml, converted by gavel import.\n\n# not converted: x\n[]\n"; string(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
