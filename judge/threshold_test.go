package judge_test

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/judge"
)

func TestThresholdComparesItsValueWithItsBounds(t *testing.T) {
	within := func(v, lo, hi float64) judge.Threshold { return judge.Threshold{Value: v, Min: &lo, Max: &hi} }
	six, eight := 0.6, 0.8 // variables: Go computes with constants exactly
	tests := []struct {
		name         string
		t            judge.Threshold
		below, above bool
	}{
		{"score below its passing score", *judge.AtLeast(0.6, 0.7), true, false},
		{"score at its passing score", *judge.AtLeast(0.7, 0.7), false, false},
		{"a mean that rounding puts a hair below", *judge.AtLeast((six+eight)/2, 0.7), false, false},
		{"measure above its limit", *judge.AtMost(12, 10), false, true},
		{"measure at its limit", *judge.AtMost(10, 10), false, false},
		{"length below its bounds", within(3, 20, 400), true, false},
		{"length above its bounds", within(512, 20, 400), false, true},
		{"length within its bounds", within(38, 20, 400), false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.t.Below(); got != tt.below {
				t.Errorf("Below() = %v, want %v", got, tt.below)
			}
			if got := tt.t.Above(); got != tt.above {
				t.Errorf("Above() = %v, want %v", got, tt.above)
			}
			if got, want := tt.t.Met(), !tt.below && !tt.above; got != want {
				t.Errorf("Met() = %v, want %v", got, want)
			}
		})
	}
}

// A NaN meets no threshold, not even a limit it does not lie above.
func TestThresholdOfNaNIsNotMet(t *testing.T) {
	for _, th := range []*judge.Threshold{judge.AtMost(math.NaN(), 10), judge.AtLeast(math.NaN(), 0)} {
		if th.Met() {
			t.Errorf("%+v: Met() = true, want false", *th)
		}
	}
}

// CompareToThreshold puts a number at its threshold give or take the
// rounding of the arithmetic that made it, and nowhere else.
func TestCompareToThreshold(t *testing.T) {
	// Variables, not constants: Go computes with constants exactly.
	seven, six, one, dime, twoDimes := 0.7, 0.6, 1.0, 0.1, 0.2
	tests := []struct {
		name             string
		value, threshold float64
		want             int
	}{
		{"exactly at", 0.7, 0.7, 0},
		{"the mean of three 0.7s", (seven + seven + seven) / 3, 0.7, 0},
		{"an F1 of 0.75 as 2PR/(P+R)", 2 * six * one / (six + one), 0.75, 0},
		{"a sum of costs at its limit", dime + twoDimes, 0.3, 0},
		{"a millionth below", 0.699999, 0.7, -1},
		{"a millionth above", 0.700001, 0.7, 1},
		{"far below", 0.2, 0.7, -1},
		{"far above", 12, 10, 1},
		{"NaN", math.NaN(), 0.7, -1},
		{"NaN threshold", 0.7, math.NaN(), -1},
		{"at 0", 0, 0, 0},
		{"-Inf", math.Inf(-1), 0, -1},
		{"+Inf", math.Inf(1), 1, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := judge.CompareToThreshold(tc.value, tc.threshold); got != tc.want {
				t.Errorf("CompareToThreshold(%v, %v) = %d, want %d", tc.value, tc.threshold, got, tc.want)
			}
		})
	}
}

func TestThresholdValidate(t *testing.T) {
	lo, hi, nan := 5.0, 1.0, math.NaN()
	tests := []struct {
		name string
		t    judge.Threshold
		want string // "" for valid
	}{
		{"at least", *judge.AtLeast(0.6, 0.7), ""},
		{"at most", *judge.AtMost(3, 2), ""},
		{"no bound", judge.Threshold{Value: 1}, "no bound"},
		{"NaN value", *judge.AtLeast(math.NaN(), 0.7), "not a finite number"},
		{"NaN bound", judge.Threshold{Value: 1, Max: &nan}, "not a finite number"},
		{"bounds upside down", judge.Threshold{Value: 3, Min: &lo, Max: &hi}, "min 5 is above max 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.t.Validate()
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("Validate() = %v, want nil", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("Validate() = %v, want an error saying %q", err, tt.want)
			}
		})
	}
	// A judgment with an invalid threshold is invalid, so Run makes it an ERROR.
	j := judge.Judgment{Status: judge.StatusFail, Threshold: &judge.Threshold{Value: 1}}
	if err := j.Validate(); err == nil || !strings.Contains(err.Error(), "threshold: no bound") {
		t.Errorf("Validate() = %v, want the threshold's error", err)
	}
}

// A threshold goes through JSON (the store, the JSON report) and back;
// a judgment stored before thresholds were recorded reads with none.
func TestThresholdRoundTripsThroughJSON(t *testing.T) {
	in := judge.Judgment{Name: "max_turns 3", Status: judge.StatusFail, Score: judge.Bool(false),
		Threshold: &judge.Threshold{Of: "agent turns", Value: 5, Max: new(3.0)}}
	raw, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if want := `"threshold":{"of":"agent turns","value":5,"max":3}`; !strings.Contains(string(raw), want) {
		t.Errorf("JSON = %s, want it to hold %s", raw, want)
	}
	var out judge.Judgment
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	if th := out.Threshold; th == nil || th.Of != "agent turns" || th.Value != 5 || th.Min != nil || th.Max == nil || *th.Max != 3 {
		t.Errorf("read back %+v, want %+v", th, *in.Threshold)
	}

	var old judge.Judgment
	if err := json.Unmarshal([]byte(`{"name":"rubric","status":"FAIL","score":{"kind":"numerical","value":0.6,"max":1},"reasoning":"score 0.6 < 0.7: curt"}`), &old); err != nil {
		t.Fatal(err)
	}
	if old.Threshold != nil {
		t.Errorf("an old judgment read with threshold %+v, want none", *old.Threshold)
	}
	if raw, _ := json.Marshal(judge.Verdict(true, "ok")); strings.Contains(string(raw), "threshold") {
		t.Errorf("JSON = %s, want no threshold for a judgment without one", raw)
	}
}
