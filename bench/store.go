package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/gavelhq/gavel/store"
	"github.com/gavelhq/gavel/store/sqlstore"
)

// The store benchmark (issue 6): a history of runs written through the
// store's API by concurrent writers, then the reads a user waits for
// timed on it, then a run like a real 64-way one written into it. See
// bench/README.md, "The store at scale".

// storeOptions are the store benchmark's flags.
type storeOptions struct {
	Stores   string
	DB       string
	Postgres string
	storeConfig
}

// storeFlags registers the store benchmark's flags.
func storeFlags() *storeOptions {
	o := &storeOptions{storeConfig: defaultStoreConfig}
	flag.StringVar(&o.Stores, "store", "", "run the store benchmark instead of the scenarios, on sqlite, postgres or both: seed a fresh store, time its reads and writes")
	flag.StringVar(&o.DB, "db", "", "run the store benchmark's reads and paced run on this store (an SQLite file, or a postgres:// URL) instead of seeding a fresh one: one that -store -keep kept")
	flag.StringVar(&o.Postgres, "postgres", os.Getenv("GAVEL_TEST_POSTGRES_URL"), "with -store or -queue: the PostgreSQL database to make a fresh schema in (default $GAVEL_TEST_POSTGRES_URL)")
	flag.IntVar(&o.Runs, "runs", o.Runs, "with -store: the runs to seed")
	flag.IntVar(&o.TrialsPerRun, "trials-per-run", o.TrialsPerRun, "with -store: the trials of each run (two per case)")
	flag.IntVar(&o.Writers, "writers", o.Writers, "with -store: the goroutines writing trials at once")
	return o
}

// enabled reports whether the flags ask for the store benchmark.
func (o *storeOptions) enabled() bool { return o.Stores != "" || o.DB != "" }

// storeConfig sizes the store benchmark.
type storeConfig struct {
	Runs, TrialsPerRun int
	// Writers write trials at once, when seeding and in the paced run.
	Writers int
	// ModelTime is the least a trial takes in a real run: its agent's and
	// judges' model calls. With Writers trials in flight, a run then makes
	// at most Writers / ModelTime trials a second.
	ModelTime time.Duration
	// PacedPerWriter is how many trials each writer saves in the paced run.
	PacedPerWriter int
	// Cold and Warm are how many times each read is timed on a store just
	// opened, and after that on the same store.
	Cold, Warm int
	// Progress is where seeding reports how far it got; nil: nowhere.
	Progress io.Writer
}

var defaultStoreConfig = storeConfig{
	Runs: 10000, TrialsPerRun: 100, Writers: 64,
	ModelTime: time.Second, PacedPerWriter: 10,
	Cold: 5, Warm: 20,
	Progress: os.Stderr,
}

// writeTarget is how long SaveTrial may take in the paced run, at the
// 99th percentile: a tenth of the shortest trial, so that writing is
// never what a run waits for.
const writeTarget = 100 * time.Millisecond

// runStore runs the store benchmark as the flags say, and prints what it
// measured.
func runStore(ctx context.Context, o *storeOptions, keep bool) error {
	if o.Runs < 1 || o.TrialsPerRun < 1 || o.Writers < 1 {
		return errors.New("-runs, -trials-per-run and -writers must be at least 1")
	}
	var kinds []string
	switch o.Stores {
	case "sqlite", "postgres":
		kinds = []string{o.Stores}
	case "both":
		kinds = []string{"sqlite", "postgres"}
	case "":
	default:
		return fmt.Errorf("-store %s: want sqlite, postgres or both", o.Stores)
	}
	if slices.Contains(kinds, "postgres") && o.Postgres == "" {
		return errors.New("-store postgres: name a PostgreSQL database to make a schema in, with -postgres or GAVEL_TEST_POSTGRES_URL (postgres://postgres@127.0.0.1:5432/test?sslmode=disable)")
	}
	fmt.Printf("%s/%s, %d CPUs, %s, %s\n", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version(), time.Now().Format(time.DateOnly))
	if o.DB != "" {
		db, err := existingDB(o.DB)
		if err != nil {
			return err
		}
		return benchAndPrint(ctx, db, o.storeConfig, keep)
	}
	for _, kind := range kinds {
		var db *benchDB
		var err error
		if kind == "postgres" {
			db, err = freshPostgres(ctx, o.Postgres)
		} else {
			db, err = freshSQLite()
		}
		if err != nil {
			return err
		}
		if err := benchAndPrint(ctx, db, o.storeConfig, keep); err != nil {
			return err
		}
	}
	return nil
}

