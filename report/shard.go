package report

import (
	"fmt"

	"github.com/gavelhq/gavel"
)

// A Shard says that a report is of one shard of a run (gavel run --shard
// K/N): a part of its trials, whose pass rate is no verdict, since the
// gate is decided on the whole run (gavel merge). The JSON report
// carries it as "shard", so that the shards' reports can be merged and
// checked: the same suite, run and selection, every shard once.
type Shard struct {
	// Index is K, from 1; Count is N.
	Index int `json:"index"`
	Count int `json:"count"`
	// Label is the run label the shards were given (--run-label), "" when
	// none was.
	Label string `json:"run_label"`
	// Selection is a digest of the trials selected for the whole run (the
	// cases and their numbers of trials, in suite order): shards of one
	// run have the same.
	Selection string `json:"selection"`
	// Cases are the cases selected for the whole run, in suite order,
	// with how many trials each runs; shard K runs the trials whose
	// index in that order, counted from 0, is K-1 modulo N.
	Cases []ShardCase `json:"cases"`
}

// A ShardCase is one case of a sharded run's selection.
type ShardCase struct {
	ID     string `json:"id"`
	Trials int    `json:"trials"`
	// Definition is a digest of the case as written ("sha256:..."), so
	// that shards of two versions of a suite are told apart; "" when
	// the case was not read from a definition.
	Definition string `json:"definition,omitempty"`
}

// String is "shard 2/4".
func (s *Shard) String() string { return fmt.Sprintf("shard %d/%d", s.Index, s.Count) }

// verdictOf is the verdict a report gives its run: runVerdict's, or, for
// a shard, none: the gate is the whole run's.
func verdictOf(run *gavel.Run, opts Options) string {
	if opts.Shard != nil {
		if !run.Complete() {
			return "INCOMPLETE (" + opts.Shard.String() + ")"
		}
		if opts.Shard.Label != "" {
			return fmt.Sprintf("decided on the whole run (this is %s of run %q: the last shard to end decides)", opts.Shard, opts.Shard.Label)
		}
		return fmt.Sprintf("decided on the whole run (this is %s: gavel merge decides)", opts.Shard)
	}
	return runVerdict(run)
}
