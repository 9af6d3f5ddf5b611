package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"strings"
	"time"
)

func main() {
	if os.Getenv(spawnerEnv) != "" {
		if err := serveSpawner(); err != nil {
			fmt.Fprintln(os.Stderr, "bench: spawner:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func run() error {
	var (
		names    = flag.String("scenario", "all", "the scenarios to run, comma-separated: all, or some of "+scenarioNames())
		repeat   = flag.Int("repeat", 1, "run each scenario this many times")
		bin      = flag.String("gavel", "", "the gavel binary to measure (default: build ./cmd/gavel of -repo)")
		repo     = flag.String("repo", ".", "the root of the gavel module, to build it")
		keep     = flag.Bool("keep", false, "keep the temporary directory (suites, reports, gavel's output); with -store, the store")
		serve    = flag.Bool("serve", false, "only start the fake server (-latency, -inflight) and print its environment, until interrupted: to run or profile gavel by hand")
		custom   scenario
		inFlight = flag.Int("inflight", 0, "with -cases: the fake's in-flight limit, above which it answers 429 (0: none)")
	)
	flag.IntVar(&custom.Cases, "cases", 0, "run one scenario of your own with this many cases, instead of -scenario")
	flag.DurationVar(&custom.Latency, "latency", 0, "with -cases: the fake's latency")
	flag.IntVar(&custom.Concurrency, "concurrency", 4, "with -cases: gavel run --concurrency")
	flag.BoolVar(&custom.JSONL, "jsonl", false, "with -cases: the cases in a JSON Lines file")
	flag.BoolVar(&custom.Cached, "cache", false, "with -cases: run twice with the cache on instead of once with --no-cache")
	storeOpts := storeFlags()
	queueOpts := queueFlags()
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if *serve {
		return serveFake(ctx, custom.Latency, *inFlight)
	}
	if storeOpts.enabled() {
		return runStore(ctx, storeOpts, *keep)
	}
	if queueOpts.Trials > 0 {
		tmp, err := os.MkdirTemp("", "gavel-bench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		if *bin == "" {
			fmt.Fprintln(os.Stderr, "bench: building ./cmd/gavel")
			if *bin, err = buildGavel(ctx, *repo, tmp); err != nil {
				return err
			}
		}
		return runQueue(ctx, queueOpts, storeOpts.Postgres, *bin, tmp)
	}
	todo, err := pick(*names, custom, *inFlight)
	if err != nil {
		return err
	}
	spawn, err := startSpawner() // first, while this process is small
	if err != nil {
		return err
	}
	defer spawn.close()

	tmp, err := os.MkdirTemp("", "gavel-bench-")
	if err != nil {
		return err
	}
	if *keep {
		fmt.Fprintln(os.Stderr, "bench: keeping", tmp)
	} else {
		defer os.RemoveAll(tmp)
	}
	if *bin == "" {
		fmt.Fprintln(os.Stderr, "bench: building ./cmd/gavel")
		if *bin, err = buildGavel(ctx, *repo, tmp); err != nil {
			return err
		}
	}

	fmt.Printf("%s/%s, %d CPUs, %s, %s\n", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version(), time.Now().Format(time.DateOnly))
	var results []result
	for _, s := range todo {
		fmt.Println(s)
		for range *repeat {
			rs, err := measure(ctx, spawn, s, *bin, tmp)
			if err != nil {
				return fmt.Errorf("%s: %w", s.Name, err)
			}
			results = append(results, rs...)
			sleepBetween(ctx)
		}
	}
	fmt.Println()
	return printTable(os.Stdout, results)
}

// pick returns the scenarios named (comma-separated, or all), or the
// custom one when it has cases.
func pick(names string, custom scenario, inFlight int) ([]scenario, error) {
	if custom.Cases > 0 {
		custom.Name, custom.InFlight = "custom", inFlight
		custom.Target = everyCasePassed
		return []scenario{custom}, nil
	}
	if names == "all" {
		return scenarios, nil
	}
	var out []scenario
	for _, name := range strings.Split(names, ",") {
		i := slices.IndexFunc(scenarios, func(s scenario) bool { return s.Name == strings.TrimSpace(name) })
		if i < 0 {
			return nil, fmt.Errorf("-scenario %s: no such scenario; there are all, %s", name, scenarioNames())
		}
		out = append(out, scenarios[i])
	}
	return out, nil
}
