// Command gavel tests AI agents end to end: it runs a suite of cases
// against an agent and judges every turn. See README.md.
package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/gavelhq/gavel/eval"
	flag "github.com/spf13/pflag"
)

// stdio are a command's standard streams.
type stdio struct {
	in       io.Reader
	out, err io.Writer
}

// A command is one of gavel's subcommands.
type command struct {
	name, args, summary string
	main                func(args []string, std stdio) int
	// flags returns the command's flags, for shell completion; nil when it
	// has none.
	flags func() *flag.FlagSet
}

// commands lists gavel's subcommands, in the order usage shows them.
func commands() []command {
	return []command{
		{"run", "[flags] [SUITE...]", "run suites (a file, or a directory with gavel.yaml)",
			func(args []string, std stdio) int { return runCommand(args, std.out, std.err) },
			func() *flag.FlagSet { fs, _ := runFlagSet(io.Discard); return fs }},
		{"validate", "[SUITE...]", "check suites without running anything",
			func(args []string, std stdio) int { return validateCommand(args, std.out, std.err) }, nil},
		{"runs", "[flags]", "list the stored runs, newest first",
			func(args []string, std stdio) int { return runsCommand(args, std.out, std.err) }, nil},
		{"show", "RUN [CASE]", "print a stored run, or one case turn by turn",
			func(args []string, std stdio) int { return showCommand(args, std.out, std.err) }, nil},
		{"report", "[flags] RUN", "render a stored run in any report format",
			func(args []string, std stdio) int { return reportCommand(args, std.out, std.err) }, nil},
		{"rejudge", "[flags] RUN", "judge a stored run's transcripts again with the suite's current judges, as a new run",
			func(args []string, std stdio) int { return rejudgeCommand(args, std.out, std.err) },
			func() *flag.FlagSet { fs, _, _ := rejudgeFlagSet(io.Discard); return fs }},
		{"compare", "RUN_A RUN_B", "whether a run regressed from another, tested, with the cases and scores that moved",
			func(args []string, std stdio) int { return compareCommand(args, std.out, std.err) }, nil},
		{"flaky", "[flags]", "the cases that flip from run to run, the most unstable first",
			func(args []string, std stdio) int { return flakyCommand(args, std.out, std.err) }, nil},
		{"quarantine", "add|remove|list", "take a case out of its suite's gate by hand, and back",
			func(args []string, std stdio) int { return quarantineCommand(args, std.out, std.err) }, nil},
		{"calibrate", "[flags]", "how far the judges agree with people's labels",
			func(args []string, std stdio) int { return calibrateCommand(args, std.out, std.err) }, nil},
		{"audit", "[flags] [SUITE]", "put a suite's model judges through bias probes (position, verbosity, consistency, family, a self-test), against the suite's bars",
			func(args []string, std stdio) int { return auditCommand(args, std.out, std.err) },
			func() *flag.FlagSet { fs, _, _, _ := auditFlagSet(io.Discard); return fs }},
		{"labels", "export|import", "move people's labels on judgments between the database and CSV or JSON Lines files",
			func(args []string, std stdio) int { return labelsCommand(args, std.out, std.err) }, nil},
		{"cases", "export|import", "move cases between the database and case files",
			func(args []string, std stdio) int { return casesCommand(args, std.out, std.err) }, nil},
		{"serve", "[flags]", "serve the web app: runs, transcripts, trends, comparisons",
			func(args []string, std stdio) int { return serveCommand(args, std.out, std.err) }, nil},
		{"users", "add|list|disable|token", "manage who may use the web app",
			usersCommand, nil},
		{"migrate", "", "bring the results database's schema up to date",
			func(args []string, std stdio) int { return migrateCommand(args, std.out, std.err) }, nil},
		{"init", "[DIR]", "write a starter suite, with offline models, into DIR",
			func(args []string, std stdio) int { return initCommand(args, std.out, std.err) }, nil},
		{"merge", "[flags] FILE...", "put the shards of a run (gavel run --shard K/N) together as one run, and decide its gate",
			func(args []string, std stdio) int { return mergeCommand(args, std.out, std.err) },
			func() *flag.FlagSet { fs, _, _ := mergeFlagSet(io.Discard); return fs }},
		{"import", "[flags] FILE...", "store transcripts recorded elsewhere (OpenAI chat logs, OTLP GenAI spans, Gavel reports) as a run",
			func(args []string, std stdio) int { return importCommand(args, std.out, std.err) }, nil},
		{"schema", "", "print the JSON Schema of suite files, for editors",
			func(args []string, std stdio) int { return schemaCommand(args, std.out, std.err) }, nil},
		{"judges", "[KIND]", "list the kinds of judge a suite names, or print one's fields and example",
			func(args []string, std stdio) int { return judgesCommand(args, std.out, std.err) }, nil},
		{"mcp-proxy", "URL", "bridge stdio to a run's recording MCP proxy, for agents that start MCP servers as commands",
			mcpProxyCommand, nil},
		{"worker", "--db URL [flags]", "run the trials gavel run --queue enqueued, on any number of machines",
			func(args []string, std stdio) int { return workerCommand(args, std.out, std.err) }, nil},
		{"completion", "bash|zsh|fish", "print a shell completion script",
			func(args []string, std stdio) int { return completionCommand(args, std.out, std.err) }, nil},
		{"version", "", "print the version",
			func(_ []string, std stdio) int { fmt.Fprintln(std.out, "gavel", version); return eval.ExitPassed }, nil},
	}
}

func usage() string {
	var b strings.Builder
	b.WriteString("gavel tests AI agents end to end.\n\nUsage:\n")
	for _, c := range commands() {
		fmt.Fprintf(&b, "  gavel %-32s %s\n", strings.TrimSpace(c.name+" "+c.args), c.summary)
	}
	b.WriteString("\nRun \"gavel COMMAND -h\" for a command's flags and examples.\n")
	return b.String()
}

func main() {
	if os.Getenv("GOGC") == "" {
		// A run holds every transcript until its reports are written, and
		// makes much short-lived garbage (requests, JSON, compression):
		// collecting at half the default growth keeps the footprint small
		// for a little CPU (bench/README.md).
		debug.SetGCPercent(50)
	}
	stop := startProfile(os.Stderr)
	code := run(os.Args[1:], stdio{os.Stdin, os.Stdout, os.Stderr})
	stop()
	os.Exit(code)
}

func run(args []string, std stdio) int {
	if len(args) == 0 {
		fmt.Fprint(std.err, usage())
		return eval.ExitUsage
	}
	switch args[0] {
	case "--version":
		args[0] = "version"
	case "help", "-h", "--help":
		fmt.Fprint(std.out, usage())
		return eval.ExitPassed
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.main(args[1:], std)
		}
	}
	fmt.Fprintf(std.err, "gavel: unknown command %q\n\n%s", args[0], usage())
	return eval.ExitUsage
}
