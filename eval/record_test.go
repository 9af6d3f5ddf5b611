package eval

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/conversation"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/runner"
	"github.com/gavelhq/gavel/spec"
	"github.com/gavelhq/gavel/store"
	"github.com/gavelhq/gavel/store/sqlite"
)

// fullDisk is a store that stopped taking trials.
type fullDisk struct{ store.Store }

func (fullDisk) SaveTrial(context.Context, string, store.TrialRecord) error {
	return errors.New("database or disk is full")
}

// A database that stops taking writes stops the run: no new trial
// starts, and the run is incomplete, saying why, and exits 3.
func TestDatabaseThatStopsTakingWrites(t *testing.T) {
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "gavel.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	d := NewDrain()
	// b, one at a time after a, waits for the stop that writing a causes.
	waits := agent.Func(func(ctx context.Context, _ string, msg agent.Message) (*agent.Reply, error) {
		if msg.Text == "b" {
			<-d.Stopped()
		}
		return &agent.Reply{Text: msg.Text}, nil
	})
	suite := &gavel.Suite{Name: "disk", Agent: waits}
	for _, id := range []string{"a", "b", "c"} {
		suite.Cases = append(suite.Cases, &gavel.Case{ID: id, Script: conversation.Script{Rounds: []conversation.Round{{Prompt: id}}},
			Judge: judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) {
				return judge.Verdict(true, "ok"), nil
			})})
	}
	b := &spec.Built{Suite: suite}
	rec, err := Record(t.Context(), fullDisk{st}, b, store.RunInfo{Suite: suite.Name}, d.Stop, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	run := runner.Run(t.Context(), suite, runner.Config{Concurrency: 1, Stop: d.Stopped(), Why: d.Why, Progress: rec.Trial})
	code, err := rec.End(run)
	if code != ExitInfra || err == nil {
		t.Errorf("exit %d, error %v; want 3 and the write error", code, err)
	}
	if run.Stopped != gavel.StopInterrupted || !strings.Contains(run.StopReason, "the results database stopped taking writes (database or disk is full)") {
		t.Errorf("stopped %q (%q), want interrupted by the database", run.Stopped, run.StopReason)
	}
	if got := run.Cases[2].Outcome; got != gavel.Skipped {
		t.Errorf("case c: %s, want SKIPPED", got)
	}
}

// A run records the settings it uses: the flag's, else the suite's,
// else the runner's default, said to be one.
func TestRunSettings(t *testing.T) {
	plain := []*gavel.Case{{ID: "a"}}
	for _, tc := range []struct {
		name string
		f    Options
		b    spec.Built
		want map[string]string
	}{
		{"defaults", Options{}, spec.Built{Suite: &gavel.Suite{Cases: plain}},
			map[string]string{"concurrency": "4 (default)", "timeout": "5m (default)", "trials": "1 (default)"}},
		{"the suite's", Options{}, spec.Built{Suite: &gavel.Suite{Trials: 3, Cases: plain}, Concurrency: 2, Timeout: 90 * time.Second},
			map[string]string{"concurrency": "2", "timeout": "1m30s", "trials": "3"}},
		{"the flags'", Options{Concurrency: 8, Timeout: time.Hour, Trials: 5}, spec.Built{Suite: &gavel.Suite{Trials: 3, Cases: plain}, Concurrency: 2, Timeout: time.Minute},
			map[string]string{"concurrency": "8", "timeout": "1h", "trials": "5"}},
		{"a case's own trials", Options{}, spec.Built{Suite: &gavel.Suite{Cases: []*gavel.Case{{ID: "a"}, {ID: "b", Trials: 4}}}},
			map[string]string{"trials": "each case's own, else 1 (default)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := tc.b
			b.Suite.File = filepath.Join(t.TempDir(), "gavel.yaml")
			got := NewRunInfo(&b, &tc.f, 1).Settings
			for k, want := range tc.want {
				if got[k] != want {
					t.Errorf("%s: %q, want %q", k, got[k], want)
				}
			}
		})
	}
}
