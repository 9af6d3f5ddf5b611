package store

import (
	"context"
	"errors"

	"github.com/gavelhq/gavel"
)

// A Sharder is a Store that takes the shards of one run from several
// processes, on several machines (gavel run --shard K/N --run-label
// LABEL): every shard is given the same run label; the first to arrive
// creates the run and the others join it, each records the trials of its
// part, and the run is finished when its last shard ends, over every
// shard's trials. A shard that died leaves its part running (the run is
// then shown abandoned once nobody is heard of); the same shard started
// again with the same label takes its part over and completes it.
type Sharder interface {
	// JoinRun starts shard part.Index of the run labelled label: it
	// creates the run, as CreateRun would with info, if no run has that
	// label, else it joins it. The run's PID and Machine are left unset
	// (its shards run in several processes): it is shown abandoned when
	// none of them was heard of for StaleAfter. Joining a run whose suite,
	// number of shards or selection differ from part's, or a shard that is
	// running now in a live process, is refused with an error wrapping
	// ErrJoinRefused that says why. Joining a shard that ran before
	// (died, or ended) puts the run back to running: that shard's saved
	// trials are the run's, to be kept.
	JoinRun(ctx context.Context, label string, info RunInfo, part Shard) (Joined, error)
	// ShardHeartbeat is Heartbeat for one shard of a run: the run's, and
	// the shard's, whose process is then known to be alive.
	ShardHeartbeat(ctx context.Context, runID string, index int) error
	// EndShard records that a shard of a run ended: stopped says what
	// stopped it before every trial of its part ran ("" when none did),
	// and why. It returns how the run's shards stand: when every one of
	// them has ended, the caller finishes the run (FinishRun) over every
	// shard's trials. Shards end one at a time, so that exactly one sees
	// them all ended.
	EndShard(ctx context.Context, runID string, index int, stopped gavel.StopCause, why string) (Shards, error)
	// RunByLabel returns the run labelled label, and its shards;
	// ErrNotFound when there is none.
	RunByLabel(ctx context.Context, label string) (RunInfo, Shards, error)
}

// ErrJoinRefused is returned, wrapped with the reason, when a shard may
// not join a labelled run.
var ErrJoinRefused = errors.New("cannot join the run")

// A Shard is the part of a run one process runs.
type Shard struct {
	// Index is the shard's number, from 1, of Count.
	Index, Count int
	// Selection identifies what the whole run selected (the cases and
	// their trials): every shard of a run gives the same.
	Selection string
	// Host, PID and Machine say which process runs the shard (see
	// RunInfo.PID).
	Host    string
	PID     int
	Machine string
}

// Joined is a shard's run, as JoinRun found or created it.
type Joined struct {
	Info RunInfo
	// Created is true for the shard that created the run.
	Created bool
	// Again is true when this shard ran before (its process died, or it
	// ended): what it saved is in the run.
	Again bool
}

// Shards is how the shards of a labelled run stand.
type Shards struct {
	// Count is how many shards the run has; Ended, how many have ended.
	Count, Ended int
	// Stopped and StopReason are what stopped the first ended shard that
	// did not run every trial of its part, "" when there is none.
	Stopped    gavel.StopCause
	StopReason string
}

// All reports whether every shard has ended.
func (s Shards) All() bool { return s.Count > 0 && s.Ended == s.Count }
