package main

import (
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A result is one measured run of a scenario.
type result struct {
	Scenario scenario
	// Run numbers the runs of a cached scenario (1, 2); it is 0 otherwise.
	Run         int
	Proc        process
	Calls       int // requests the fake received, 429s included
	RateLimited int // 429 answers
	Outcomes    map[string]int
	// ToFirst is the time from gavel's start to the fake's first request
	// of the run, and AfterLast the time from the fake's last answer to
	// gavel's exit; both 0 when the run made no call.
	ToFirst, AfterLast time.Duration
}

func (r result) timesIdeal() float64 {
	ideal := r.Scenario.ideal()
	if ideal == 0 {
		return 0
	}
	return float64(r.Proc.Wall) / float64(ideal)
}

func (r result) outcomeText() string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(r.Outcomes)) {
		parts = append(parts, fmt.Sprintf("%s %d", k, r.Outcomes[k]))
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, ", ")
}

// missed says which of the scenario's targets r misses.
func (r result) missed() []string { return r.Scenario.Target(r) }

// measure runs scenario s with the gavel binary bin, in a directory of
// its own under tmp.
func measure(ctx context.Context, spawn *spawner, s scenario, bin, tmp string) ([]result, error) {
	dir, err := os.MkdirTemp(tmp, s.Name+"-")
	if err != nil {
		return nil, err
	}
	if s.Version {
		return measureVersion(ctx, spawn, s, bin, dir)
	}
	write := writeSuite
	if s.JSONL {
		write = writeJSONLSuite
	}
	suite, err := write(dir, s.Cases)
	if err != nil {
		return nil, err
	}
	fake := startFake(s.Latency, s.InFlight, retryAfter)
	defer fake.Close()
	env := gavelEnv(fake.URL)
	args := []string{"run", "--quiet", "--concurrency", strconv.Itoa(s.Concurrency)}
	runs := 1
	if s.Cached {
		runs = 2
	} else {
		args = append(args, "--no-cache")
	}
	args = append(args, suite)

	var results []result
	for run := 1; run <= runs; run++ {
		calls, limited, answered := fake.Requests(), fake.RateLimited(), fake.LastAnswer()
		p, err := spawn.run(ctx, job{Bin: bin, Dir: dir, Env: env, Args: args})
		if err != nil {
			return nil, err
		}
		r := result{Scenario: s, Proc: p, Calls: fake.Requests() - calls, RateLimited: fake.RateLimited() - limited}
		if s.Cached {
			r.Run = run
		}
		if r.Calls > 0 {
			// The fake's first request ever is this run's only in the
			// first run; a second (cached) run that calls is timed from
			// its last answer only.
			if run == 1 {
				r.ToFirst = fake.FirstRequest().Sub(p.Started)
			}
			if last := fake.LastAnswer(); last.After(answered) {
				r.AfterLast = p.Ended.Sub(last)
			}
		}
		if r.Outcomes, err = outcomes(dir); err != nil {
			return nil, fmt.Errorf("%s: %w (exit %d)\n%s", s.Name, err, p.Exit, tail(dir))
		}
		results = append(results, r)
	}
	return results, nil
}

// measureVersion starts `gavel version` versionRuns times and keeps the
// run of median wall time.
func measureVersion(ctx context.Context, spawn *spawner, s scenario, bin, dir string) ([]result, error) {
	var runs []process
	for range versionRuns {
		p, err := spawn.run(ctx, job{Bin: bin, Dir: dir, Env: os.Environ(), Args: []string{"version"}})
		if err != nil {
			return nil, err
		}
		if p.Exit != 0 {
			return nil, fmt.Errorf("gavel version: exit %d\n%s", p.Exit, tail(dir))
		}
		runs = append(runs, p)
	}
	slices.SortFunc(runs, func(a, b process) int { return int(a.Wall - b.Wall) })
	return []result{{Scenario: s, Proc: runs[len(runs)/2]}}, nil
}

// scenarioNames lists the scenarios' names, for messages.
func scenarioNames() string {
	var names []string
	for _, s := range scenarios {
		names = append(names, s.Name)
	}
	return strings.Join(names, ", ")
}

// sleepBetween lets the machine settle between scenarios (connections in
// TIME_WAIT, the page cache), so one does not slow the next.
func sleepBetween(ctx context.Context) {
	select {
	case <-time.After(500 * time.Millisecond):
	case <-ctx.Done():
	}
}
