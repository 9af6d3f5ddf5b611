package eval_test

import (
	"strings"
	"testing"
	"time"

	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/store"
)

func TestLoopbackAddr(t *testing.T) {
	for addr, want := range map[string]bool{"127.0.0.1:8080": true, "localhost:1": true, "[::1]:8080": true, ":8080": false, "0.0.0.0:80": false, "10.0.0.5:80": false} {
		if got := eval.LoopbackAddr(addr); got != want {
			t.Errorf("LoopbackAddr(%q) = %v, want %v", addr, got, want)
		}
	}
}

func TestRunHeader(t *testing.T) {
	for _, tc := range []struct {
		info store.RunInfo
		want []string
	}{
		{store.RunInfo{ID: "r1", Status: store.Passed, Label: "nightly", StartedBy: "ada"}, []string{`Run r1, "nightly" (passed) by ada`}},
		{store.RunInfo{ID: "r2", Status: store.Running, Rejudges: "r1"}, []string{"Run r2 (running)", "Rejudges run r1", "Running: 0 trials of 0 cases"}},
		{store.RunInfo{ID: "r3", Status: store.Abandoned, PID: 7, Heartbeat: time.Date(2026, 11, 1, 9, 0, 0, 0, time.Local)},
			[]string{"pid 7 on its machine", "since 2026-11-01 09:00:00", "gavel run --resume r3"}},
	} {
		got := eval.RunHeader(tc.info)
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("RunHeader(%s) = %q, want %q in it", tc.info.ID, got, w)
			}
		}
	}
}

func TestParseDate(t *testing.T) {
	for in, want := range map[string]string{"2026-11-01": "2026-11-01T00:00:00Z", " 2026-11-01T09:30:00+01:00": "2026-11-01T09:30:00+01:00", "yesterday": ""} {
		got, err := eval.ParseDate(in)
		if want == "" {
			if err == nil {
				t.Errorf("ParseDate(%q) = %v, want an error", in, got)
			}
			continue
		}
		if err != nil || got.Format(time.RFC3339) != want {
			t.Errorf("ParseDate(%q) = %v, %v; want %s", in, got, err, want)
		}
	}
}
