package stats

import (
	"encoding/json"
	"testing"
)

func TestCheckLevel(t *testing.T) {
	for _, tt := range []struct {
		level float64
		want  string
	}{
		{0.95, ""},
		{0.5, ""},
		{95, "confidence level 95 is not between 0 and 1: write 0.95 for 95%"},
		{0, "confidence level 0 is not between 0 and 1 (0.95 is usual)"},
		{1, "confidence level 1 is not between 0 and 1 (0.95 is usual)"},
		{-0.9, "confidence level -0.9 is not between 0 and 1 (0.95 is usual)"},
	} {
		got := ""
		if err := CheckLevel(tt.level); err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("CheckLevel(%v) = %q, want %q", tt.level, got, tt.want)
		}
	}
}

func TestIntervalJSON(t *testing.T) {
	b, err := json.Marshal(Interval{Lo: 0.5, Hi: 0.75, Level: 0.95, Method: MethodWilson})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"lo":0.5,"hi":0.75,"level":0.95,"method":"wilson"}`
	if string(b) != want {
		t.Errorf("JSON = %s, want %s", b, want)
	}
}
