package jury

import (
	"context"
	"errors"
	"math"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gavelhq/gavel/judge"
	"github.com/google/go-cmp/cmp"
)

// hang bounds every wait that would otherwise hang a failing test.
const hang = 10 * time.Second

func mustNew(t *testing.T, c Config) *Jury {
	t.Helper()
	j, err := New(c)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return j
}

// jurors returns n jurors that always pass.
func jurors(n int) []judge.Judge {
	js := make([]judge.Judge, n)
	for i := range js {
		js[i] = fixed(pass)
	}
	return js
}

func TestNewErrors(t *testing.T) {
	two := jurors(2)
	cases := []struct {
		name string
		c    Config
		want string
	}{
		{"no jurors", Config{}, "jury: no jurors given: set Config.Jurors"},
		{"no jurors, named jury", Config{Name: "tone"}, `jury "tone": no jurors given: set Config.Jurors`},
		{"nil juror", Config{Jurors: []judge.Judge{fixed(pass), nil, fixed(pass)}}, "jury: juror 2 is nil"},
		{
			"unknown strategy, a typo",
			Config{Jurors: two, Strategy: "majorty"},
			`jury: unknown strategy "majorty": want one of majority, consensus, average, weighted_average, median (did you mean "majority"?)`,
		},
		{
			"unknown strategy, wrong case",
			Config{Jurors: two, Strategy: "Weighted-Average"},
			`jury: unknown strategy "Weighted-Average": want one of majority, consensus, average, weighted_average, median (did you mean "weighted_average"?)`,
		},
		{
			"unknown strategy, nothing close",
			Config{Jurors: two, Strategy: "vibes"},
			`jury: unknown strategy "vibes": want one of majority, consensus, average, weighted_average, median`,
		},
		{
			"unknown tie policy",
			Config{Jurors: two, Ties: "pas"},
			`jury: unknown tie policy "pas": want one of fail, pass, abstain (did you mean "pass"?)`,
		},
		{
			"unknown error policy",
			Config{Jurors: two, Errors: "ignored"},
			`jury: unknown error policy "ignored": want one of error, fail, ignore (did you mean "ignore"?)`,
		},
		{
			"tie policy for a strategy without ties",
			Config{Jurors: two, Strategy: Average, Ties: TiePass},
			`jury: tie policy "pass" set for strategy average: only majority has ties to settle; remove Ties`,
		},
		{
			"weights for another strategy",
			Config{Jurors: two, Strategy: Average, Weights: []float64{1, 2}},
			"jury: weights given for strategy average: only weighted_average uses weights; remove Weights or set Strategy to weighted_average",
		},
		{
			"weights for the default strategy",
			Config{Jurors: two, Weights: []float64{1, 2}},
			"jury: weights given for strategy majority: only weighted_average uses weights; remove Weights or set Strategy to weighted_average",
		},
		{
			"weighted average without weights",
			Config{Jurors: two, Strategy: WeightedAverage},
			"jury: strategy weighted_average needs weights: set Weights, one per juror (2)",
		},
		{
			"more weights than jurors",
			Config{Jurors: two, Strategy: WeightedAverage, Weights: []float64{1, 2, 3}},
			"jury: 3 weights for 2 jurors: give one weight per juror",
		},
		{
			"fewer weights than jurors",
			Config{Jurors: jurors(3), Strategy: WeightedAverage, Weights: []float64{1}},
			"jury: 1 weights for 3 jurors: give one weight per juror",
		},
		{
			"negative weight",
			Config{Jurors: two, Strategy: WeightedAverage, Weights: []float64{1, -1}},
			"jury: weight 2 is -1: weights must be finite and not negative",
		},
		{
			"NaN weight",
			Config{Jurors: two, Strategy: WeightedAverage, Weights: []float64{math.NaN(), 1}},
			"jury: weight 1 is NaN: weights must be finite and not negative",
		},
		{
			"infinite weight",
			Config{Jurors: two, Strategy: WeightedAverage, Weights: []float64{1, math.Inf(1)}},
			"jury: weight 2 is +Inf: weights must be finite and not negative",
		},
		{
			"weights adding up to zero",
			Config{Jurors: two, Strategy: WeightedAverage, Weights: []float64{0, 0}},
			"jury: the weights add up to zero: give at least one juror a positive weight",
		},
		{
			"NaN threshold",
			Config{Jurors: two, Strategy: Average, Threshold: new(math.NaN())},
			"jury: threshold NaN must lie in [0, 1]; leave it unset for the default 0.5",
		},
		{
			"negative threshold",
			Config{Jurors: two, Strategy: Median, Threshold: new(-0.1)},
			"jury: threshold -0.1 must lie in [0, 1]; leave it unset for the default 0.5",
		},
		{
			"threshold above 1",
			Config{Jurors: two, Strategy: WeightedAverage, Weights: []float64{1, 1}, Threshold: new(1.5)},
			"jury: threshold 1.5 must lie in [0, 1]; leave it unset for the default 0.5",
		},
		{
			"threshold for a strategy that counts votes",
			Config{Jurors: two, Threshold: new(0.8)},
			"jury: threshold 0.8 set for strategy majority: only average, weighted_average and median compare with a threshold; remove Threshold, or for a stricter vote use consensus",
		},
		{
			"negative MaxConcurrent",
			Config{Jurors: two, MaxConcurrent: -1},
			"jury: MaxConcurrent -1 is negative; leave it 0 to let every juror judge at once",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			j, err := New(tc.c)
			if err == nil {
				t.Fatalf("got a jury (%+v), want error %q", j.c, tc.want)
			}
			if got := err.Error(); got != tc.want {
				t.Errorf("got error  %q\nwant error %q", got, tc.want)
			}
		})
	}
}

