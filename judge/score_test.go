package judge_test

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/judge"
)

var grades = []judge.Label{{Name: "poor", Value: 0}, {Name: "partial", Value: 0.5}, {Name: "good", Value: 1}}

func TestScoreConstructors(t *testing.T) {
	tests := []struct {
		name           string
		build          func() (judge.Score, error)
		wantNormalized float64
		wantErr        string
	}{
		{"bool true", func() (judge.Score, error) { return judge.Bool(true), nil }, 1, ""},
		{"bool false", func() (judge.Score, error) { return judge.Bool(false), nil }, 0, ""},
		{"number in range", func() (judge.Score, error) { return judge.Number(7, 1, 10) }, 6.0 / 9, ""},
		{"number at max", func() (judge.Score, error) { return judge.Number(10, 1, 10) }, 1, ""},
		{"number at min", func() (judge.Score, error) { return judge.Number(1, 1, 10) }, 0, ""},
		{"number above max is an error", func() (judge.Score, error) { return judge.Number(11, 1, 10) }, 0, "outside its bounds"},
		{"number below min is an error", func() (judge.Score, error) { return judge.Number(0, 1, 10) }, 0, "outside its bounds"},
		{"NaN is an error", func() (judge.Score, error) { return judge.Number(math.NaN(), 0, 1) }, 0, "finite"},
		{"empty bounds are an error", func() (judge.Score, error) { return judge.Number(1, 1, 1) }, 0, "min must be below max"},
		{"category", func() (judge.Score, error) { return judge.Category("partial", grades) }, 0.5, ""},
		{"unknown category is an error", func() (judge.Score, error) { return judge.Category("great", grades) }, 0, `"great" is not one of "poor", "partial", "good"`},
		{"no labels is an error", func() (judge.Score, error) { return judge.Category("x", nil) }, 0, "no allowed labels"},
		{"duplicate label is an error", func() (judge.Score, error) {
			return judge.Category("x", []judge.Label{{Name: "x", Value: 0}, {Name: "x", Value: 1}})
		}, 0, `"x" is listed twice`},
		{"label value above 1 is an error", func() (judge.Score, error) {
			return judge.Category("x", []judge.Label{{Name: "x", Value: 2}})
		}, 0, "must lie in 0..1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := tt.build()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := s.Normalized(); math.Abs(got-tt.wantNormalized) > 1e-12 {
				t.Errorf("normalised = %v, want %v", got, tt.wantNormalized)
			}
		})
	}
}

func TestScoreConversions(t *testing.T) {
	seven, _ := judge.Number(7, 1, 10)

	if got := seven.ToBool(0.6); !got.Bool {
		t.Errorf("7 on 1..10 to bool at 0.6 = %v, want true", got)
	}
	if got := seven.ToBool(0.7); got.Bool {
		t.Errorf("7 on 1..10 to bool at 0.7 = %v, want false", got)
	}

	pct, err := seven.ToNumber(0, 100)
	if err != nil || math.Abs(pct.Value-66.666666) > 1e-3 {
		t.Errorf("7 on 1..10 to 0..100 = %v, %v; want 66.67", pct, err)
	}

	cat, err := seven.ToCategory(grades)
	if err != nil || cat.Label != "partial" {
		t.Errorf("7 on 1..10 to category = %v, %v; want partial", cat, err)
	}
	cat, err = judge.Bool(true).ToCategory(grades)
	if err != nil || cat.Label != "good" {
		t.Errorf("true to category = %v, %v; want good", cat, err)
	}

	back, err := cat.ToNumber(1, 10)
	if err != nil || back.Value != 10 {
		t.Errorf("good to 1..10 = %v, %v; want 10", back, err)
	}

	if _, err := (judge.Score{}).ToNumber(0, 1); err == nil {
		t.Error("converting the zero score: no error, want one")
	}
}

// A score at its threshold passes: exactly at it, and at it give or take
// the rounding of its normalisation ((0.3-0.1)/(0.5-0.1) is
// 0.49999999999999994).
func TestScoreToBoolAtThreshold(t *testing.T) {
	number := func(v, min, max float64) judge.Score {
		s, err := judge.Number(v, min, max)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	tests := []struct {
		name      string
		score     judge.Score
		threshold float64
		want      bool
	}{
		{"0.7 on 0..1 at 0.7", judge.Unit(0.7), 0.7, true},
		{"7 on 0..10 at 0.7", number(7, 0, 10), 0.7, true},
		{"0.3 on 0.1..0.5 at 0.5", number(0.3, 0.1, 0.5), 0.5, true},
		{"1 on 0..1 at 1", judge.Unit(1), 1, true},
		{"0 on 0..1 at 0", judge.Unit(0), 0, true},
		{"0.69 on 0..1 at 0.7", judge.Unit(0.69), 0.7, false},
		{"0.6999999 on 0..1 at 0.7", judge.Unit(0.6999999), 0.7, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.score.ToBool(tc.threshold); got.Bool != tc.want {
				t.Errorf("ToBool(%v) = %v, want %v", tc.threshold, got.Bool, tc.want)
			}
		})
	}
}

func TestScoreString(t *testing.T) {
	seven, _ := judge.Number(7, 0, 10)
	shifted, _ := judge.Number(7, 1, 10)
	good, _ := judge.Category("good", grades)
	tests := map[string]judge.Score{"true": judge.Bool(true), "7/10": seven, "7 (1..10)": shifted, "good": good, "none": {}}
	for want, s := range tests {
		if got := s.String(); got != want {
			t.Errorf("String() = %q, want %q", got, want)
		}
	}
}

func TestScoreJSONRefusesInvalidScores(t *testing.T) {
	for _, data := range []string{
		`{"kind":"numerical","value":11,"max":10}`,
		`{"kind":"categorical","label":"great","labels":[{"name":"good","value":1}]}`,
		`{"kind":"fuzzy"}`,
	} {
		var s judge.Score
		if err := json.Unmarshal([]byte(data), &s); err == nil {
			t.Errorf("unmarshal %s: no error, want one", data)
		}
	}
}

func TestUnit(t *testing.T) {
	tests := map[float64]float64{0.25: 0.25, 1.0000000000000002: 1, -1e-17: 0}
	for in, want := range tests {
		s := judge.Unit(in)
		if s.Validate() != nil || s.Normalized() != want {
			t.Errorf("Unit(%v) = %v (%v), want %v", in, s, s.Validate(), want)
		}
	}
	if judge.Unit(math.NaN()).Validate() == nil {
		t.Error("Unit(NaN) is valid, want an invalid score")
	}
}
