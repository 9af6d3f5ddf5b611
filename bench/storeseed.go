package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/store"
)

// A seeded is what seeding wrote, and how fast.
type seeded struct {
	Runs   []seededRun // in the order they started
	Trials int
	// Elapsed is the time from the first CreateRun to the last FinishRun.
	Elapsed time.Duration
	// FirstTenth and LastTenth are the trials per second over the first
	// and the last tenth of the trials: whether writing slows down as the
	// store grows.
	FirstTenth, LastTenth float64
	// The calls' latencies, sorted.
	Create, Save, Finish []time.Duration
}

// A seededRun is a run of the seeded history, for the reads to pick from.
type seededRun struct {
	ID      string
	Suite   string
	Branch  string
	Status  store.Status
	Started time.Time
}

// rate returns the trials written per second.
func (s *seeded) rate() float64 { return float64(s.Trials) / s.Elapsed.Seconds() }

// saveCases saves the generated suites' cases, as gavel run does before
// a run, and returns their keys by suite and case id.
func saveCases(ctx context.Context, s store.Store, cases int) (map[string]map[string]int64, error) {
	keys := map[string]map[string]int64{}
	for _, suite := range benchSuites {
		keys[suite.Name] = map[string]int64{}
		for c := range cases {
			v, err := s.SaveCase(ctx, caseDef(suite.Name, benchCase(suite.Name, c)))
			if err != nil {
				return nil, err
			}
			keys[suite.Name][v.ID] = v.Key
		}
	}
	return keys, nil
}

// A liveRun is a run being written: the writer that saves its last trial
// finishes it.
type liveRun struct {
	id     string
	run    *gavel.Run
	status store.Status
	left   atomic.Int64
}

type trialJob struct {
	run *liveRun
	rec store.TrialRecord
}

// seed writes runs runs of trialsPerRun trials each through the store's
// API, as gavel run does: CreateRun, SaveTrial from writers goroutines
// as the trials finish, FinishRun with the run whole. It prints its
// progress to progress (nil: nowhere) every progressEvery, as name's.
func seed(ctx context.Context, s store.Store, runs, trialsPerRun, writers int, progress io.Writer, name string) (*seeded, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	keys, err := saveCases(ctx, s, casesPerRun(trialsPerRun))
	if err != nil {
		return nil, fmt.Errorf("save the cases: %w", err)
	}
	total := int64(runs * trialsPerRun)
	out := &seeded{Runs: make([]seededRun, runs), Trials: int(total)}
	var (
		done       atomic.Int64
		t10, t90   atomic.Int64 // when a tenth, and nine tenths, were written (ns since start)
		jobs       = make(chan trialJob)
		wg         sync.WaitGroup
		saves      = make([][]time.Duration, writers)
		finishes   = make([][]time.Duration, writers)
		start      = time.Now()
		tenth      = max(1, total/10)
		ninetenths = total - tenth
	)
	for w := range writers {
		wg.Go(func() {
			saves[w] = make([]time.Duration, 0, total/int64(writers)+1)
			for j := range jobs {
				t0 := time.Now()
				if err := s.SaveTrial(ctx, j.run.id, j.rec); err != nil {
					cancel(err)
					continue // drain
				}
				saves[w] = append(saves[w], time.Since(t0))
				switch n := done.Add(1); n {
				case tenth:
					t10.Store(int64(time.Since(start)))
				case ninetenths:
					t90.Store(int64(time.Since(start)))
				}
				if j.run.left.Add(-1) > 0 {
					continue
				}
				t0 = time.Now()
				if err := s.FinishRun(ctx, j.run.id, store.RunEnd{Status: j.run.status, Ended: j.run.run.Started.Add(j.run.run.Duration), Run: j.run.run}); err != nil {
					cancel(err)
					continue
				}
				finishes[w] = append(finishes[w], time.Since(t0))
			}
		})
	}
	stopProgress := reportProgress(progress, name, start, &done, total, trialsPerRun)

	// The producer: a run at a time, its trials handed to the writers as
	// they take them.
	err = func() error {
		defer close(jobs)
		for i := range runs {
			p := planRun(i)
			info := p.info()
			run, trials, status := p.build(trialsPerRun)
			t0 := time.Now()
			created, err := s.CreateRun(ctx, info)
			if err != nil {
				return err
			}
			out.Create = append(out.Create, time.Since(t0))
			out.Runs[i] = seededRun{ID: created.ID, Suite: info.Suite, Branch: info.GitBranch, Status: status, Started: created.Started}
			live := &liveRun{id: created.ID, run: run, status: status}
			live.left.Store(int64(len(trials)))
			for _, t := range trials {
				select {
				case jobs <- trialJob{live, store.TrialRecord{CaseKey: keys[info.Suite][t.CaseID], Trial: t}}:
				case <-ctx.Done():
					return context.Cause(ctx)
				}
			}
		}
		return nil
	}()
	wg.Wait()
	out.Elapsed = time.Since(start)
	stopProgress()
	if err == nil {
		err = context.Cause(ctx)
	}
	if err != nil {
		return nil, fmt.Errorf("seed: %w", err)
	}
	out.Save, out.Finish = slices.Concat(saves...), slices.Concat(finishes...)
	for _, d := range [][]time.Duration{out.Create, out.Save, out.Finish} {
		slices.Sort(d)
	}
	if at := time.Duration(t10.Load()); at > 0 {
		out.FirstTenth = float64(tenth) / at.Seconds()
	}
	if at := time.Duration(t90.Load()); at > 0 && at < out.Elapsed {
		out.LastTenth = float64(total-ninetenths) / (out.Elapsed - at).Seconds()
	}
	return out, nil
}