func TestNewDefaults(t *testing.T) {
	cases := []struct {
		name string
		c    Config
		want Config // Jurors and Weights left out
	}{
		{
			name: "majority",
			c:    Config{Jurors: jurors(3)},
			want: Config{Name: "jury", Strategy: Majority, Ties: TieFail, Errors: ErrorsAsVerdict, MaxConcurrent: 3},
		},
		{
			name: "average",
			c:    Config{Name: "tone", Jurors: jurors(2), Strategy: Average, Errors: ErrorsIgnored, MaxConcurrent: 1},
			want: Config{Name: "tone", Strategy: Average, Threshold: new(0.5), Ties: TieFail, Errors: ErrorsIgnored, MaxConcurrent: 1},
		},
		{
			name: "threshold of 1",
			c:    Config{Jurors: jurors(2), Strategy: Median, Threshold: new(1.0)},
			want: Config{Name: "jury", Strategy: Median, Threshold: new(1.0), Ties: TieFail, Errors: ErrorsAsVerdict, MaxConcurrent: 2},
		},
		{
			name: "MaxConcurrent above the number of jurors",
			c:    Config{Jurors: jurors(2), MaxConcurrent: 10},
			want: Config{Name: "jury", Strategy: Majority, Ties: TieFail, Errors: ErrorsAsVerdict, MaxConcurrent: 2},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := mustNew(t, tc.c).c
			got.Jurors, got.Weights = nil, nil
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("config (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNewCopiesSlices(t *testing.T) {
	js := []judge.Judge{fixed(pass), fixed(fail)}
	weights := []float64{3, 1}
	j := mustNew(t, Config{Jurors: js, Strategy: WeightedAverage, Weights: weights})
	js[0], weights[0] = fixed(fail), 0

	got, err := j.Judge(context.Background(), &judge.Transcript{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != judge.StatusPass || got.Score.Normalized() != 0.75 {
		t.Errorf("got %s with score %v, want PASS with 0.75: the caller's slices changed the jury", got.Status, got.Score)
	}
}

func TestJudge(t *testing.T) {
	named := func(name string, j judge.Judgment) judge.Judge {
		j.Name = name
		return fixed(j)
	}
	j := mustNew(t, Config{Name: "tone", Jurors: []judge.Judge{
		named("polite", pass),
		fixed(abstain),
		named("concise", fail),
		named("kind", pass),
	}})
	got, err := j.Judge(context.Background(), &judge.Transcript{})
	if err != nil {
		t.Fatal(err)
	}
	want := outcome{judge.StatusPass, "0.667", "majority", "majority: 2 pass, 1 fail, 1 abstained → PASS"}
	if diff := cmp.Diff(want, outcomeOf(got)); diff != "" {
		t.Errorf("verdict (-want +got):\n%s", diff)
	}
	if got.Name != "tone" {
		t.Errorf("name: got %q, want %q", got.Name, "tone")
	}
	var names []string
	for _, p := range got.Parts {
		names = append(names, p.Name)
	}
	if diff := cmp.Diff([]string{"polite", "juror 2", "concise", "kind"}, names); diff != "" {
		t.Errorf("parts (-want +got):\n%s", diff)
	}
}

func TestJurorsGetTheContext(t *testing.T) {
	finding := judge.Finding{Judge: "length", Message: "4 paragraphs"}
	var got atomic.Int32
	juror := judge.Func(func(ctx context.Context, _ *judge.Transcript) (judge.Judgment, error) {
		if fs := judge.FindingsFrom(ctx); len(fs) == 1 && fs[0] == finding {
			got.Add(1)
		}
		return pass, nil
	})
	j := mustNew(t, Config{Jurors: []judge.Judge{juror, juror}})
	if _, err := j.Judge(judge.WithFindings(context.Background(), finding), &judge.Transcript{}); err != nil {
		t.Fatal(err)
	}
	if got.Load() != 2 {
		t.Errorf("%d of 2 jurors saw the context's findings, want 2", got.Load())
	}
}

func TestJurorsJudgeAtOnce(t *testing.T) {
	const n = 3
	// A barrier: no juror returns before all n have started.
	var arrived sync.WaitGroup
	arrived.Add(n)
	all := make(chan struct{})
	go func() { arrived.Wait(); close(all) }()
	juror := judge.Func(func(ctx context.Context, _ *judge.Transcript) (judge.Judgment, error) {
		arrived.Done()
		select {
		case <-all:
			return pass, nil
		case <-ctx.Done():
			return judge.Judgment{}, ctx.Err()
		}
	})

	ctx, cancel := context.WithTimeout(context.Background(), hang)
	defer cancel()
	j := mustNew(t, Config{Jurors: []judge.Judge{juror, juror, juror}})
	got, err := j.Judge(ctx, &judge.Transcript{})
	if err != nil {
		t.Fatalf("got error %v, want the %d jurors to meet at the barrier", err, n)
	}
	if got.Status != judge.StatusPass {
		t.Errorf("got %s (%s), want PASS", got.Status, got.Reasoning)
	}
}

func TestMaxConcurrent(t *testing.T) {
	for _, limit := range []int{1, 2} {
		t.Run(map[int]string{1: "one at a time", 2: "two at a time"}[limit], func(t *testing.T) {
			var inFlight, most atomic.Int32
			var mu sync.Mutex
			var order []int
			juror := func(i int) judge.Judge {
				return judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) {
					n := inFlight.Add(1)
					defer inFlight.Add(-1)
					for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
					}
					mu.Lock()
					order = append(order, i)
					mu.Unlock()
					time.Sleep(time.Millisecond) // room for a wrongly started juror to overlap
					return pass, nil
				})
			}
			var js []judge.Judge
			for i := range 5 {
				js = append(js, juror(i+1))
			}
			j := mustNew(t, Config{Jurors: js, MaxConcurrent: limit})
			if _, err := j.Judge(context.Background(), &judge.Transcript{}); err != nil {
				t.Fatal(err)
			}
			if got := int(most.Load()); got > limit {
				t.Errorf("max jurors in flight: got %d, want at most %d", got, limit)
			}
			if limit == 1 {
				if diff := cmp.Diff([]int{1, 2, 3, 4, 5}, order); diff != "" {
					t.Errorf("order the jurors ran in (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestCancel(t *testing.T) {
	cases := []struct {
		name          string
		maxConcurrent int
		deadline      bool // a deadline ends the context, not a cancel once the stubborn juror runs
		wantErr       error
	}{
		{"cancel", 0, false, context.Canceled},
		{"cancel with jurors waiting for a slot", 1, false, context.Canceled},
		{"deadline", 0, true, context.DeadlineExceeded},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			started, release, done := make(chan struct{}), make(chan struct{}), make(chan struct{})
			// stubborn blocks until released, ignoring its context.
			stubborn := judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) {
				defer close(done)
				close(started)
				<-release
				return pass, nil
			})
			// Let the stubborn juror finish after Judge returned: its late
			// result must neither block nor race (go test -race).
			goroutines := runtime.NumGoroutine()
			defer func() {
				close(release)
				select {
				case <-started:
					<-done
				default: // never started; if it starts now, it returns at once
				}
				waitForGoroutines(t, goroutines)
			}()

			ctx, cancel := context.WithCancel(context.Background())
			if tc.deadline {
				cancel()
				ctx, cancel = context.WithTimeout(context.Background(), 20*time.Millisecond)
			}
			defer cancel()
			j := mustNew(t, Config{Jurors: []judge.Judge{stubborn, fixed(pass), fixed(pass)}, MaxConcurrent: tc.maxConcurrent})
			errc := make(chan error, 1)
			go func() {
				_, err := j.Judge(ctx, &judge.Transcript{})
				errc <- err
			}()

			if !tc.deadline {
				select {
				case <-started:
				case <-time.After(hang):
					t.Fatal("the stubborn juror never started")
				}
				cancel()
			}
			select {
			case err := <-errc:
				if !errors.Is(err, tc.wantErr) {
					t.Errorf("got error %v, want %v", err, tc.wantErr)
				}
			case <-time.After(hang):
				t.Fatalf("Judge did not return within %v of the context ending", hang)
			}
		})
	}
}

// waitForGoroutines waits until at most n goroutines run, and reports the
// jury's goroutines that are stuck (a late result that cannot be sent) if
// it does not happen within hang.
func waitForGoroutines(t *testing.T, n int) {
	t.Helper()
	for deadline := time.Now().Add(hang); runtime.NumGoroutine() > n; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Errorf("%d goroutines still running after the stubborn juror returned, want at most %d: the jury's goroutines are stuck", runtime.NumGoroutine(), n)
			return
		}
	}
}

// A jury that gives up when its context ends still returns what its
// jurors spent until then, an erring juror's tokens included, so that
// judge.Run counts them.
func TestCancelKeepsTheUsageOfJurorsThatAnswered(t *testing.T) {
	spent := judge.Usage{InputTokens: 100, OutputTokens: 10, CostUSD: 0.25}
	spender := fixed(judge.Judgment{Status: judge.StatusPass, Score: judge.Bool(true), Usage: spent})
	erring := judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) {
		return judge.Judgment{Usage: spent}, errors.New("malformed answers")
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	release := make(chan struct{})
	defer close(release)
	// stubborn ends the context (the trial's time ran out) and ignores it.
	stubborn := judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) {
		cancel()
		<-release
		return pass, nil
	})
	// One juror at a time: the first two have answered when the third runs.
	j := mustNew(t, Config{Name: "tone", Jurors: []judge.Judge{spender, erring, stubborn}, MaxConcurrent: 1})
	got := judge.Run(ctx, j, &judge.Transcript{})
	want := judge.Usage{InputTokens: 200, OutputTokens: 20, CostUSD: 0.5}
	if got.Status != judge.StatusError || got.Usage != want {
		t.Errorf("got %s with usage %+v, want ERROR with usage %+v (reasoning: %s)", got.Status, got.Usage, want, got.Reasoning)
	}
}

