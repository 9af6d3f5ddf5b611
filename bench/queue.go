package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The queue benchmark (issue 17): a run of many trials enqueued with
// gavel run --queue and run by several gavel worker processes against
// the fake server, its wall time against the latency-bound ideal. See
// bench/README.md, "Workers on a queue".

// queueOptions are the queue benchmark's flags.
type queueOptions struct {
	Trials      int
	Workers     int
	Concurrency int
	Latency     time.Duration
	Postgres    string
}

// queueFlags registers the queue benchmark's flags.
func queueFlags() *queueOptions {
	o := &queueOptions{}
	flag.IntVar(&o.Trials, "queue", 0, "run the queue benchmark instead of the scenarios: a run of this many trials (one per case) through gavel run --queue and -workers gavel worker processes, on a fresh schema of -postgres")
	flag.IntVar(&o.Workers, "workers", 4, "with -queue: the gavel worker processes")
	flag.IntVar(&o.Concurrency, "worker-concurrency", 16, "with -queue: each worker's --concurrency")
	flag.DurationVar(&o.Latency, "queue-latency", 200*time.Millisecond, "with -queue: the fake's latency")
	return o
}

// ideal is N × 2 calls × latency / (workers × concurrency).
func (o *queueOptions) ideal() time.Duration {
	return time.Duration(float64(o.Trials) * callsPerCase * float64(o.Latency) / float64(o.Workers*o.Concurrency))
}

// runQueue runs the queue benchmark and prints its figures.
func runQueue(ctx context.Context, o *queueOptions, postgres, bin, tmp string) error {
	if postgres == "" {
		return errors.New("-queue: name a PostgreSQL database to make a schema in, with -postgres or GAVEL_TEST_POSTGRES_URL")
	}
	db, err := freshPostgres(ctx, postgres)
	if err != nil {
		return err
	}
	defer db.drop()
	dir, err := os.MkdirTemp(tmp, "queue-")
	if err != nil {
		return err
	}
	if _, err := writeSuite(dir, o.Trials); err != nil {
		return err
	}
	fake := startFake(o.Latency, 0, retryAfter)
	defer fake.Close()
	env := gavelEnv(fake.URL)
	fmt.Printf("queue: %d trials, latency %s, %d workers × concurrency %d, ideal %s\n",
		o.Trials, o.Latency, o.Workers, o.Concurrency, o.ideal().Round(10*time.Millisecond))

	// Migrate first, so that the run's wall time is the run's.
	if out, err := gavelCmd(ctx, bin, dir, env, "migrate", "--db", db.Where).CombinedOutput(); err != nil {
		return fmt.Errorf("gavel migrate: %w\n%s", err, out)
	}
	var workers []*exec.Cmd
	defer func() {
		for _, w := range workers {
			w.Process.Kill()
			w.Wait()
		}
	}()
	for i := range o.Workers {
		w := gavelCmd(ctx, bin, dir, env, "worker", "--db", db.Where, "--no-cache", "--quiet",
			"--concurrency", strconv.Itoa(o.Concurrency))
		log, err := os.Create(filepath.Join(dir, fmt.Sprintf("worker-%d.out", i+1)))
		if err != nil {
			return err
		}
		defer log.Close()
		w.Stdout, w.Stderr = log, log
		if err := w.Start(); err != nil {
			return err
		}
		workers = append(workers, w)
	}
	time.Sleep(time.Second) // the workers are up and polling

	run := gavelCmd(ctx, bin, dir, env, "run", "--queue", "--quiet", "--db", db.Where, "gavel.yaml")
	out, err := os.Create(filepath.Join(dir, "gavel.out"))
	if err != nil {
		return err
	}
	defer out.Close()
	// When the run says it enqueued its trials (its stderr, a line at a
	// time, also to gavel.out), the enqueuing is over.
	stderr, err := run.StderrPipe()
	if err != nil {
		return err
	}
	run.Stdout = out
	start := time.Now()
	if err := run.Start(); err != nil {
		return err
	}
	var enqueuing time.Duration
	lines := bufio.NewScanner(stderr)
	for lines.Scan() {
		if enqueuing == 0 && strings.Contains(lines.Text(), "enqueued for gavel worker") {
			enqueuing = time.Since(start)
		}
		fmt.Fprintln(out, lines.Text())
	}
	err = run.Wait()
	wall := time.Since(start)
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		return err
	}
	var cpu time.Duration
	for _, w := range workers {
		w.Process.Signal(syscall.SIGTERM)
		w.Wait()
		cpu += w.ProcessState.UserTime() + w.ProcessState.SystemTime()
	}
	workers = nil
	results, err := outcomes(dir)
	if err != nil {
		return fmt.Errorf("%w (exit %d)\n%s", err, run.ProcessState.ExitCode(), tail(dir))
	}
	r := result{Outcomes: results}
	target := "met"
	x := float64(wall) / float64(o.ideal())
	if x > 1.2 {
		target = "more than 1.20× ideal"
	}
	if results["PASS"] != o.Trials || run.ProcessState.ExitCode() != 0 {
		target = fmt.Sprintf("not every case passed (%s, exit %d)", r.outcomeText(), run.ProcessState.ExitCode())
	}
	fmt.Printf("wall %s (gavel run --queue, from its start to its report; enqueuing took %s of it), ideal %s, %.2f× ideal; "+
		"after enqueuing %s, %.2f× ideal; workers' CPU %.1f s; %d calls; %s; target ≤ 1.20× ideal: %s\n",
		wall.Round(10*time.Millisecond), enqueuing.Round(10*time.Millisecond), o.ideal().Round(10*time.Millisecond), x,
		(wall - enqueuing).Round(10*time.Millisecond), float64(wall-enqueuing)/float64(o.ideal()),
		cpu.Seconds(), fake.Requests(), r.outcomeText(), target)
	return nil
}

// gavelCmd is the gavel binary with args in dir.
func gavelCmd(ctx context.Context, bin, dir string, env []string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir, cmd.Env = dir, env
	return cmd
}
