package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/report"
	"github.com/gavelhq/gavel/store"
)

const calibrateHelp = `Usage: gavel calibrate [flags]

Measures how far the judges' verdicts agree with people's labels (given
in the web app, gavel serve: a verdict was correct or wrong, and perhaps
the person's own score). It prints the agreement, Cohen's kappa, how far
people's scores are from the judge's, and each verdict people said was
wrong. Only pass or fail verdicts a model took part in count: rules
alone need no calibration. A judge is calibrated when it agrees on at
least 85% of at least 50 of them; until then, read its verdicts rather
than trust them.

The exit code is 0, or 1 with --require when the judge is not calibrated.

Examples:
  gavel calibrate --suite support-desk
  gavel calibrate --suite support-desk --format json | jq .agreement
  gavel calibrate --suite support-desk --require   # gate a CI job on it

Flags:
`

func calibrateCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("calibrate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, calibrateHelp); fs.PrintDefaults() }
	db := dbFlag(fs)
	suite := fs.String("suite", "", "only the labels of this suite's runs (default: every suite)")
	formatName := fs.String("format", "text", "text or json")
	require := fs.Bool("require", false, "exit 1 unless the judge is calibrated")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return exitUsage
	}
	format, err := report.ParseFormat(*formatName)
	if err != nil || (format != report.Text && format != report.JSON) {
		fmt.Fprintf(stderr, "gavel calibrate: --format %s: want text or json\n", *formatName)
		return exitUsage
	}
	ctx := context.Background()
	st, err := openStore(ctx, *db)
	if err != nil {
		fmt.Fprintln(stderr, "gavel calibrate: the results database:", err)
		return exitInfra
	}
	defer st.Close()
	checks, err := st.LabelChecks(ctx, store.LabelFilter{Suite: *suite})
	if err != nil {
		fmt.Fprintln(stderr, "gavel calibrate:", err)
		return exitInfra
	}
	c := gavel.Calibrate(checks)
	if err := report.WriteCalibration(stdout, format, *suite, c); err != nil {
		fmt.Fprintln(stderr, "gavel calibrate:", err)
		return exitInfra
	}
	if *require && !c.Calibrated() {
		return exitFailed
	}
	return exitPassed
}