// benchAndPrint measures the store on db, prints the report and removes
// db when fresh (unless keep).
func benchAndPrint(ctx context.Context, db *benchDB, cfg storeConfig, keep bool) (err error) {
	defer func() { err = errors.Join(err, db.close(keep)) }()
	if db.Fresh {
		fmt.Printf("\n%s: seeding %d runs × %d trials with %d writers\n", db.Kind, cfg.Runs, cfg.TrialsPerRun, cfg.Writers)
	}
	r, err := benchStore(ctx, db, cfg)
	if err != nil {
		return fmt.Errorf("%s: %w", db.Kind, err)
	}
	return r.print(os.Stdout)
}

// A storeReport is what the store benchmark measured on one database.
type storeReport struct {
	Kind   string
	Config storeConfig
	// Seed is nil for a store given with -db.
	Seed          *seeded
	Runs, Trials  int // in the store, before the paced run
	Size          int64
	Reads         []readResult
	Pages         []pageResult
	Paced         *paced
	Needed        float64 // trials/s a real run with Config.Writers in flight makes
	SeedMet       bool
	PacedMet      bool
	ReadsMissed   int
	SlowestTarget time.Duration // the slowest read with a target
	PagesMissed   int
	SlowestPage   time.Duration // the slowest page with a target
}

// benchStore seeds the store on db when it is fresh, then times its
// reads, then writes the paced run into it.
func benchStore(ctx context.Context, db *benchDB, cfg storeConfig) (*storeReport, error) {
	r := &storeReport{Kind: db.Kind, Config: cfg, Needed: needed(cfg.Writers, cfg.ModelTime)}
	s, err := db.open(ctx)
	if err != nil {
		return nil, err
	}
	defer func() {
		if s != nil {
			s.Close()
		}
	}()
	var history []seededRun
	if db.Fresh {
		if r.Seed, err = seed(ctx, s, cfg.Runs, cfg.TrialsPerRun, cfg.Writers, cfg.Progress, db.Kind); err != nil {
			return nil, err
		}
		history = r.Seed.Runs
		if err := db.settle(ctx, s); err != nil {
			return nil, fmt.Errorf("settle: %w", err)
		}
	} else if history, err = storedHistory(ctx, s); err != nil {
		return nil, err
	}
	if len(history) == 0 {
		return nil, errors.New("the store holds no runs")
	}
	r.Runs = len(history)
	if err := s.SQL().QueryRowContext(ctx, "SELECT count(*) FROM trials").Scan(&r.Trials); err != nil {
		return nil, fmt.Errorf("count trials: %w", err)
	}
	if r.Size, err = db.size(ctx, s); err != nil {
		return nil, fmt.Errorf("size: %w", err)
	}
	// The reads open stores of their own: new connections, cold caches.
	if err := s.Close(); err != nil {
		return nil, err
	}
	s = nil
	if r.Reads, err = timeReads(ctx, db, readOps(history), cfg.Cold, cfg.Warm); err != nil {
		return nil, fmt.Errorf("reads: %w", err)
	}
	if r.Pages, err = timePages(ctx, db, pageOps(history), cfg.Cold, cfg.Warm); err != nil {
		return nil, fmt.Errorf("pages: %w", err)
	}
	if s, err = db.open(ctx); err != nil {
		return nil, err
	}
	if r.Paced, err = pace(ctx, s, len(history), cfg.Writers, cfg.PacedPerWriter, cfg.ModelTime, cfg.TrialsPerRun); err != nil {
		return nil, fmt.Errorf("paced run: %w", err)
	}
	r.judge()
	return r, nil
}

// storedHistory returns the runs of a store, oldest first.
func storedHistory(ctx context.Context, s *sqlstore.DB) ([]seededRun, error) {
	infos, err := s.Runs(ctx, store.RunFilter{Limit: 1 << 30})
	if err != nil {
		return nil, err
	}
	out := make([]seededRun, len(infos))
	for i, r := range infos {
		out[len(infos)-1-i] = seededRun{ID: r.ID, Suite: r.Suite, Branch: r.GitBranch, Status: r.Status, Started: r.Started}
	}
	return out, nil
}

// judge compares the figures with the targets.
func (r *storeReport) judge() {
	r.SeedMet = r.Seed == nil || r.Seed.rate() >= r.Needed
	p := r.Paced
	r.PacedMet = percentile(p.Save, 99) < writeTarget && p.Rate >= 0.95*needed(p.Writers, p.ModelTime)
	for _, rr := range r.Reads {
		if !rr.Op.Target {
			continue
		}
		r.SlowestTarget = max(r.SlowestTarget, rr.slowest())
		if rr.slowest() >= readTarget {
			r.ReadsMissed++
		}
	}
	for _, p := range r.Pages {
		if !p.Op.Target {
			continue
		}
		r.SlowestPage = max(r.SlowestPage, p.slowest())
		if p.slowest() >= pageTarget {
			r.PagesMissed++
		}
	}
}

