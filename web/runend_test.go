package web

import (
	"context"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/store"
)

// A run left running by a process that is gone is shown as abandoned, on
// the runs page and its own, which does not follow it as if it ran; an
// incomplete run says why it is; a run that carries on another links to
// it.
func TestRunsThatEnded(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("tells a process is gone with signal 0")
	}
	f := newFixture(t, Config{})
	ctx := context.Background()
	suite := &gavel.Suite{Name: "support-desk", Threshold: 0.8}

	gone := exec.Command("sh", "-c", "exit 0")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	in := runInfo(suite, time.Now().Add(-time.Minute))
	in.PID, in.Machine = gone.Process.Pid, store.ThisMachine()
	crashed, err := f.store.CreateRun(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.store.SaveTrial(ctx, crashed.ID, store.TrialRecord{Trial: passing("case_001", 1, 5)}); err != nil {
		t.Fatal(err)
	}

	c := testCase("case_001", "Where is order 12345?")
	stopped := &gavel.Run{Suite: suite, Stopped: gavel.StopInterrupted, StopReason: "interrupted (SIGTERM)",
		Cases: []gavel.CaseResult{result(c, passing("case_001", 1, 5))}}
	incomplete := f.save(runInfo(suite, base.Add(5*time.Hour)), stopped, store.Incomplete)
	resumed := runInfo(suite, base.Add(6*time.Hour))
	resumed.Continues = incomplete
	carriesOn := f.save(resumed, &gavel.Run{Suite: suite, Cases: []gavel.CaseResult{result(c, passing("case_001", 1, 5))}}, store.Passed)

	for _, tc := range []struct {
		name, path string
		want, lack []string
	}{
		{"abandoned runs", "/runs?status=abandoned", []string{crashed.ID, `<span class="badge skipped">abandoned</span>`}, []string{f.running}},
		{"running runs", "/runs?status=running", []string{f.running}, []string{crashed.ID}},
		{"the abandoned run", "/runs/" + crashed.ID, []string{"Abandoned: the process that ran it (pid", "gavel run --resume " + crashed.ID, "(abandoned: what it saved)",
			`<strong class="unmet">Pass rate 100%</strong>`},
			[]string{"hx-trigger=\"every", "still running"}},
		{"the incomplete run", "/runs/" + incomplete, []string{`<span class="badge skipped">incomplete</span>`, `<strong class="unmet">Pass rate 100%</strong>`,
			"Incomplete: interrupted (SIGTERM). Not every selected trial ran, so the run does not pass, whatever its pass rate."}, nil},
		{"the run that carries it on", "/runs/" + carriesOn, []string{`Carries on run <a href="/runs/` + incomplete + `">`}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := f.get(tc.path)
			if resp.StatusCode != 200 {
				t.Fatalf("GET %s: %d\n%s", tc.path, resp.StatusCode, body)
			}
			for _, w := range tc.want {
				if !strings.Contains(body, w) {
					t.Errorf("GET %s lacks %q:\n%s", tc.path, w, body)
				}
			}
			for _, l := range tc.lack {
				if strings.Contains(body, l) {
					t.Errorf("GET %s has %q", tc.path, l)
				}
			}
		})
	}
}
