package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	flag "github.com/spf13/pflag"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/conversation"
	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/importer"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/store"
)

const importHelp = `Usage: gavel import [flags] FILE...

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

Examples:
  gavel import chats.jsonl
  gavel import --suite support-desk traces/*.otlp.json
  gavel import reports/latest.json          # a run of another machine
  gavel import --cases-out cases/prod.yaml --dry-run chats.jsonl
  gavel import chats.jsonl && gavel rejudge RUN --suite examples/support-desk

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
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return eval.ExitUsage
	}
	format, err := importer.ParseFormat(*formatName)
	if err != nil {
		fmt.Fprintf(stderr, "gavel import: --format: %v\n", err)
		return eval.ExitUsage
	}
	batch, err := importer.Read(fs.Args(), format)
	if err != nil {
		var problems importer.Problems
		if errors.As(err, &problems) {
			for _, p := range problems {
				fmt.Fprintln(stderr, p.Error())
			}
			fmt.Fprintf(stderr, "gavel import: nothing imported: fix the %s above\n", plural(len(problems), "problem"))
		} else {
			fmt.Fprintln(stderr, "gavel import:", err)
		}
		return eval.ExitUsage
	}
	run, info := importedRun(batch, *suite)

	// The cases go to a temporary file first, renamed once the run is
	// stored: a failure anywhere leaves neither.
	var casesTemp string
	var written int
	var skipped []string
	if *casesOut != "" {
		casesTemp, written, skipped, err = writeCasesTemp(*casesOut, batch.Cases)
		if err != nil {
			fmt.Fprintln(stderr, "gavel import: --cases-out:", err)
			return eval.ExitUsage
		}
		defer os.Remove(casesTemp)
	}
	conversations := 0
	for _, c := range run.Cases {
		conversations += len(c.Trials)
	}
	from := info.ImportedFrom()
	if *dryRun {
		fmt.Fprintf(stdout, "checked %s (%s) from %s: nothing stored (--dry-run)\n",
			plural(conversations, "conversation"), plural(len(run.Cases), "case"), from)
	} else {
		ctx := context.Background()
		st, err := eval.OpenStore(ctx, *db)
		if err != nil {
			fmt.Fprintln(stderr, "gavel import: the results database:", err)
			return eval.ExitInfra
		}
		defer st.Close()
		status := store.Incomplete
		if run.Stopped == "" {
			status = map[bool]store.Status{true: store.Passed, false: store.Failed}[run.Passed()]
		}
		stored, err := st.ImportRun(ctx, info, store.RunEnd{Status: status, Ended: info.Started, Run: run})
		if err != nil {
			fmt.Fprintln(stderr, "gavel import: nothing imported:", err)
			return eval.ExitInfra
		}
		fmt.Fprintf(stdout, "imported %s (%s) from %s as run %s of suite %s: %s\n",
			plural(conversations, "conversation"), plural(len(run.Cases), "case"), from, stored.ID, info.Suite, status)
		if run.Stopped == gavel.StopNotJudged {
			fmt.Fprintf(stdout, "not judged yet: gavel rejudge %s --suite SUITE judges it\n", stored.ID)
		}
	}
	if casesTemp != "" {
		if err := os.Rename(casesTemp, *casesOut); err != nil {
			fmt.Fprintln(stderr, "gavel import: --cases-out:", err)
			return eval.ExitInfra
		}
		fmt.Fprintf(stdout, "wrote %s to %s", plural(written, "case"), *casesOut)
		if len(skipped) > 0 {
			fmt.Fprintf(stdout, " (left out, no user turn: %s)", strings.Join(skipped, ", "))
		}
		fmt.Fprintln(stdout)
	}
	return eval.ExitPassed
}

// importedRun makes the run to store of what was read: its cases, in
// the files' order, as a suite of the name given (else a Gavel report's,
// else "imported"), and its info, which says where it came from.
func importedRun(b *importer.Batch, suiteName string) (*gavel.Run, store.RunInfo) {
	suite := &gavel.Suite{Name: cmp.Or(suiteName, b.Suite, "imported"), Threshold: b.Threshold}
	files := make([]string, len(b.Files))
	for i, f := range b.Files {
		files[i] = f.String()
	}
	from := strings.Join(files, ", ")
	now := time.Now().UTC()
	run := &gavel.Run{Suite: suite, Started: now, Stopped: b.Stopped, StopReason: b.StopReason}
	for _, c := range b.Cases {
		gc := &gavel.Case{ID: c.ID, Name: c.Name, Description: c.Description, Tags: c.Tags, Metadata: c.Metadata,
			Source: c.Source, Expected: c.Expected}
		var prompts []conversation.Round
		if len(c.Trials) > 0 && c.Trials[0].Transcript != nil {
			for _, turn := range c.Trials[0].Transcript.Turns {
				if turn.Role == judge.RoleUser {
					prompts = append(prompts, conversation.Round{Prompt: turn.Content})
				}
			}
		}
		gc.Script = conversation.Script{Rounds: prompts}
		suite.Cases = append(suite.Cases, gc)
		r := gavel.CaseResult{Case: gc, Trials: c.Trials, Outcome: c.Outcome, SkipReason: c.SkipReason}
		if !c.Judged() {
			r.Outcome, r.SkipReason = gavel.Skipped, "not judged yet: imported without a verdict"
			run.Stopped = gavel.StopNotJudged
			run.StopReason = "imported from " + from + " without verdicts: gavel rejudge judges it"
		}
		run.Cases = append(run.Cases, r)
	}
	run.Models = run.ModelUsage()
	info := store.RunInfo{
		Suite:     suite.Name,
		StartedBy: eval.StartedBy(),
		Settings:  map[string]string{store.SettingImported: from},
		Threshold: cmp.Or(suite.Threshold, 1),
		Started:   now,
	}
	info.Host, _ = os.Hostname()
	return run, info
}

// writeCasesTemp writes the cases to a temporary file beside path.
func writeCasesTemp(path string, cases []importer.Case) (temp string, written int, skipped []string, err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return "", 0, nil, err
	}
	written, skipped, err = importer.WriteCases(f, cases)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", 0, nil, err
	}
	return f.Name(), written, skipped, nil
}

// plural says n things: "1 case", "3 cases".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
