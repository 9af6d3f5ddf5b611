package eval

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/conversation"
	"github.com/gavelhq/gavel/importer"
	"github.com/gavelhq/gavel/report"
	"github.com/gavelhq/gavel/store"
)

// Merge puts the shards of a run together as one run (gavel merge): the
// shards' JSON reports at paths, or, with label, the run the shards
// labelled so joined in the results database. It checks that the files
// are the shards of one run, computes every verdict, outcome and number
// again from the trials' judgments, stores the merged run, prints and
// writes its reports as Run does, and returns the exit code the whole run
// earns. Of the Options, DB and the reports' apply.
func (r *Session) Merge(ctx context.Context, paths []string, label string) int {
	r.Command = cmp.Or(r.Command, "gavel merge")
	if err := r.init(); err != nil {
		fmt.Fprintf(r.Stderr, "%s: %v\n", r.Command, err)
		return ExitUsage
	}
	var run *gavel.Run
	var code int
	if label != "" {
		run, code = labelledRun(ctx, r.Options.DB, label, r.Stderr)
	} else {
		run, code = mergeFiles(ctx, r.Options.DB, paths, r.Stderr)
	}
	if run == nil {
		return code
	}
	opts := report.Options{Verbose: r.Options.Verbose, Version: r.Version}
	return r.write(run, code, opts, writeReports(r.outs, run, opts))
}

// labelledRun reads the run labelled label, and the exit code it earns:
// gavel run's on the whole run, or ExitIncomplete while a shard has not
// ended.
func labelledRun(ctx context.Context, db, label string, stderr io.Writer) (*gavel.Run, int) {
	st, err := OpenStore(ctx, db)
	if err != nil {
		fmt.Fprintln(stderr, "gavel merge: the results database:", err)
		return nil, ExitInfra
	}
	defer st.Close()
	sh, ok := st.(store.Sharder)
	if !ok {
		fmt.Fprintln(stderr, "gavel merge: this results database keeps no labelled runs")
		return nil, ExitUsage
	}
	info, shards, err := sh.RunByLabel(ctx, label)
	if errors.Is(err, store.ErrNotFound) {
		fmt.Fprintf(stderr, "gavel merge: no run is labelled %q in this results database (did the shards run with --run-label %s and the same --db?)\n", label, label)
		return nil, ExitUsage
	} else if err != nil {
		fmt.Fprintln(stderr, "gavel merge:", err)
		return nil, ExitInfra
	}
	stored, err := st.Run(ctx, info.ID)
	if err != nil {
		fmt.Fprintln(stderr, "gavel merge:", err)
		return nil, ExitInfra
	}
	if !shards.All() {
		fmt.Fprintf(stderr, "gavel merge: run %s (label %q) is %s: %d of its %d shards have ended; these are the trials saved so far\n",
			info.ID, label, info.Status, shards.Ended, shards.Count)
		return stored.Run, ExitIncomplete
	}
	fmt.Fprintf(stderr, "gavel merge: run %s (label %q), every one of its %d shards ended: %s\n", info.ID, label, shards.Count, WholeVerdict(stored.Run))
	return stored.Run, GateCode(stored.Run)
}

// A shardFile is one shard's JSON report, read.
type shardFile struct {
	path  string
	head  report.JSONReport // without its cases
	cases []importer.Case
}

