package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

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
	data, n, err := eval.ExportCases(ctx, st, suite)
	if err != nil {
		fmt.Fprintln(stderr, "gavel cases export:", err)
		return eval.ExitInfra
	}
	if n == 0 {
		fmt.Fprintf(stderr, "gavel cases export: the database has no cases of suite %q\n", suite)
		return eval.ExitUsage
	}
	if out == "" {
		_, err = stdout.Write(data)
		return exitOK(err)
	}
	if err := os.WriteFile(out, data, 0o644); err != nil {
		fmt.Fprintln(stderr, "gavel cases export:", err)
		return eval.ExitInfra
	}
	fmt.Fprintf(stdout, "Wrote %d cases of suite %s to %s\n", n, suite, out)
	return eval.ExitPassed
}

func importCases(ctx context.Context, st store.Store, suite string, files []string, stdout, stderr io.Writer) int {
	if suite == "" || len(files) == 0 {
		fmt.Fprintln(stderr, "gavel cases import: give the suite and the case files: --suite NAME FILE...")
		return eval.ExitUsage
	}
	n, changed, err := eval.ImportCases(ctx, st, suite, files)
	var problems spec.Problems
	switch {
	case errors.As(err, &problems):
		fmt.Fprintln(stderr, err) // every problem, file:line
		return eval.ExitUsage
	case err != nil:
		fmt.Fprintln(stderr, "gavel cases import:", err)
		return eval.ExitInfra
	}
	fmt.Fprintf(stdout, "Imported %d cases into suite %s: %d new or changed\n", n, suite, changed)
	return eval.ExitPassed
}
