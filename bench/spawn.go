package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"
)

// Gavel runs in a child of a small process, the spawner, not of the
// harness itself. On Linux a child's peak RSS (ru_maxrss) counts the
// memory of the process it was started from: exec after vfork keeps the
// old address space's high-water mark. Started from the harness, whose
// fake server keeps every request, a gavel that peaks at 25 MB showed the
// harness's 35 or more. The spawner is this program again, started before
// the harness grows (about 8 MB), taking jobs on stdin and answering
// measurements on stdout, a JSON line each.

// A process is what one run of the gavel binary cost, as the kernel
// counted it.
type process struct {
	Wall    time.Duration
	CPU     time.Duration // user + system
	PeakRSS int64         // bytes; 0 where the system does not say
	Exit    int
	// Started and Ended are when the process was started and when its
	// exit was seen, by the wall clock the harness's fake server also
	// reads (a child of the spawner, on the same machine).
	Started, Ended time.Time
}

// A job is one run of the gavel binary: Bin with Args in Dir, with Env as
// its whole environment, its output to Dir/gavel.out.
type job struct {
	Bin  string
	Dir  string
	Env  []string
	Args []string
}

// spawnerEnv marks the spawner's environment.
const spawnerEnv = "GAVEL_BENCH_SPAWNER"

// A spawner runs jobs in a process of its own.
type spawner struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *json.Decoder

	mu sync.Mutex // one job at a time
}

// A spawned is a job's outcome, as the spawner sends it.
type spawned struct {
	Process process
	Err     string
}

// startSpawner starts this program as a spawner.
func startSpawner() (*spawner, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("start the spawner: %w", err)
	}
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), spawnerEnv+"=1")
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start the spawner: %w", err)
	}
	return &spawner{cmd: cmd, in: in, out: json.NewDecoder(out)}, nil
}

// run has the spawner run j and measure it. A failure to start gavel is
// an error, a non-zero exit is not (see process.Exit).
func (s *spawner) run(ctx context.Context, j job) (process, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return process{}, err
	}
	line, err := json.Marshal(j)
	if err != nil {
		return process{}, err
	}
	if _, err := s.in.Write(append(line, '\n')); err != nil {
		return process{}, fmt.Errorf("the spawner: %w", err)
	}
	var r spawned
	if err := s.out.Decode(&r); err != nil {
		return process{}, fmt.Errorf("the spawner: %w", err)
	}
	if r.Err != "" {
		return process{}, errors.New(r.Err)
	}
	return r.Process, nil
}

// close stops the spawner: it ends when its input does.
func (s *spawner) close() error {
	s.in.Close()
	return s.cmd.Wait()
}

// serveSpawner is the spawner's main loop: a job per line of stdin, a
// measurement per line of stdout, until stdin ends.
func serveSpawner() error {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 0, 64<<10), 16<<20)
	out := json.NewEncoder(os.Stdout)
	for in.Scan() {
		var j job
		var r spawned
		if err := json.Unmarshal(in.Bytes(), &j); err != nil {
			r.Err = err.Error()
		} else if r.Process, err = measureJob(j); err != nil {
			r.Err = err.Error()
		}
		if err := out.Encode(r); err != nil {
			return err
		}
	}
	return in.Err()
}

// measureJob runs j and measures it.
func measureJob(j job) (process, error) {
	out, err := os.Create(filepath.Join(j.Dir, "gavel.out"))
	if err != nil {
		return process{}, err
	}
	defer out.Close()
	cmd := exec.Command(j.Bin, j.Args...)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = j.Dir, j.Env, out, out
	start := time.Now()
	err = cmd.Run()
	ended := time.Now()
	wall := ended.Sub(start)
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		return process{}, fmt.Errorf("run gavel: %w", err)
	}
	ps := cmd.ProcessState
	return process{Wall: wall, CPU: ps.UserTime() + ps.SystemTime(), PeakRSS: peakRSS(ps), Exit: ps.ExitCode(),
		Started: start, Ended: ended}, nil
}
