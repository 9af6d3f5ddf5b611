package main

import (
	"fmt"
	"io"
	"os"

	flag "github.com/spf13/pflag"

	"github.com/gavelhq/gavel/eval"
)

const importHelp = `Usage: gavel import [flags] FILE...
       gavel import --from promptfoo|openai-evals [-o DIR] SOURCE

Reads transcripts recorded elsewhere into the results database as one run,
so that they can be judged again (gavel rejudge RUN --suite FILE), compared
and labelled like a run Gavel made. Three formats (docs/import.md):

  openai  OpenAI chat-format conversations, JSON Lines, one a line:
          {"messages": [...], "metadata": {...}} or a bare list of messages,
          with tool_calls and role: tool results, and usage
  otlp    OpenTelemetry GenAI spans in OTLP JSON (gen_ai.* attributes and
          events), grouped into conversations by gen_ai.conversation.id or
          trace id
  gavel   Gavel's own JSON report (gavel run --out x.json), verdicts kept

The format is told from each file's content unless --format says it. A
conversation's case id is its metadata's case_id or id (openai), its
gavel.case_id attribute, conversation id or trace id (otlp), or the file's
name and line; conversations of one case id are trials of one case.

Nothing is half imported: every file is read and checked first, and any
problem (each at its file:line or JSON path) stores nothing. Transcripts
without verdicts (openai, otlp) make an incomplete run, "not judged": gavel
rejudge judges it with a suite's judges.

--cases-out also writes the conversations' user turns as cases of the
suite format (input: or rounds:, with their source and trace id as
metadata), so that a golden set grows from production traces.

The exit code is 0, 2 when a file has a problem (nothing is stored), 3
when the results database failed.

--from converts another tool's evals into a Gavel suite instead, written
as DIR/gavel.yaml and DIR/cases.yaml (docs/migrate.md); nothing is stored:

  promptfoo     a promptfoo configuration (promptfooconfig.yaml, or its
                directory): providers, prompts, tests and their vars,
                assertions, defaultTest, assert-sets
  openai-evals  an OpenAI Evals eval YAML file of a registry
                (registry/evals/NAME.yaml; --eval picks one of several),
                its samples and model-graded spec read from the registry

What has no Gavel equivalent (a JavaScript assertion, a provider Gavel does
not have) is printed and kept as a comment in the suite, never dropped.
The suite written is validated as gavel validate does.

Examples:
  gavel import chats.jsonl
  gavel import --suite support-desk traces/*.otlp.json
  gavel import reports/latest.json          # a run of another machine
  gavel import --cases-out cases/prod.yaml --dry-run chats.jsonl
  gavel import chats.jsonl && gavel rejudge RUN --suite examples/support-desk
  gavel import --from promptfoo -o evals promptfooconfig.yaml
  gavel import --from openai-evals --eval coqa-closedqa -o coqa registry/evals/coqa-ex.yaml

Flags:
`

func importCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, importHelp); fs.PrintDefaults() }
	db := dbFlag(fs)
	suite := fs.String("suite", "", `the suite the run is of (default: a Gavel report's suite, else "imported")`)
	formatName := fs.String("format", "", "openai, otlp or gavel (default: told from each file's content)")
	casesOut := fs.String("cases-out", "", "also write the conversations' user turns as suite cases to this YAML file")
	dryRun := fs.Bool("dry-run", false, "read and check the files (and write --cases-out), store nothing")
	from := fs.String("from", "", "convert another tool's evals into a suite: promptfoo or openai-evals")
	out := fs.StringP("out", "o", "", "with --from: the directory the suite is written to (default: the current one)")
	evalName := fs.String("eval", "", "with --from openai-evals: the eval of the file (default: its only one)")
	force := fs.Bool("force", false, "with --from: replace gavel.yaml and cases.yaml if the directory has them")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if *from != "" {
		for _, name := range []string{"suite", "format", "cases-out", "dry-run", "db"} {
			if fs.Changed(name) {
				fmt.Fprintf(stderr, "gavel import: --%s is for importing transcripts: --from writes a suite and stores nothing\n", name)
				return eval.ExitUsage
			}
		}
		if fs.NArg() != 1 {
			fmt.Fprintln(stderr, "gavel import: --from converts one source: a promptfoo configuration, or an OpenAI Evals eval file")
			return eval.ExitUsage
		}
		si := eval.SuiteImport{From: *from, Out: *out, Eval: *evalName, Force: *force, Getenv: os.Getenv}
		return si.Import(fs.Arg(0), stdout, stderr)
	}
	for _, name := range []string{"out", "eval", "force"} {
		if fs.Changed(name) {
			fmt.Fprintf(stderr, "gavel import: --%s goes with --from\n", name)
			return eval.ExitUsage
		}
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return eval.ExitUsage
	}
	im := eval.Importing{DB: *db, Suite: *suite, Format: *formatName, CasesOut: *casesOut, DryRun: *dryRun}
	return im.Import(fs.Args(), stdout, stderr)
}