func TestCancelledBeforeJudging(t *testing.T) {
	var called atomic.Bool
	juror := judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) {
		called.Store(true)
		return pass, nil
	})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := mustNew(t, Config{Jurors: []judge.Judge{juror}}).Judge(ctx, &judge.Transcript{})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("got error %v, want %v", err, context.Canceled)
	}
	if called.Load() {
		t.Error("a juror was called with a context already cancelled")
	}
}

func TestBrokenJurors(t *testing.T) {
	panicky := judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) {
		panic("boom")
	})
	failing := judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) {
		return judge.Judgment{}, errors.New("provider down")
	})
	cases := []struct {
		name       string
		juror      judge.Judge
		errors     ErrorPolicy
		wantPart   string // the start of the broken juror's reasoning
		wantResult outcome
	}{
		{
			name: "panic", juror: panicky, wantPart: "judge panicked: boom\n",
			wantResult: outcome{judge.StatusError, "", "majority (errors: error)", "1 of 3 jurors could not judge: juror 2: judge panicked: boom"},
		},
		{
			name: "panic, errors ignored", juror: panicky, errors: ErrorsIgnored, wantPart: "judge panicked: boom\n",
			wantResult: outcome{judge.StatusPass, "1.000", "majority", "majority: 2 pass, 0 fail, 1 errored (ignored) → PASS"},
		},
		{
			name: "error", juror: failing, wantPart: "provider down",
			wantResult: outcome{judge.StatusError, "", "majority (errors: error)", "1 of 3 jurors could not judge: juror 2: provider down"},
		},
		{
			name: "error, errors as fail", juror: failing, errors: ErrorsAsFail, wantPart: "provider down",
			wantResult: outcome{judge.StatusPass, "0.667", "majority", "majority: 2 pass, 1 fail (1 errored, counted as fail) → PASS"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			j := mustNew(t, Config{Jurors: []judge.Judge{fixed(pass), tc.juror, fixed(pass)}, Errors: tc.errors})
			got, err := j.Judge(context.Background(), &judge.Transcript{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.wantResult, outcomeOf(got)); diff != "" {
				t.Errorf("verdict (-want +got):\n%s", diff)
			}
			if len(got.Parts) != 3 {
				t.Fatalf("got %d parts, want 3", len(got.Parts))
			}
			for _, i := range []int{0, 2} {
				if p := got.Parts[i]; p.Status != judge.StatusPass || p.Reasoning != pass.Reasoning {
					t.Errorf("part %d: got %s %q, want the sibling's PASS %q kept", i+1, p.Status, p.Reasoning, pass.Reasoning)
				}
			}
			broken := got.Parts[1]
			if broken.Status != judge.StatusError || !strings.HasPrefix(broken.Reasoning, tc.wantPart) {
				t.Errorf("broken part: got %s %q, want ERROR starting %q", broken.Status, broken.Reasoning, tc.wantPart)
			}
		})
	}
}

