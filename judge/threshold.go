package judge

import (
	"errors"
	"fmt"
	"math"
)

// A Threshold is the line a judgment's verdict was drawn at: the number a
// judge compared (its score, a mean, a measure such as the slowest turn's
// latency) and the least or the most that number may be to pass. A judge
// that decides by such a comparison records it on its judgment, so that a
// report can say "scored 0.6, below its threshold 0.7" without reading it
// out of the reasoning, and a composite's mean is never shown as if it
// were a score to read.
type Threshold struct {
	// Of names the number compared when it is not the judgment's score
	// ("mean", "slowest turn", "agent turns"); "" for the score itself.
	Of string `json:"of,omitempty"`
	// Value is the number compared, on the scale of its bounds: the
	// score's own scale (a rubric's 0..1, a criteria axis's 1..10), or
	// the measure's (seconds, dollars, a count).
	Value float64 `json:"value"`
	// Min is the least value that passes; nil when there is no lower
	// bound.
	Min *float64 `json:"min,omitempty"`
	// Max is the most value that passes; nil when there is no upper
	// bound (a limit: "at most 3 turns").
	Max *float64 `json:"max,omitempty"`
	// Unit is the unit of Value and the bounds: "s" for seconds, "USD"
	// for dollars, "" for a score or a count.
	Unit string `json:"unit,omitempty"`
}

// AtLeast returns the threshold of a value that passes when it is at
// least min: a score against its passing score.
func AtLeast(value, min float64) *Threshold {
	return &Threshold{Value: value, Min: &min}
}

// AtMost returns the threshold of a value that passes when it is at most
// max: a measure against its limit.
func AtMost(value, max float64) *Threshold {
	return &Threshold{Value: value, Max: &max}
}

// slack is how far a number may lie from its threshold and still be at
// it: far more than the rounding of a mean or a ratio (1e-16 of the
// number), far less than any difference a user means.
const slack = 1e-9

// CompareToThreshold compares a number with the threshold it is held to:
// -1 when value lies below threshold, +1 when above, and 0 when it is at
// it, within a billionth. Every verdict Gavel draws from a number (a
// judge's score against its passing score, a jury's mean, an F1, a run's
// pass rate against the suite's threshold, a cost against its limit) is
// drawn by it, so that floating-point noise never turns an exact hit into
// a miss: the mean of 0.7, 0.7 and 0.7 is 0.6999999999999998, at 0.7. A
// NaN on either side is -1: it reaches no threshold.
func CompareToThreshold(value, threshold float64) int {
	switch {
	case math.IsNaN(value) || math.IsNaN(threshold) || value < threshold-slack:
		return -1
	case value > threshold+slack:
		return 1
	}
	return 0
}

// Below reports whether the value lies below the threshold's lower bound.
func (t Threshold) Below() bool { return t.Min != nil && CompareToThreshold(t.Value, *t.Min) < 0 }

// Above reports whether the value lies above the threshold's upper bound.
func (t Threshold) Above() bool { return t.Max != nil && CompareToThreshold(t.Value, *t.Max) > 0 }

// Met reports whether the value lies within the threshold's bounds. NaN
// lies within none.
func (t Threshold) Met() bool { return !math.IsNaN(t.Value) && !t.Below() && !t.Above() }

// Validate reports why t is not a valid threshold, or nil: it needs a
// bound, finite numbers, and a lower bound no higher than its upper one.
func (t Threshold) Validate() error {
	if t.Min == nil && t.Max == nil {
		return errors.New("no bound: want min, max or both")
	}
	for _, v := range []*float64{&t.Value, t.Min, t.Max} {
		if v != nil && (math.IsNaN(*v) || math.IsInf(*v, 0)) {
			return fmt.Errorf("%v is not a finite number", *v)
		}
	}
	if t.Min != nil && t.Max != nil && *t.Min > *t.Max {
		return fmt.Errorf("min %v is above max %v", *t.Min, *t.Max)
	}
	return nil
}
