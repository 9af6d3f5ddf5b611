package eval

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gavelhq/gavel/spec"
	"github.com/gavelhq/gavel/store"
)

// ExportCases writes the latest version of every case of suite the
// results database holds as one YAML file of cases (gavel cases export),
// and says how many there are.
func ExportCases(ctx context.Context, st store.Store, suite string) ([]byte, int, error) {
	cases, err := st.Cases(ctx, suite)
	if err != nil {
		return nil, 0, err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "# The cases of suite %s, exported from the results database by gavel cases export.\n", suite)
	for _, c := range cases {
		b.WriteString(listItem(c.Definition))
	}
	return b.Bytes(), len(cases), nil
}

// listItem turns a case's YAML mapping into an item of a YAML list.
func listItem(def []byte) string {
	lines := strings.Split(strings.TrimRight(string(def), "\n"), "\n")
	for i, l := range lines {
		prefix := "  "
		if i == 0 {
			prefix = "- "
		}
		lines[i] = strings.TrimRight(prefix+l, " ")
	}
	return strings.Join(lines, "\n") + "\n"
}

// ImportCases saves the cases of the case files as cases of suite in the
// results database, each a new version when it changed (gavel cases
// import), and says how many it read and how many were new or changed.
// The files are read whole first: a problem in any (spec.Problems, every
// one at its file:line) saves nothing.
func ImportCases(ctx context.Context, st store.Store, suite string, files []string) (n, changed int, err error) {
	var all []spec.LoadedCase
	for _, f := range files {
		cases, err := spec.LoadCases(f)
		if err != nil {
			return 0, 0, err
		}
		all = append(all, cases...)
	}
	for _, c := range all {
		id := cmp.Or(c.Spec.ID, c.Spec.Name)
		before, _ := st.CaseHistory(ctx, suite, id)
		v, err := st.SaveCase(ctx, store.CaseDef{Suite: suite, ID: id, Name: c.Spec.Name, Tags: c.Spec.Tags, Definition: c.Definition})
		if err != nil {
			return len(all), changed, err
		}
		if v.Version > len(before) {
			changed++
		}
	}
	return len(all), changed, nil
}

// ExportCaseFile writes the cases of suite to the file out, or to stdout
// when out is empty (gavel cases export), says what it did, and returns
// the exit code: ExitUsage for no suite, or one without cases.
func ExportCaseFile(ctx context.Context, st store.Store, suite, out string, stdout, stderr io.Writer) int {
	if suite == "" {
		fmt.Fprintln(stderr, "gavel cases export: say which suite's cases: --suite NAME")
		return ExitUsage
	}
	data, n, err := ExportCases(ctx, st, suite)
	if err != nil {
		fmt.Fprintln(stderr, "gavel cases export:", err)
		return ExitInfra
	}
	if n == 0 {
		fmt.Fprintf(stderr, "gavel cases export: the database has no cases of suite %q\n", suite)
		return ExitUsage
	}
	if out == "" {
		if _, err := stdout.Write(data); err != nil {
			return ExitInfra
		}
		return ExitPassed
	}
	if err := os.WriteFile(out, data, 0o644); err != nil {
		fmt.Fprintln(stderr, "gavel cases export:", err)
		return ExitInfra
	}
	fmt.Fprintf(stdout, "Wrote %d cases of suite %s to %s\n", n, suite, out)
	return ExitPassed
}

// ImportCaseFiles saves the cases of files as cases of suite (gavel
// cases import, ImportCases), says how many, and returns the exit code:
// ExitUsage for a problem in a file, said at its file:line.
func ImportCaseFiles(ctx context.Context, st store.Store, suite string, files []string, stdout, stderr io.Writer) int {
	if suite == "" || len(files) == 0 {
		fmt.Fprintln(stderr, "gavel cases import: give the suite and the case files: --suite NAME FILE...")
		return ExitUsage
	}
	n, changed, err := ImportCases(ctx, st, suite, files)
	var problems spec.Problems
	switch {
	case errors.As(err, &problems):
		fmt.Fprintln(stderr, err) // every problem, file:line
		return ExitUsage
	case err != nil:
		fmt.Fprintln(stderr, "gavel cases import:", err)
		return ExitInfra
	}
	fmt.Fprintf(stdout, "Imported %d cases into suite %s: %d new or changed\n", n, suite, changed)
	return ExitPassed
}