// mergeFiles reads the shards' reports, checks that they are the shards
// of one run, and stores the run they make.
func mergeFiles(ctx context.Context, db string, paths []string, stderr io.Writer) (*gavel.Run, int) {
	var files []shardFile
	for _, p := range paths {
		f, err := readShardFile(p)
		if err != nil {
			fmt.Fprintln(stderr, "gavel merge:", err)
			return nil, ExitUsage
		}
		files = append(files, f)
	}
	run, err := mergeShards(files)
	if err != nil {
		fmt.Fprintln(stderr, "gavel merge: nothing merged:", err)
		return nil, ExitUsage
	}
	code := GateCode(run)
	first := files[0].head.Shard
	info := store.RunInfo{
		Suite:     run.Suite.Name,
		SuiteFile: run.Suite.File,
		StartedBy: StartedBy(),
		Models:    run.Suite.Models,
		Threshold: run.Suite.Threshold,
		Started:   run.Started,
		Settings:  map[string]string{"merged": strings.Join(paths, ", "), "shards": fmt.Sprint(first.Count)},
	}
	if first.Label != "" {
		info.Settings["run_label"] = first.Label
	}
	gateSettings(info.Settings, run.Suite.Gate)
	info.Host, _ = os.Hostname()
	st, err := OpenStore(ctx, db)
	if err != nil {
		fmt.Fprintln(stderr, "gavel merge: the results database:", err)
		return run, Worse(code, ExitInfra)
	}
	defer st.Close()
	stored, err := st.ImportRun(ctx, info, store.RunEnd{Status: Status(run, code), Ended: run.Started.Add(run.Duration), Run: run})
	if err != nil {
		fmt.Fprintln(stderr, "gavel merge: the results database:", err)
		return run, Worse(code, ExitInfra)
	}
	fmt.Fprintf(stderr, "gavel merge: %d shards of suite %s merged: the whole run %s\n", first.Count, run.Suite.Name, WholeVerdict(run))
	fmt.Fprintf(stderr, "gavel: run %s saved (gavel show %s)\n", stored.ID, stored.ID)
	return run, code
}

// readShardFile reads a shard's JSON report: its head, and its cases as
// the importer reads a report, checked and computed again from their
// judgments (importer.ReadReport).
func readShardFile(path string) (shardFile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return shardFile{}, err
	}
	head, cases, err := importer.ReadReport(path, data)
	if err != nil {
		if format, derr := importer.Detect(path, data); derr != nil || format != importer.FormatGavel {
			return shardFile{}, fmt.Errorf("%s: not a JSON report of gavel run: %w", path, err)
		}
		return shardFile{}, err
	}
	if head.Shard == nil {
		return shardFile{}, fmt.Errorf("%s: the report of a whole run, not of a shard: merge the JSON reports of gavel run --shard K/N", path)
	}
	return shardFile{path: path, head: head, cases: cases}, nil
}

