package judge_test

import (
	"context"
	"errors"
	"sync/atomic"

	"github.com/gavelhq/gavel/judge"
)

// fixed returns a judge that always gives status, named name, scored with
// the boolean score of its status.
func fixed(name string, status judge.Status) judge.Judge {
	return judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) {
		j := judge.Judgment{Name: name, Status: status, Reasoning: name + " says " + string(status)}
		if status == judge.StatusPass || status == judge.StatusFail {
			j.Score = judge.Bool(status == judge.StatusPass)
		}
		return j, nil
	})
}

// scored returns a judge that gives status with a 0..1 numerical score.
func scored(name string, status judge.Status, v float64) judge.Judge {
	return judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) {
		s, err := judge.Number(v, 0, 1)
		return judge.Judgment{Name: name, Status: status, Score: s}, err
	})
}

// failing returns a judge that could not judge.
func failing(name string) judge.Judge {
	return judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) {
		return judge.Judgment{Name: name}, errors.New(name + " is unreachable")
	})
}

// counted wraps j and counts its calls.
func counted(j judge.Judge, calls *atomic.Int32) judge.Judge {
	return judge.Func(func(ctx context.Context, t *judge.Transcript) (judge.Judgment, error) {
		calls.Add(1)
		return j.Judge(ctx, t)
	})
}

var (
	pass    = fixed("p", judge.StatusPass)
	fail    = fixed("f", judge.StatusFail)
	abstain = fixed("a", judge.StatusAbstain)
	broken  = failing("e")
)
