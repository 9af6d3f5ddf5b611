// Command gavel tests AI agents end to end: it runs a suite of cases
// against an agent and judges every turn. See README.md.
package main

import (
	"fmt"
	"io"
	"os"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

// The exit codes, documented in README.
const (
	exitPassed  = 0 // every threshold met
	exitFailed  = 1 // a threshold was not met
	exitUsage   = 2 // a usage or suite-file error: nothing ran
	exitInfra   = 3 // the agent or a provider was unreachable for the whole run
	exitUnknown = 4 // a bug: please report it
)

const usage = `gavel tests AI agents end to end.

Usage:
  gavel run [flags] [SUITE...]   run suites (a file, or a directory with gavel.yaml)
  gavel validate [SUITE...]      check suites without running anything
  gavel version                  print the version

Run "gavel COMMAND -h" for a command's flags and examples.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "run":
		return runCommand(args[1:], stdout, stderr)
	case "validate":
		return validateCommand(args[1:], stdout, stderr)
	case "version", "--version":
		fmt.Fprintln(stdout, "gavel", version)
		return exitPassed
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return exitPassed
	}
	fmt.Fprintf(stderr, "gavel: unknown command %q\n\n%s", args[0], usage)
	return exitUsage
}