func TestNested(t *testing.T) {
	costly := pass
	costly.Usage = judge.Usage{InputTokens: 1000, OutputTokens: 50, CostUSD: 0.01}
	inner := mustNew(t, Config{Name: "inner", Jurors: []judge.Judge{fixed(costly), fixed(costly), fixed(fail)}})
	outer := mustNew(t, Config{Name: "outer", Strategy: Consensus, Jurors: []judge.Judge{inner, fixed(costly)}})

	got, err := outer.Judge(context.Background(), &judge.Transcript{})
	if err != nil {
		t.Fatal(err)
	}
	want := outcome{judge.StatusPass, "1.000", "consensus", "consensus: 2 pass, 0 fail → PASS"}
	if diff := cmp.Diff(want, outcomeOf(got)); diff != "" {
		t.Errorf("outer verdict (-want +got):\n%s", diff)
	}
	if len(got.Parts) != 2 {
		t.Fatalf("got %d parts, want 2", len(got.Parts))
	}
	in := got.Parts[0]
	wantInner := outcome{judge.StatusPass, "0.667", "majority", "majority: 2 pass, 1 fail → PASS"}
	if diff := cmp.Diff(wantInner, outcomeOf(in)); diff != "" {
		t.Errorf("inner verdict (-want +got):\n%s", diff)
	}
	if in.Name != "inner" || len(in.Parts) != 3 {
		t.Errorf("inner part: got %q with %d parts, want %q with 3", in.Name, len(in.Parts), "inner")
	}
	wantUsage := judge.Usage{InputTokens: 3000, OutputTokens: 150, CostUSD: 0.03}
	if diff := cmp.Diff(wantUsage, got.Usage, cmp.Comparer(func(a, b float64) bool { return math.Abs(a-b) < 1e-12 })); diff != "" {
		t.Errorf("usage (-want +got):\n%s", diff)
	}
}
