package judge

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// A Score is a judge's measurement: a boolean, a number within bounds, or a
// label from an allowed set. Every kind normalises to 0..1, which is how
// judges of different kinds are aggregated.
//
// Build scores with Bool, Number and Category: they refuse values out of
// range instead of clamping them. The zero Score means "no score".
type Score struct {
	Kind ScoreKind `json:"kind"`

	// Bool is the value of a boolean score.
	Bool bool `json:"bool,omitempty"`

	// Value, Min and Max describe a numerical score: Min <= Value <= Max.
	Value float64 `json:"value,omitempty"`
	Min   float64 `json:"min,omitempty"`
	Max   float64 `json:"max,omitempty"`

	// Label is the value of a categorical score, one of Labels.
	Label  string  `json:"label,omitempty"`
	Labels []Label `json:"labels,omitempty"`
}

// ScoreKind names the kind of a Score.
type ScoreKind string

// The kinds of score.
const (
	Boolean     ScoreKind = "boolean"
	Numerical   ScoreKind = "numerical"
	Categorical ScoreKind = "categorical"
)

// A Label is one allowed value of a categorical score, with the 0..1 value
// it normalises to.
type Label struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
}

// Bool returns a boolean score.
func Bool(b bool) Score { return Score{Kind: Boolean, Bool: b} }

// Number returns a numerical score. It is an error for value to lie outside
// [min, max], for min not to be below max, or for any of them to be NaN or
// infinite.
func Number(value, min, max float64) (Score, error) {
	s := Score{Kind: Numerical, Value: value, Min: min, Max: max}
	return s, s.Validate()
}

// Category returns a categorical score. It is an error for label not to be
// one of labels, for labels to be empty or hold a name twice, or for a
// label's value to lie outside 0..1.
func Category(label string, labels []Label) (Score, error) {
	s := Score{Kind: Categorical, Label: label, Labels: labels}
	return s, s.Validate()
}

// Unit returns an aggregate's value (a mean, a median, a fraction of votes)
// as a numerical score on 0..1. Unlike Number it clamps a value a hair
// outside the range, which is floating-point rounding in the aggregate,
// not a judge's mistake; use Number for values a judge reports. A NaN
// stays NaN, and the score is invalid.
func Unit(v float64) Score {
	return Score{Kind: Numerical, Value: math.Min(1, math.Max(0, v)), Max: 1}
}

// IsZero reports whether s is the zero Score, which means "no score".
func (s Score) IsZero() bool { return s.Kind == "" }

// Validate reports why s is not a valid score, or nil.
func (s Score) Validate() error {
	switch s.Kind {
	case "", Boolean:
		return nil
	case Numerical:
		for _, v := range []float64{s.Value, s.Min, s.Max} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("numerical score %v/%v..%v: values must be finite numbers", s.Value, s.Min, s.Max)
			}
		}
		if s.Min >= s.Max {
			return fmt.Errorf("numerical score bounds %v..%v: min must be below max", s.Min, s.Max)
		}
		if s.Value < s.Min || s.Value > s.Max {
			return fmt.Errorf("numerical score %v is outside its bounds %v..%v", s.Value, s.Min, s.Max)
		}
		return nil
	case Categorical:
		if err := validateLabels(s.Labels); err != nil {
			return err
		}
		if _, ok := labelValue(s.Labels, s.Label); !ok {
			return fmt.Errorf("categorical score %q is not one of %s", s.Label, labelNames(s.Labels))
		}
		return nil
	default:
		return fmt.Errorf("unknown score kind %q: want boolean, numerical or categorical", s.Kind)
	}
}

// Normalized returns s on the scale 0..1: 1 or 0 for a boolean, the position
// of the value between its bounds for a number, the label's value for a
// category. The zero Score normalises to 0.
func (s Score) Normalized() float64 {
	switch s.Kind {
	case Boolean:
		if s.Bool {
			return 1
		}
		return 0
	case Numerical:
		if s.Max <= s.Min {
			return 0
		}
		return (s.Value - s.Min) / (s.Max - s.Min)
	case Categorical:
		v, _ := labelValue(s.Labels, s.Label)
		return v
	}
	return 0
}

// ToBool converts s to a boolean score: true when its normalised value
// reaches threshold (see CompareToThreshold).
func (s Score) ToBool(threshold float64) Score {
	return Bool(CompareToThreshold(s.Normalized(), threshold) >= 0)
}

// ToNumber converts s to a numerical score on min..max, keeping its
// normalised value.
func (s Score) ToNumber(min, max float64) (Score, error) {
	if err := s.Validate(); err != nil {
		return Score{}, err
	}
	if s.IsZero() {
		return Score{}, errors.New("no score to convert")
	}
	return Number(min+s.Normalized()*(max-min), min, max)
}

// ToCategory converts s to the label whose value is nearest its normalised
// value; of two labels equally near, the one listed first wins.
func (s Score) ToCategory(labels []Label) (Score, error) {
	if err := s.Validate(); err != nil {
		return Score{}, err
	}
	if s.IsZero() {
		return Score{}, errors.New("no score to convert")
	}
	if err := validateLabels(labels); err != nil {
		return Score{}, err
	}
	n := s.Normalized()
	best := labels[0]
	for _, l := range labels[1:] {
		if math.Abs(l.Value-n) < math.Abs(best.Value-n) {
			best = l
		}
	}
	return Category(best.Name, labels)
}

// String formats s for people: "true", "7/10", "good".
func (s Score) String() string {
	switch s.Kind {
	case Boolean:
		return strconv.FormatBool(s.Bool)
	case Numerical:
		if s.Min == 0 {
			return fmt.Sprintf("%s/%s", formatFloat(s.Value), formatFloat(s.Max))
		}
		return fmt.Sprintf("%s (%s..%s)", formatFloat(s.Value), formatFloat(s.Min), formatFloat(s.Max))
	case Categorical:
		return s.Label
	}
	return "none"
}

// UnmarshalJSON decodes a score and refuses one that is not valid, so a
// corrupted stored score is reported instead of read as a different value.
func (s *Score) UnmarshalJSON(data []byte) error {
	type plain Score
	var p plain
	if err := json.Unmarshal(data, &p); err != nil {
		return err
	}
	if err := Score(p).Validate(); err != nil {
		return err
	}
	*s = Score(p)
	return nil
}

func validateLabels(labels []Label) error {
	if len(labels) == 0 {
		return errors.New("categorical score has no allowed labels")
	}
	seen := make(map[string]bool, len(labels))
	for _, l := range labels {
		if seen[l.Name] {
			return fmt.Errorf("label %q is listed twice", l.Name)
		}
		seen[l.Name] = true
		if math.IsNaN(l.Value) || l.Value < 0 || l.Value > 1 {
			return fmt.Errorf("label %q has value %v: label values must lie in 0..1", l.Name, l.Value)
		}
	}
	return nil
}

func labelValue(labels []Label, name string) (float64, bool) {
	for _, l := range labels {
		if l.Name == name {
			return l.Value, true
		}
	}
	return 0, false
}

func labelNames(labels []Label) string {
	names := make([]string, len(labels))
	for i, l := range labels {
		names[i] = strconv.Quote(l.Name)
	}
	return strings.Join(names, ", ")
}

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
