package stats

import (
	"fmt"
	"strings"
	"testing"
)

// proportionCases are the wants of TestWilson and TestClopperPearson,
// computed by /usr/bin/python3 (Debian's python3-statsmodels 0.13.5):
//
//	from statsmodels.stats.proportion import proportion_confint
//	lo, hi = proportion_confint(x, n, alpha=1-level, method="wilson")  # and method="beta"
type proportionCase struct {
	x, n          int
	level, lo, hi float64
}

func TestWilson(t *testing.T) {
	tests := []proportionCase{
		{0, 1, 0.95, 0.0, 0.7934506856227626},
		{1, 1, 0.95, 0.20654931437723745, 1.0},
		{0, 10, 0.95, 0.0, 0.2775327998628892},
		{10, 10, 0.95, 0.7224672001371107, 0.9999999999999999},
		{10, 11, 0.95, 0.6226415635484043, 0.9837678271141151},
		{7, 10, 0.95, 0.39677814746114537, 0.8922087325936989},
		{7, 10, 0.9, 0.44169979586983493, 0.873123416096802},
		{7, 10, 0.99, 0.32002467920110245, 0.9204336834769341},
		{1, 3, 0.8, 0.10577563612172286, 0.6788173521696514},
		{50, 100, 0.95, 0.4038315303659956, 0.5961684696340044},
		{0, 10000, 0.95, 0.0, 0.00038399837067659573},
		{10000, 10000, 0.95, 0.9996160016293234, 1.0},
		{9123, 10000, 0.95, 0.9065965642806005, 0.9176867906629395},
		{5, 10000, 0.95, 0.00021358842616382576, 0.0011700259461420934},
		{3, 7, 0.5, 0.3106034777497514, 0.5552572159915451},
		// Not statsmodels' (it says nan): with no trials, nothing is known.
		{0, 0, 0.95, 0, 1},
	}
	checkProportion(t, "Wilson", Wilson, MethodWilson, tests)
}

func TestClopperPearson(t *testing.T) {
	tests := []proportionCase{
		{0, 1, 0.95, 0.0, 0.975},
		{1, 1, 0.95, 0.025000000000000022, 1.0},
		{0, 10, 0.95, 0.0, 0.3084971078187608},
		{10, 10, 0.95, 0.6915028921812392, 1.0},
		{10, 11, 0.95, 0.5872200830116173, 0.9977010277861857},
		{7, 10, 0.95, 0.34754714994000274, 0.9332604888222655},
		{7, 10, 0.9, 0.39337578389458766, 0.9127355660858497},
		{7, 10, 0.99, 0.26488601471286927, 0.9629927789037679},
		{1, 3, 0.8, 0.03451061539437024, 0.8041998943409083},
		{50, 100, 0.95, 0.39832112950330106, 0.6016788704966989},
		{0, 10000, 0.95, 0.0, 0.0003688199146187622},
		{10000, 10000, 0.95, 0.9996311800853812, 1.0},
		{9123, 10000, 0.95, 0.9065852680653437, 0.917773259804869},
		{5, 10000, 0.95, 0.0001623679341988425, 0.0011664442090665891},
		{3, 7, 0.5, 0.25307397577397683, 0.6211515593582926},
		{0, 0, 0.95, 0, 1},
	}
	checkProportion(t, "ClopperPearson", ClopperPearson, MethodClopperPearson, tests)
}

func checkProportion(t *testing.T, name string, f func(int, int, float64) Interval, method string, tests []proportionCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d_of_%d_at_%v", tt.x, tt.n, tt.level), func(t *testing.T) {
			got := f(tt.x, tt.n, tt.level)
			want := Interval{Lo: tt.lo, Hi: tt.hi, Level: tt.level, Method: method}
			if !near(got.Lo, want.Lo, 1e-10, 1e-15) || !near(got.Hi, want.Hi, 1e-10, 1e-15) ||
				got.Level != want.Level || got.Method != want.Method {
				t.Errorf("%s(%d, %d, %v) = %+v, want %+v", name, tt.x, tt.n, tt.level, got, want)
			}
		})
	}
}

func TestProportionPanicsOnNoCount(t *testing.T) {
	for _, tt := range []struct {
		name     string
		x, n     int
		level    float64
		mentions string
	}{
		{"more successes than trials", 5, 3, 0.95, "5 successes of 3"},
		{"negative", -1, 3, 0.95, "-1 successes of 3"},
		{"level in percent", 1, 3, 95, "write 0.95 for 95%"},
		{"level 1", 1, 3, 1, "not between 0 and 1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, f := range []func(int, int, float64) Interval{Wilson, ClopperPearson} {
				func() {
					defer func() {
						got := fmt.Sprint(recover())
						if !strings.Contains(got, tt.mentions) {
							t.Errorf("panic %q, want one that mentions %q", got, tt.mentions)
						}
					}()
					f(tt.x, tt.n, tt.level)
				}()
			}
		})
	}
}

func TestSide(t *testing.T) {
	iv := Interval{Lo: 0.6, Hi: 0.9}
	for _, tt := range []struct {
		line float64
		want Side
	}{{0.5, Above}, {0.6, Above}, {0.7, Straddles}, {0.9, Straddles}, {0.95, Below}} {
		if got := iv.Side(tt.line); got != tt.want {
			t.Errorf("%+v.Side(%v) = %v, want %v", iv, tt.line, got, tt.want)
		}
	}
}

func TestMoreToDecide(t *testing.T) {
	// The wants count up one sample at a time until statsmodels' Wilson
	// interval, at the same rate, clears the threshold:
	//
	//	p, m = x/n, n
	//	while True:
	//	    lo, hi = proportion_confint(p*m, m, alpha=1-level, method="wilson")
	//	    if lo >= t or hi < t: break
	//	    m += 1
	//	print(m - n)
	tests := []struct {
		x, n             int
		threshold, level float64
		want             int
	}{
		{10, 11, 0.8, 0.95, 41},
		{8, 10, 0.5, 0.95, 1},
		{6, 10, 0.5, 0.95, 87},
		{3, 10, 0.5, 0.95, 15},
		{99, 100, 0.9, 0.95, 0},
		{5, 5, 0.9, 0.95, 30},
		{45, 50, 0.8, 0.95, 12},
		{1, 10, 0.3, 0.9, 5},
		{60, 100, 0.7, 0.95, 0},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d_of_%d_vs_%v", tt.x, tt.n, tt.threshold), func(t *testing.T) {
			got, ok := MoreToDecide(tt.x, tt.n, tt.threshold, tt.level)
			if got != tt.want || !ok {
				t.Errorf("MoreToDecide(%d, %d, %v, %v) = %d, %v, want %d, true", tt.x, tt.n, tt.threshold, tt.level, got, ok, tt.want)
			}
		})
	}
	for _, tt := range []struct {
		name      string
		x, n      int
		threshold float64
	}{
		{"no samples", 0, 0, 0.5},
		{"rate on the threshold", 8, 10, 0.8},
		{"every case must pass, and every case did", 10, 10, 1},
		{"a hair from the threshold", 500000001, 1000000000, 0.5},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got, ok := MoreToDecide(tt.x, tt.n, tt.threshold, 0.95); ok {
				t.Errorf("MoreToDecide(%d, %d, %v, 0.95) = %d, true, want false", tt.x, tt.n, tt.threshold, got)
			}
		})
	}
}
