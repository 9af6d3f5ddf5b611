package eval

import (
	"context"
	"errors"
	"fmt"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/mock"
	"github.com/gavelhq/gavel/store"
)

// ToolRecording reads, for a suite whose agent replays its tool results
// (spec.Env.ToolRecording), the tool calls of the stored run in st that
// ref names: the run of that id; else the run of that --run-label; else
// the newest finished run of the suite on the git branch of that name
// (FindBaseline); and latest, the newest finished run of the suite. A
// running run is refused: its calls are not all recorded yet.
func ToolRecording(st store.Store) func(suite, ref string) (string, mock.Recording, error) {
	return func(suite, ref string) (string, mock.Recording, error) {
		// Building a suite takes no context; reading a run is bounded by
		// the store's own timeouts.
		ctx := context.Background()
		id, err := replayedRun(ctx, st, suite, ref)
		if err != nil {
			return "", nil, err
		}
		stored, err := st.Run(ctx, id)
		if err != nil {
			return "", nil, fmt.Errorf("reading run %s: %w", id, err)
		}
		if stored.Info.Status == store.Running {
			return "", nil, fmt.Errorf("run %s is still running, and its tool calls are not all recorded: let it finish, or name another run", id)
		}
		return id, recordingOf(stored.Run), nil
	}
}

// replayedRun is the id of the run ref names, as ToolRecording says.
func replayedRun(ctx context.Context, st store.Store, suite, ref string) (string, error) {
	if ref != "latest" {
		base, err := FindBaseline(ctx, st, ref, suite, "")
		if errors.Is(err, store.ErrNotFound) {
			return "", fmt.Errorf("%w (gavel runs lists the runs; latest names the newest finished run of the suite)", err)
		}
		if err != nil {
			return "", err
		}
		return base.Info.ID, nil
	}
	runs, err := st.Runs(ctx, store.RunFilter{Suite: suite, Limit: 100})
	if err != nil {
		return "", err
	}
	for _, info := range runs {
		if info.Status == store.Passed || info.Status == store.Failed {
			return info.ID, nil
		}
	}
	return "", fmt.Errorf("suite %q has no finished run to replay yet: record one first, with the live servers (a run without replay_tools)", suite)
}

// recordingOf is the tool calls of a stored run, by case and trial, for
// a replay.
func recordingOf(run *gavel.Run) mock.Recording {
	rec := mock.Recording{}
	for _, c := range run.Cases {
		id := c.ID()
		for _, tr := range c.Trials {
			if tr.N < 1 || tr.Transcript == nil {
				continue
			}
			for len(rec[id]) < tr.N {
				rec[id] = append(rec[id], nil)
			}
			rec[id][tr.N-1] = tr.Transcript.ToolCalls()
		}
	}
	return rec
}
