package main

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/gavelhq/gavel/store"
	"github.com/gavelhq/gavel/store/sqlstore"
)

// readTarget is the target for every read a user waits for:
// listing runs, a run's summary, a suite's trend.
const readTarget = 100 * time.Millisecond

// A readOp is one read of the store, timed. Do returns how many rows (runs,
// trend points, trials) it got.
type readOp struct {
	Name string
	// Target is true for the reads the issue sets readTarget for; the
	// others are for reference.
	Target bool
	Do     func(ctx context.Context, s store.Store, rng *rand.Rand) (int, error)
}

// readOps returns the reads to time on a store holding the history h
// (newest last).
func readOps(h []seededRun) []readOp {
	runs := func(f store.RunFilter) func(context.Context, store.Store, *rand.Rand) (int, error) {
		return func(ctx context.Context, s store.Store, _ *rand.Rand) (int, error) {
			rs, err := s.Runs(ctx, f)
			return len(rs), err
		}
	}
	trend := func(suite string) func(context.Context, store.Store, *rand.Rand) (int, error) {
		return func(ctx context.Context, s store.Store, _ *rand.Rand) (int, error) {
			ps, err := s.Trend(ctx, suite, 100)
			return len(ps), err
		}
	}
	random := func(rng *rand.Rand) string { return h[rng.IntN(len(h))].ID }
	rare := rareBranch(h)
	page := h[max(0, len(h)-1-100*50)].Started // where page 101 of 50 runs starts
	small := benchSuites[len(benchSuites)-1].Name
	return []readOp{
		{Name: "Runs: newest 50", Target: true, Do: runs(store.RunFilter{Limit: 50})},
		{Name: "Runs: suite " + benchSuites[0].Name, Target: true, Do: runs(store.RunFilter{Suite: benchSuites[0].Name})},
		{Name: "Runs: suite " + small, Target: true, Do: runs(store.RunFilter{Suite: small})},
		{Name: "Runs: status failed", Target: true, Do: runs(store.RunFilter{Status: store.Failed})},
		{Name: "Runs: status errored", Target: true, Do: runs(store.RunFilter{Status: store.Errored})},
		{Name: "Runs: branch main", Target: true, Do: runs(store.RunFilter{Branch: mainBranch})},
		{Name: "Runs: branch " + rare, Target: true, Do: runs(store.RunFilter{Branch: rare})},
		{Name: "Runs: suite " + small + ", interrupted", Target: true, Do: runs(store.RunFilter{Suite: small, Status: store.Incomplete})},
		{Name: "Runs: page 101 (Before)", Target: true, Do: runs(store.RunFilter{Before: page})},
		{Name: "RunInfo: a random run", Target: true, Do: func(ctx context.Context, s store.Store, rng *rand.Rand) (int, error) {
			_, err := s.RunInfo(ctx, random(rng))
			return 1, err
		}},
		{Name: "Trend: " + benchSuites[0].Name + ", 100", Target: true, Do: trend(benchSuites[0].Name)},
		{Name: "Trend: " + small + ", 100", Target: true, Do: trend(small)},
		{Name: "Run: a random run, whole", Do: func(ctx context.Context, s store.Store, rng *rand.Rand) (int, error) {
			r, err := s.Run(ctx, random(rng))
			if err != nil {
				return 0, err
			}
			n := 0
			for _, c := range r.Run.Cases {
				n += len(c.Trials)
			}
			return n, nil
		}},
	}
}

// rareBranch returns a feature branch of the middle of the history: one
// with a few runs, months old. It is release in a history too short for
// one.
func rareBranch(h []seededRun) string {
	for i := len(h) / 2; i < len(h); i++ {
		if strings.HasPrefix(h[i].Branch, "feature/") {
			return h[i].Branch
		}
	}
	return releaseBranch
}

// A readResult is a read's timings.
type readResult struct {
	Op   readOp
	Rows int // of the last call
	// Cold are first calls on a store just opened (new connections);
	// Warm are the calls after them on one store. Both sorted.
	Cold, Warm []time.Duration
}

// timeReads times each read: cold times, each the first call on a store
// just opened, then warm more calls on the last one.
func timeReads(ctx context.Context, db *benchDB, ops []readOp, cold, warm int) ([]readResult, error) {
	rng := rand.New(rand.NewPCG(1, 2))
	var out []readResult
	for _, op := range ops {
		r := readResult{Op: op}
		var err error
		r.Cold, r.Warm, err = timeColdWarm(ctx, db, cold, warm, func(s *sqlstore.DB) (time.Duration, error) {
			t0 := time.Now()
			n, err := op.Do(ctx, s, rng)
			d := time.Since(t0)
			r.Rows = n
			if err != nil {
				return 0, fmt.Errorf("%s: %w", op.Name, err)
			}
			return d, nil
		})
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// timeColdWarm opens the store cold times and makes the first call on
// each (the cold times), then warm more calls on the last one (the warm
// times); call makes one call and says how long it took. Both are
// returned sorted.
func timeColdWarm(ctx context.Context, db *benchDB, cold, warm int, call func(s *sqlstore.DB) (time.Duration, error)) (coldTimes, warmTimes []time.Duration, err error) {
	for c := range max(1, cold) {
		s, err := db.open(ctx)
		if err != nil {
			return nil, nil, err
		}
		calls := 1 // the first on this store: cold
		if c == max(1, cold)-1 {
			calls += warm
		}
		for i := range calls {
			d, err := call(s)
			if err != nil {
				s.Close()
				return nil, nil, err
			}
			if i == 0 {
				coldTimes = append(coldTimes, d)
			} else {
				warmTimes = append(warmTimes, d)
			}
		}
		if err := s.Close(); err != nil {
			return nil, nil, err
		}
	}
	slices.Sort(coldTimes)
	slices.Sort(warmTimes)
	return coldTimes, warmTimes, nil
}

// slowest returns the longest of the read's calls, cold or warm.
func (r readResult) slowest() time.Duration {
	return max(last(r.Cold), last(r.Warm))
}

// median returns the median of sorted durations, 0 for none.
func median(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	return d[len(d)/2]
}

// percentile returns the p-th percentile (0..100) of sorted durations, 0
// for none: the smallest value with p% of them at or below it.
func percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	i := int(math.Ceil(float64(len(d))*p/100)) - 1
	return d[min(len(d)-1, max(0, i))]
}

// last returns the largest of sorted durations, 0 for none.
func last(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	return d[len(d)-1]
}
