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

// thresholdSlack absorbs floating-point noise when a value is compared
// with a bound: the mean of 0.6 and 0.8 reaches 0.7.
const thresholdSlack = 1e-9

// Below reports whether the value lies below the threshold's lower bound.
func (t Threshold) Below() bool { return t.Min != nil && t.Value < *t.Min-thresholdSlack }

// Above reports whether the value lies above the threshold's upper bound.
func (t Threshold) Above() bool { return t.Max != nil && t.Value > *t.Max+thresholdSlack }

// Met reports whether the value lies within the threshold's bounds.
func (t Threshold) Met() bool { return !t.Below() && !t.Above() }

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
