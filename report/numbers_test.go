package report

import (
	"math"
	"testing"
	"time"
)

func TestSeconds(t *testing.T) {
	tests := []struct {
		in   time.Duration
		want string
	}{
		{0, "0"},
		{1200 * time.Millisecond, "1.2"},
		{35 * time.Millisecond, "0.035"},
		{42 * time.Second, "42"},
		{1234567 * time.Microsecond, "1.235"},
		{400 * time.Microsecond, "0"},
		{90 * time.Minute, "5400"},
	}
	for _, tc := range tests {
		if got := seconds(tc.in); got != tc.want {
			t.Errorf("seconds(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestNumbers(t *testing.T) {
	tests := []struct{ got, want string }{
		{percent(0.8), "80%"},
		{percent(0.27777), "27.8%"},
		{percent(1), "100%"},
		{percent(0), "0%"},
		{count(0), "0"},
		{count(999), "999"},
		{count(1000), "1,000"},
		{count(1234567), "1,234,567"},
		{count(-1234), "-1,234"},
		{count(math.MaxInt64), "at least 9,223,372,036,854,775,807"}, // a saturated sum
		{usd(0.0424), "$0.0424"},
		{usd(12.3), "$12.3000"},
		{score(2.0 / 3), "0.67"},
		{decimal(0.27777), "0.2778"},
		{decimal(0.8), "0.8"},
		{decimal(1), "1"},
		{decimal(0), "0"},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
