package eval

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

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/conversation"
	"github.com/gavelhq/gavel/importer"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/store"
)

// Importing says how Import stores transcripts recorded elsewhere.
type Importing struct {
	// DB is the results database (as Options.DB).
	DB string
	// Suite names the suite the run is of. Defaults to a Gavel report's
	// suite, else "imported".
	Suite string
	// Format is openai, otlp or gavel (importer.ParseFormat). Defaults to
	// what each file's content says.
	Format string
	// CasesOut, when set, is a YAML file to write the conversations' user
	// turns to, as suite cases.
	CasesOut string
	// DryRun reads and checks the files (and writes CasesOut), and stores
	// nothing.
	DryRun bool
}

// Import reads the files of transcripts recorded elsewhere (gavel import)
// and stores them as one run, printing what it did to stdout and every
// problem to stderr; it returns the exit code: ExitUsage, storing
// nothing, when a file has a problem.
func (im Importing) Import(files []string, stdout, stderr io.Writer) int {
	format, err := importer.ParseFormat(im.Format)
	if err != nil {
		fmt.Fprintf(stderr, "gavel import: --format: %v\n", err)
		return ExitUsage
	}
	batch, err := importer.Read(files, format)
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
		return ExitUsage
	}
	run, info := importedRun(batch, im.Suite)

	// The cases go to a temporary file first, renamed once the run is
	// stored: a failure anywhere leaves neither.
	var casesTemp string
	var written int
	var skipped []string
	if im.CasesOut != "" {
		casesTemp, written, skipped, err = writeCasesTemp(im.CasesOut, batch.Cases)
		if err != nil {
			fmt.Fprintln(stderr, "gavel import: --cases-out:", err)
			return ExitUsage
		}
		defer os.Remove(casesTemp)
	}
	conversations := 0
	for _, c := range run.Cases {
		conversations += len(c.Trials)
	}
	from := info.ImportedFrom()
	if im.DryRun {
		fmt.Fprintf(stdout, "checked %s (%s) from %s: nothing stored (--dry-run)\n",
			plural(conversations, "conversation"), plural(len(run.Cases), "case"), from)
	} else {
		ctx := context.Background()
		st, err := OpenStore(ctx, im.DB)
		if err != nil {
			fmt.Fprintln(stderr, "gavel import: the results database:", err)
			return ExitInfra
		}
		defer st.Close()
		status := store.Incomplete
		if run.Stopped == "" {
			status = map[bool]store.Status{true: store.Passed, false: store.Failed}[run.Passed()]
		}
		stored, err := st.ImportRun(ctx, info, store.RunEnd{Status: status, Ended: info.Started, Run: run})
		if err != nil {
			fmt.Fprintln(stderr, "gavel import: nothing imported:", err)
			return ExitInfra
		}
		fmt.Fprintf(stdout, "imported %s (%s) from %s as run %s of suite %s: %s\n",
			plural(conversations, "conversation"), plural(len(run.Cases), "case"), from, stored.ID, info.Suite, status)
		if run.Stopped == gavel.StopNotJudged {
			fmt.Fprintf(stdout, "not judged yet: gavel rejudge %s --suite SUITE judges it\n", stored.ID)
		}
	}
	if casesTemp != "" {
		if err := os.Rename(casesTemp, im.CasesOut); err != nil {
			fmt.Fprintln(stderr, "gavel import: --cases-out:", err)
			return ExitInfra
		}
		fmt.Fprintf(stdout, "wrote %s to %s", plural(written, "case"), im.CasesOut)
		if len(skipped) > 0 {
			fmt.Fprintf(stdout, " (left out, no user turn: %s)", strings.Join(skipped, ", "))
		}
		fmt.Fprintln(stdout)
	}
	return ExitPassed
}

// importedRun makes the run to store of what was read: its cases, in
// the files' order, as a suite of the name given (else a Gavel report's,
// else "imported"), and its info, which says where it came from.
func importedRun(b *importer.Batch, suiteName string) (*gavel.Run, store.RunInfo) {
	suite := &gavel.Suite{Name: cmp.Or(suiteName, b.Suite, "imported"), Threshold: b.Threshold, Gate: b.Gate}
	files := make([]string, len(b.Files))
	for i, f := range b.Files {
		files[i] = f.String()
	}
	from := strings.Join(files, ", ")
	now := time.Now().UTC()
	run := &gavel.Run{Suite: suite, Started: now, Stopped: b.Stopped, StopReason: b.StopReason}
	for _, c := range b.Cases {
		gc := &gavel.Case{ID: c.ID, Name: c.Name, Description: c.Description, Tags: c.Tags, Metadata: c.Metadata,
			Source: c.Source, Expected: c.Expected, Critical: c.Critical}
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
		StartedBy: StartedBy(),
		Settings:  map[string]string{store.SettingImported: from},
		Threshold: cmp.Or(suite.Threshold, 1),
		Started:   now,
	}
	gateSettings(info.Settings, suite.Gate)
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
