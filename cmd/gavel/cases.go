package main

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	flag "github.com/spf13/pflag"

	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/spec"
	"github.com/gavelhq/gavel/store"
)

const casesHelp = `Usage: gavel cases export [flags]
       gavel cases import [flags] FILE...

Moves cases between the results database, where the web app lets people
write them, and case files in your repository, which a suite's cases:
glob reads.

export writes the latest version of every case of a suite as a YAML case
file; import saves the cases of YAML or JSON Lines case files into the
database (a case whose definition changed gets a new version).

Examples:
  gavel cases export --suite support-desk --out cases/from-db.yaml
  gavel cases import --suite support-desk cases/*.yaml

Flags:
`

func casesCommand(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, casesHelp)
		return eval.ExitUsage
	}
	switch args[0] {
	case "export", "import":
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, casesHelp)
		return eval.ExitPassed
	default:
		fmt.Fprintf(stderr, "gavel cases: unknown action %q: want export or import\n\n%s", args[0], casesHelp)
		return eval.ExitUsage
	}
	verb := args[0]
	fs := flag.NewFlagSet("cases "+verb, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, casesHelp); fs.PrintDefaults() }
	db := dbFlag(fs)
	suite := fs.String("suite", "", "the suite the cases belong to")
	out := fs.String("out", "", "export: write to this `file` instead of standard output")
	if code, ok := parse(fs, args[1:]); !ok {
		return code
	}
	ctx := context.Background()
	st, err := eval.OpenStore(ctx, *db)
	if err != nil {
		fmt.Fprintf(stderr, "gavel cases %s: the results database: %v\n", verb, err)
		return eval.ExitInfra
	}
	defer st.Close()
	if verb == "import" {
		return importCases(ctx, st, *suite, fs.Args(), stdout, stderr)
	}
	return exportCases(ctx, st, *suite, *out, stdout, stderr)
}

func exportCases(ctx context.Context, st store.Store, suite, out string, stdout, stderr io.Writer) int {
	if suite == "" {
		fmt.Fprintln(stderr, "gavel cases export: say which suite's cases: --suite NAME")
		return eval.ExitUsage
	}
	cases, err := st.Cases(ctx, suite)
	if err != nil {
		fmt.Fprintln(stderr, "gavel cases export:", err)
		return eval.ExitInfra
	}
	if len(cases) == 0 {
		fmt.Fprintf(stderr, "gavel cases export: the database has no cases of suite %q\n", suite)
		return eval.ExitUsage
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "# The cases of suite %s, exported from the results database by gavel cases export.\n", suite)
	for _, c := range cases {
		b.WriteString(listItem(c.Definition))
	}
	if out == "" {
		_, err = stdout.Write(b.Bytes())
		return exitOK(err)
	}
	if err := os.WriteFile(out, b.Bytes(), 0o644); err != nil {
		fmt.Fprintln(stderr, "gavel cases export:", err)
		return eval.ExitInfra
	}
	fmt.Fprintf(stdout, "Wrote %d cases of suite %s to %s\n", len(cases), suite, out)
	return eval.ExitPassed
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

func importCases(ctx context.Context, st store.Store, suite string, files []string, stdout, stderr io.Writer) int {
	if suite == "" || len(files) == 0 {
		fmt.Fprintln(stderr, "gavel cases import: give the suite and the case files: --suite NAME FILE...")
		return eval.ExitUsage
	}
	var all []spec.LoadedCase
	for _, f := range files {
		cases, err := spec.LoadCases(f)
		if err != nil {
			fmt.Fprintln(stderr, err) // every problem, file:line
			return eval.ExitUsage
		}
		all = append(all, cases...)
	}
	changed := 0
	for _, c := range all {
		before, _ := st.CaseHistory(ctx, suite, cmp.Or(c.Spec.ID, c.Spec.Name))
		v, err := st.SaveCase(ctx, store.CaseDef{Suite: suite, ID: cmp.Or(c.Spec.ID, c.Spec.Name), Name: c.Spec.Name,
			Tags: c.Spec.Tags, Definition: c.Definition})
		if err != nil {
			fmt.Fprintln(stderr, "gavel cases import:", err)
			return eval.ExitInfra
		}
		if v.Version > len(before) {
			changed++
		}
	}
	fmt.Fprintf(stdout, "Imported %d cases into suite %s: %d new or changed\n", len(all), suite, changed)
	return eval.ExitPassed
}