// met reports whether every target is met.
func (r *storeReport) met() bool {
	return r.SeedMet && r.PacedMet && r.ReadsMissed == 0 && r.PagesMissed == 0
}

func verdictText(met bool, missed string) string {
	if met {
		return "met"
	}
	return "MISSED: " + missed
}

// print writes the report: the writes, then a table of the reads.
func (r *storeReport) print(w io.Writer) error {
	fmt.Fprintf(w, "\n%s: %d runs, %d trials, %.2f GB\n", r.Kind, r.Runs, r.Trials, float64(r.Size)/(1<<30))
	if s := r.Seed; s != nil {
		fmt.Fprintf(w, "  seeding: %d trials by %d writers in %s: %.0f trials/s (first tenth %.0f/s, last tenth %.0f/s)\n",
			s.Trials, r.Config.Writers, s.Elapsed.Round(time.Second), s.rate(), s.FirstTenth, s.LastTenth)
		fmt.Fprintf(w, "    SaveTrial %s; CreateRun %s; FinishRun %s\n", latencies(s.Save), latencies(s.Create), latencies(s.Finish))
		fmt.Fprintf(w, "    a run with %d trials in flight, each at least %s of model calls, makes at most %.0f trials/s: %.0f× that: %s\n",
			r.Config.Writers, r.Config.ModelTime, r.Needed, s.rate()/r.Needed,
			verdictText(r.SeedMet, fmt.Sprintf("slower than %.0f trials/s", r.Needed)))
	}
	p := r.Paced
	fmt.Fprintf(w, "  paced run: %d trials by %d writers, each a trial every %s: %.1f trials/s\n",
		p.Trials, p.Writers, p.ModelTime, p.Rate)
	fmt.Fprintf(w, "    SaveTrial %s; FinishRun %s: %s\n", latencies(p.Save), ms(p.Finish),
		verdictText(r.PacedMet, fmt.Sprintf("SaveTrial p99 ≥ %s, or under %.0f trials/s", ms(writeTarget), 0.95*needed(p.Writers, p.ModelTime))))
	fmt.Fprintln(w)
	tw := newTable(w)
	fmt.Fprintf(tw, "  %s read\trows\tcold median\tcold max\twarm median\twarm max\ttarget\t\n", r.Kind)
	for _, rr := range r.Reads {
		target := "(reference)"
		if rr.Op.Target {
			target = verdictText(rr.slowest() < readTarget, "≥ "+ms(readTarget))
		}
		fmt.Fprintf(tw, "  %s\t%d\t%s\t%s\t%s\t%s\t%s\t\n", rr.Op.Name, rr.Rows,
			ms(median(rr.Cold)), ms(last(rr.Cold)), ms(median(rr.Warm)), ms(last(rr.Warm)), target)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	var missed []string
	if !r.SeedMet {
		missed = append(missed, "seeding throughput")
	}
	if !r.PacedMet {
		missed = append(missed, "paced run")
	}
	if r.ReadsMissed > 0 {
		missed = append(missed, fmt.Sprintf("%d reads", r.ReadsMissed))
	}
	if r.PagesMissed > 0 {
		missed = append(missed, fmt.Sprintf("%d pages", r.PagesMissed))
	}
	if err := r.printPages(w); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n  %s: every read under %s (slowest %s), every page under %s (slowest %s), writes keep up: %s\n",
		r.Kind, ms(readTarget), ms(r.SlowestTarget), ms(pageTarget), ms(r.SlowestPage),
		verdictText(r.met(), strings.Join(missed, ", ")))
	return nil
}

func newTable(w io.Writer) *tabwriter.Writer { return tabwriter.NewWriter(w, 0, 0, 2, ' ', 0) }

// latencies sums up sorted latencies: median, 99th percentile, max.
func latencies(d []time.Duration) string {
	return fmt.Sprintf("p50 %s, p99 %s, max %s", ms(median(d)), ms(percentile(d, 99)), ms(last(d)))
}

// ms formats a duration in milliseconds, with the digits that matter.
func ms(d time.Duration) string {
	f := float64(d) / float64(time.Millisecond)
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%.2f ms", f)
	case d < 10*time.Millisecond:
		return fmt.Sprintf("%.1f ms", f)
	case d < 10*time.Second:
		return fmt.Sprintf("%.0f ms", f)
	}
	return fmt.Sprintf("%.1f s", d.Seconds())
}
