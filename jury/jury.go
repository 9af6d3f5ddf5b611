package jury

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/gavelhq/gavel/internal/suggest"
	"github.com/gavelhq/gavel/judge"
)

// Config configures a Jury. Only Jurors is required.
type Config struct {
	// Name is the jury's name in reports. Defaults to "jury".
	Name string

	// Jurors are the judges that vote, in the order reports list them. A
	// juror may itself be a Jury.
	Jurors []judge.Judge

	// Strategy turns the votes into a verdict. Defaults to Majority.
	Strategy Strategy

	// Weights are the jurors' weights under WeightedAverage, one per juror
	// in juror order: finite, not negative, not all zero. Other strategies
	// take no weights.
	Weights []float64

	// Threshold is the value that Average, WeightedAverage and Median must
	// reach to pass; it must lie in [0, 1] (0: every value passes, so the
	// jury records its value without gating). Defaults to 0.5 when nil.
	// Majority and Consensus take no threshold.
	Threshold *float64

	// Ties settles a Majority vote with as many passes as fails. Defaults
	// to TieFail. Other strategies have no ties to settle and take no tie
	// policy.
	Ties TiePolicy

	// Errors says how a juror that could not judge counts. Defaults to
	// ErrorsAsVerdict.
	Errors ErrorPolicy

	// MaxConcurrent is how many jurors judge at once; they start in juror
	// order. Defaults to all of them (zero).
	MaxConcurrent int
}

// A Jury is a judge that combines the judgments of its jurors into one
// verdict by a Strategy. Build one with New; it is safe for concurrent use.
type Jury struct {
	c Config // validated, with defaults filled in and its slices copied
}

var _ judge.Judge = (*Jury)(nil)

// New returns a jury configured by c. It is an error, reported now and
// never while judging, for c to name no jurors or a nil one, an unknown
// strategy or policy, weights that do not fit the strategy or the jurors,
// a threshold outside [0, 1], a setting its strategy does not use, or a
// negative MaxConcurrent.
func New(c Config) (*Jury, error) {
	c, err := c.complete()
	if err != nil {
		prefix := "jury"
		if c.Name != "jury" {
			prefix = fmt.Sprintf("jury %q", c.Name)
		}
		return nil, fmt.Errorf("%s: %w", prefix, err)
	}
	return &Jury{c: c}, nil
}

// complete validates c and returns it with the defaults filled in. Its
// Name is filled in even when it returns an error.
func (c Config) complete() (Config, error) {
	if c.Name == "" {
		c.Name = "jury"
	}
	if len(c.Jurors) == 0 {
		return c, errors.New("no jurors given: set Config.Jurors")
	}
	for i, j := range c.Jurors {
		if j == nil {
			return c, fmt.Errorf("juror %d is nil", i+1)
		}
	}
	c.Jurors = append([]judge.Judge(nil), c.Jurors...)

	if c.Strategy == "" {
		c.Strategy = Majority
	}
	if !slices.Contains(strategies, c.Strategy) {
		return c, unknown("strategy", c.Strategy, strategies)
	}
	if c.Ties != "" && !slices.Contains(tiePolicies, c.Ties) {
		return c, unknown("tie policy", c.Ties, tiePolicies)
	}
	if c.Errors == "" {
		c.Errors = ErrorsAsVerdict
	}
	if !slices.Contains(errorPolicies, c.Errors) {
		return c, unknown("error policy", c.Errors, errorPolicies)
	}

	if c.Ties != "" && c.Strategy != Majority {
		return c, fmt.Errorf("tie policy %q set for strategy %s: only majority has ties to settle; remove Ties", c.Ties, c.Strategy)
	}
	if c.Ties == "" {
		c.Ties = TieFail
	}

	if err := c.checkWeights(); err != nil {
		return c, err
	}
	c.Weights = append([]float64(nil), c.Weights...)

	switch c.Strategy {
	case Average, WeightedAverage, Median:
		if c.Threshold == nil {
			c.Threshold = new(0.5)
		}
		if t := *c.Threshold; math.IsNaN(t) || t < 0 || t > 1 {
			return c, fmt.Errorf("threshold %v must lie in [0, 1]; leave it unset for the default 0.5", t)
		}
		c.Threshold = new(*c.Threshold) // a copy: the caller's variable may change
	default:
		if c.Threshold != nil {
			return c, fmt.Errorf("threshold %v set for strategy %s: only average, weighted_average and median compare with a threshold; remove Threshold, or for a stricter vote use consensus", *c.Threshold, c.Strategy)
		}
	}

	if c.MaxConcurrent < 0 {
		return c, fmt.Errorf("MaxConcurrent %d is negative; leave it 0 to let every juror judge at once", c.MaxConcurrent)
	}
	if c.MaxConcurrent == 0 || c.MaxConcurrent > len(c.Jurors) {
		c.MaxConcurrent = len(c.Jurors)
	}
	return c, nil
}

