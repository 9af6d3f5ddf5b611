package stats

import (
	"fmt"
	"math"
)

// The names of the methods an Interval can come from, as Interval.Method
// records them.
const (
	// MethodWilson is the Wilson score interval of a proportion (Wilson).
	MethodWilson = "wilson"
	// MethodClopperPearson is the exact interval of a proportion
	// (ClopperPearson).
	MethodClopperPearson = "clopper-pearson"
	// MethodBootstrap is the percentile bootstrap over cases (Bootstrap).
	MethodBootstrap = "bootstrap"
	// MethodT is Student's t interval of a mean (MeanT).
	MethodT = "t"
	// MethodRoganGladen is the delta-method interval of a pass rate
	// corrected for the judge's errors (RoganGladen).
	MethodRoganGladen = "rogan-gladen-delta"
)

// An Interval is a confidence interval: the values of a rate or a mean
// that the data do not rule out, at a confidence level. With Level 0.95,
// intervals computed this way cover the true value in about 95% of runs.
type Interval struct {
	// Lo and Hi are the bounds; Lo ≤ Hi.
	Lo float64 `json:"lo"`
	Hi float64 `json:"hi"`
	// Level is the confidence level, between 0 and 1 (0.95).
	Level float64 `json:"level"`
	// Method names how the interval was computed: one of the Method
	// constants.
	Method string `json:"method"`
}

// Contains reports whether x lies in the interval, bounds included.
func (iv Interval) Contains(x float64) bool { return iv.Lo <= x && x <= iv.Hi }

// A Side is where an interval lies against a line, such as a suite's
// threshold.
type Side int

const (
	// Straddles: the line is inside the interval; the data allow values on
	// both sides of it, so they do not decide.
	Straddles Side = iota
	// Above: the whole interval is at or above the line (Lo ≥ line): the
	// value reaches it.
	Above
	// Below: the whole interval is below the line (Hi < line): the value
	// does not reach it.
	Below
)

// String returns "straddles", "above" or "below".
func (s Side) String() string {
	switch s {
	case Above:
		return "above"
	case Below:
		return "below"
	}
	return "straddles"
}

// Side says where the interval lies against line. A value reaches a line
// when it is at or above it, so an interval whose Lo equals the line is
// Above; Hi equal to the line is not Below.
func (iv Interval) Side(line float64) Side {
	switch {
	case iv.Lo >= line:
		return Above
	case iv.Hi < line:
		return Below
	}
	return Straddles
}

// CheckLevel returns an error when level cannot be a confidence level: it
// must lie strictly between 0 and 1. Call it where a user's level is read
// (a suite, a flag); the functions of this package panic on a bad level,
// as on any other argument no caller should pass.
func CheckLevel(level float64) error {
	if !(level > 0 && level < 1) {
		if level > 1 && level < 100 {
			return fmt.Errorf("confidence level %v is not between 0 and 1: write %v for %v%%", level, level/100, level)
		}
		return fmt.Errorf("confidence level %v is not between 0 and 1 (0.95 is usual)", level)
	}
	return nil
}

// z returns the two-sided critical value of the standard normal at level:
// the z with Φ(z) = 1 − (1−level)/2 (1.96 at 0.95). It panics on a level
// CheckLevel refuses, naming the function that was given it.
func z(fn string, level float64) float64 {
	mustLevel(fn, level)
	return -NormalQuantile((1 - level) / 2)
}

// mustLevel panics when level is not a confidence level.
func mustLevel(fn string, level float64) {
	if err := CheckLevel(level); err != nil {
		panic("stats." + fn + ": " + err.Error())
	}
}

// mustCount panics when successes of n is not a count: negative, or more
// successes than trials.
func mustCount(fn string, successes, n int) {
	if successes < 0 || n < 0 || successes > n {
		panic(fmt.Sprintf("stats.%s: %d successes of %d is no count", fn, successes, n))
	}
}

// clamp01 keeps x inside [0, 1].
func clamp01(x float64) float64 { return math.Min(math.Max(x, 0), 1) }