// progressEvery is how often seeding says how far it got.
var progressEvery = 10 * time.Second

// reportProgress prints, every progressEvery, how many of total trials
// are written and at what rate, until the function it returns is called.
func reportProgress(w io.Writer, name string, start time.Time, done *atomic.Int64, total int64, trialsPerRun int) (stop func()) {
	if w == nil {
		return func() {}
	}
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(progressEvery)
		defer tick.Stop()
		last, lastAt := int64(0), start
		for {
			select {
			case <-quit:
				return
			case now := <-tick.C:
				n := done.Load()
				fmt.Fprintf(w, "bench: %s: %3.0f%%, %d of %d trials (%d runs) in %s, %.0f trials/s now, %.0f overall\n",
					name, 100*float64(n)/float64(total), n, total, n/int64(trialsPerRun), now.Sub(start).Round(time.Second),
					float64(n-last)/now.Sub(lastAt).Seconds(), float64(n)/now.Sub(start).Seconds())
				last, lastAt = n, now
			}
		}
	})
	return func() { close(quit); wg.Wait() }
}

// A paced is the latency of SaveTrial in a run like a real one with
// Writers trials in flight, each saved after ModelTime.
type paced struct {
	Writers   int
	ModelTime time.Duration
	Trials    int
	// Rate is the trials saved per second, from the first trial due to
	// the last saved.
	Rate float64
	// Save holds SaveTrial's latencies, sorted; Finish is FinishRun's.
	Save   []time.Duration
	Finish time.Duration
}

// needed is the rate of trials a run of writers trials in flight, each
// taking modelTime, produces.
func needed(writers int, modelTime time.Duration) float64 {
	return float64(writers) / modelTime.Seconds()
}

// pace writes one more run into the store (the history's run index), as
// a gavel run with writers trials in flight whose every trial takes
// modelTime of model calls: each writer saves a trial every modelTime,
// perWriter times, the writers' schedules spread evenly over modelTime,
// so that about writers/modelTime trials are saved each second. It
// measures how long SaveTrial takes meanwhile: the store keeps up when
// that is small beside modelTime.
func pace(ctx context.Context, s store.Store, index, writers, perWriter int, modelTime time.Duration, trialsPerRun int) (*paced, error) {
	cases := casesPerRun(trialsPerRun)
	keys, err := saveCases(ctx, s, cases)
	if err != nil {
		return nil, fmt.Errorf("save the cases: %w", err)
	}
	p := planRun(index) // the run after the history's last
	p.Errored, p.Interrupted, p.Started = false, false, time.Now()
	info := p.info()
	created, err := s.CreateRun(ctx, info)
	if err != nil {
		return nil, err
	}
	out := &paced{Writers: writers, ModelTime: modelTime, Trials: writers * perWriter}
	run := &gavel.Run{Suite: &gavel.Suite{Name: info.Suite, Threshold: benchThreshold}, Started: info.Started}
	results := map[string]*gavel.CaseResult{}
	var order []string
	var mu sync.Mutex
	saves := make([][]time.Duration, writers)
	errs := make([]error, writers)
	start := time.Now()
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			offset := modelTime * time.Duration(w) / time.Duration(writers)
			for k := range perWriter {
				i := w*perWriter + k
				c := benchCase(info.Suite, i%cases)
				mu.Lock()
				t := p.trial(c, i/cases+1)
				mu.Unlock()
				due := start.Add(offset + time.Duration(k+1)*modelTime)
				select {
				case <-time.After(time.Until(due)):
				case <-ctx.Done():
					errs[w] = ctx.Err()
					return
				}
				t0 := time.Now()
				if err := s.SaveTrial(ctx, created.ID, store.TrialRecord{CaseKey: keys[info.Suite][c.ID], Trial: t}); err != nil {
					errs[w] = err
					return
				}
				saves[w] = append(saves[w], time.Since(t0))
				mu.Lock()
				r := results[c.ID]
				if r == nil {
					r = &gavel.CaseResult{Case: c}
					results[c.ID] = r
					order = append(order, c.ID)
				}
				r.Trials = append(r.Trials, t)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("save trials: %w", err)
	}
	// The first trials were due a model time after the start.
	out.Rate = float64(out.Trials) / (time.Since(start) - modelTime).Seconds()
	out.Save = slices.Concat(saves...)
	slices.Sort(out.Save)
	slices.Sort(order)
	for _, id := range order {
		r := results[id]
		slices.SortFunc(r.Trials, func(a, b gavel.Trial) int { return a.N - b.N })
		r.Summarize()
		run.Cases = append(run.Cases, *r)
	}
	run.Duration = time.Since(start)
	t0 := time.Now()
	if err := s.FinishRun(ctx, created.ID, store.RunEnd{Status: store.Passed, Run: run}); err != nil {
		return nil, err
	}
	out.Finish = time.Since(t0)
	return out, nil
}
