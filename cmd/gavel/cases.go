package main

import (
	"context"
	"fmt"
	"io"

	flag "github.com/spf13/pflag"

	"github.com/gavelhq/gavel/eval"
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
		return eval.ImportCaseFiles(ctx, st, *suite, fs.Args(), stdout, stderr)
	}
	return eval.ExportCaseFile(ctx, st, *suite, *out, stdout, stderr)
}