// mergeShards checks that files are the N shards of one run, each once
// and each with its own trials only, and returns that run: its cases in
// suite order, every shard's trials, what stopped a shard that did not
// run its part.
func mergeShards(files []shardFile) (*gavel.Run, error) {
	first := files[0]
	s0 := first.head.Shard
	byIndex := make([]*shardFile, s0.Count+1)
	for i := range files {
		f := &files[i]
		s := f.head.Shard
		edited := plan{Cases: s.Cases}.otherDefinitions(plan{Cases: s0.Cases})
		switch {
		case f.head.Suite.Name != first.head.Suite.Name:
			return nil, fmt.Errorf("%s is of suite %q and %s of suite %q: give the shards of one run", f.path, f.head.Suite.Name, first.path, first.head.Suite.Name)
		case s.Label != s0.Label:
			return nil, fmt.Errorf("%s is of run %q and %s of run %q (their --run-label): give the shards of one run", f.path, s.Label, first.path, s0.Label)
		case s.Count != s0.Count:
			return nil, fmt.Errorf("%s is %s and %s %s: the shards of one run have the same N", f.path, s, first.path, s0)
		case len(edited) > 0:
			what := "case " + edited[0] + " is"
			if len(edited) > 1 {
				what = "cases " + strings.Join(edited, ", ") + " are"
			}
			return nil, fmt.Errorf("%s defined otherwise in %s than in %s: the shards of one run run one version of the suite (one commit)", what, f.path, first.path)
		case s.Selection != s0.Selection:
			return nil, fmt.Errorf("%s and %s selected other cases or trials (another commit, --tag, --id, --changed-since or --trials?): they are not the shards of one run", f.path, first.path)
		case f.head.Suite.Threshold != first.head.Suite.Threshold:
			return nil, fmt.Errorf("%s has threshold %v and %s %v (--min-pass-rate?): the shards of one run have the same", f.path, f.head.Suite.Threshold, first.path, first.head.Suite.Threshold)
		case f.head.Suite.Gate != first.head.Suite.Gate:
			return nil, fmt.Errorf("%s weighs its pass rate as %+v and %s as %+v (gate:, --inconclusive?): the shards of one run weigh it alike", f.path, f.head.Suite.Gate, first.path, first.head.Suite.Gate)
		case s.Index < 1 || s.Index > s.Count:
			return nil, fmt.Errorf("%s says it is %s", f.path, s)
		case byIndex[s.Index] != nil:
			return nil, fmt.Errorf("%s and %s are both %s: give each shard once", byIndex[s.Index].path, f.path, s)
		}
		byIndex[s.Index] = f
	}
	var missing []string
	for k := 1; k <= s0.Count; k++ {
		if byIndex[k] == nil {
			missing = append(missing, fmt.Sprintf("%d/%d", k, s0.Count))
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("shard %s missing: give the JSON reports of all %d shards", strings.Join(missing, ", "), s0.Count)
	}

	p := plan{Suite: first.head.Suite.Name, Cases: s0.Cases}
	owners := map[trialKey]int{}
	p.each(func(i int, caseID string, n int) { owners[trialKey{caseID, n}] = owner(i, s0.Count) })
	cases := map[string]*importer.Case{}
	trials := map[string][]gavel.Trial{}
	run := &gavel.Run{}
	var end time.Time
	for k := 1; k <= s0.Count; k++ {
		f := byIndex[k]
		have := map[trialKey]bool{}
		for i := range f.cases {
			c := &f.cases[i]
			if cases[c.ID] == nil {
				cases[c.ID] = c
			}
			for _, t := range c.Trials {
				key := trialKey{c.ID, t.N}
				switch o, ok := owners[key]; {
				case !ok:
					return nil, fmt.Errorf("%s holds trial %d of case %s, which the run did not select", f.path, t.N, c.ID)
				case o != k:
					return nil, fmt.Errorf("%s (shard %d/%d) holds trial %d of case %s, which is shard %d/%d's", f.path, k, s0.Count, t.N, c.ID, o, s0.Count)
				}
				have[key] = true
				trials[c.ID] = append(trials[c.ID], t)
			}
		}
		if f.head.Incomplete {
			if run.Stopped == "" {
				run.Stopped, run.StopReason = f.head.Stopped, fmt.Sprintf("shard %d/%d: %s", k, s0.Count, f.head.StopReason)
			}
		} else {
			for key, o := range owners {
				if o == k && !have[key] {
					return nil, fmt.Errorf("%s (shard %d/%d) is complete but lacks trial %d of case %s", f.path, k, s0.Count, key.n, key.caseID)
				}
			}
		}
		if run.Started.IsZero() || f.head.Started.Before(run.Started) {
			run.Started = f.head.Started
		}
		if e := f.head.Started.Add(f.head.Duration); e.After(end) {
			end = e
		}
	}
	run.Duration = end.Sub(run.Started)
	h := first.head.Suite
	run.Suite = &gavel.Suite{Name: h.Name, Description: h.Description, File: h.File, Threshold: h.Threshold, Gate: h.Gate, Models: h.Models}
	for _, pc := range s0.Cases {
		gc := &gavel.Case{ID: pc.ID}
		if c := cases[pc.ID]; c != nil {
			gc = mergedCase(c)
		}
		ts := trials[pc.ID]
		slices.SortFunc(ts, func(a, b gavel.Trial) int { return a.N - b.N })
		cr := gavel.CaseResult{Case: gc, Trials: ts}
		if c := cases[pc.ID]; c != nil {
			cr.Quarantined = c.Quarantined // as the shard that ran it found it
		}
		cr.Summarize()
		if len(ts) == 0 { // else Summarize said why it is SKIPPED, if it is
			cr.SkipReason = "no shard ran it"
			if c := cases[pc.ID]; c != nil && c.SkipReason != "" {
				cr.SkipReason = c.SkipReason
			}
		}
		run.Suite.Cases = append(run.Suite.Cases, gc)
		run.Cases = append(run.Cases, cr)
	}
	run.Models = run.ModelUsage()
	return run, nil
}

// mergedCase is the case a shard's report describes.
func mergedCase(c *importer.Case) *gavel.Case {
	gc := &gavel.Case{ID: c.ID, Name: c.Name, Description: c.Description, Tags: c.Tags, Metadata: c.Metadata,
		Source: c.Source, Expected: c.Expected, Critical: c.Critical}
	if in := c.Input(); in != "" {
		gc.Script.Rounds = append(gc.Script.Rounds, conversation.Round{Prompt: in})
	}
	return gc
}