func (c Config) checkWeights() error {
	if c.Strategy != WeightedAverage {
		if len(c.Weights) > 0 {
			return fmt.Errorf("weights given for strategy %s: only weighted_average uses weights; remove Weights or set Strategy to weighted_average", c.Strategy)
		}
		return nil
	}
	if len(c.Weights) == 0 {
		return fmt.Errorf("strategy weighted_average needs weights: set Weights, one per juror (%d)", len(c.Jurors))
	}
	if len(c.Weights) != len(c.Jurors) {
		return fmt.Errorf("%d weights for %d jurors: give one weight per juror", len(c.Weights), len(c.Jurors))
	}
	var total float64
	for i, w := range c.Weights {
		if math.IsNaN(w) || math.IsInf(w, 0) || w < 0 {
			return fmt.Errorf("weight %d is %v: weights must be finite and not negative", i+1, w)
		}
		total += w
	}
	if total == 0 {
		return errors.New("the weights add up to zero: give at least one juror a positive weight")
	}
	return nil
}

// Judge asks every juror to judge t, at once (at most MaxConcurrent at a
// time), and returns the verdict of their judgments under the jury's
// strategy. It returns an error only when ctx ends before the jurors are
// done; it then returns at once, without waiting for jurors that ignore
// their context, with the judgments of the jurors that had answered (and
// what they spent).
func (j *Jury) Judge(ctx context.Context, t *judge.Transcript) (judge.Judgment, error) {
	if err := ctx.Err(); err != nil {
		return judge.Judgment{}, err
	}
	start := time.Now()
	parts, err := j.run(ctx, t)
	if err != nil {
		out := judge.Judgment{Name: j.c.Name, Parts: parts, Duration: time.Since(start)}
		for _, p := range parts {
			out.Usage = out.Usage.Add(p.Usage)
		}
		return out, err
	}
	out := decide(j.c, parts)
	out.Duration = time.Since(start)
	return out, nil
}

// run calls every juror through judge.Run, at most MaxConcurrent at once,
// and returns their judgments in juror order, or ctx's error as soon as
// ctx ends, with the judgments of the jurors that had answered.
func (j *Jury) run(ctx context.Context, t *judge.Transcript) ([]judge.Judgment, error) {
	// Buffered for every juror: one that finishes after Judge gave up sends
	// its result here and exits, never blocking and never touching parts.
	results := make(chan verdict, len(j.c.Jurors))
	slots := make(chan struct{}, j.c.MaxConcurrent)

	jurorCtx, cancel := context.WithCancel(ctx)
	defer cancel() // stops the launcher, and tells jurors still running that nobody waits for them

	go func() {
		for i, juror := range j.c.Jurors {
			select {
			case slots <- struct{}{}:
			case <-jurorCtx.Done():
				return
			}
			if jurorCtx.Err() != nil { // both were ready, and select chose the slot
				return
			}
			go func() {
				defer func() { <-slots }()
				results <- verdict{i, judge.Run(jurorCtx, juror, t)}
			}()
		}
	}()

	parts := make([]judge.Judgment, len(j.c.Jurors))
	answered := make([]bool, len(j.c.Jurors))
	for range j.c.Jurors {
		select {
		case r := <-results:
			parts[r.juror], answered[r.juror] = r.judgment, true
		case <-ctx.Done():
			return answeredOf(parts, answered, results), ctx.Err()
		}
	}
	// A juror that saw the context end reports an ERROR; the cause is the
	// context, not the juror.
	if err := ctx.Err(); err != nil {
		return parts, err
	}
	return parts, nil
}

// A verdict is one juror's judgment.
type verdict struct {
	juror    int
	judgment judge.Judgment
}

// answeredOf returns, in juror order, the judgments of the jurors that
// answered: those in parts, and those already waiting in results.
func answeredOf(parts []judge.Judgment, answered []bool, results chan verdict) []judge.Judgment {
	for drained := false; !drained; {
		select {
		case r := <-results:
			parts[r.juror], answered[r.juror] = r.judgment, true
		default:
			drained = true
		}
	}
	var out []judge.Judgment
	for i, p := range parts {
		if answered[i] {
			out = append(out, p)
		}
	}
	return out
}

// unknown reports an unknown value of a setting, listing the valid values
// and suggesting the closest one when it is close enough to be a typo.
func unknown[T ~string](setting string, got T, valid []T) error {
	names := make([]string, len(valid))
	for i, v := range valid {
		names[i] = string(v)
	}
	msg := fmt.Sprintf("unknown %s %q: want one of %s", setting, got, strings.Join(names, ", "))
	if s, ok := suggest.Closest(string(got), names); ok {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	return errors.New(msg)
}
