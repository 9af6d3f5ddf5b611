package eval

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/report"
	"github.com/gavelhq/gavel/runner"
)

// A Shard is one of the N parts of a run's trials (gavel run --shard
// K/N): Index is K, from 1, and Count is N; the zero Shard is a whole
// run. Shard K runs the selected trials whose index in suite order (case
// by case, trial by trial, from 0) is K-1 modulo N: every trial is in
// one shard, and shards differ by one trial at most
// (docs/decisions/0016-shards-by-index.md).
type Shard struct {
	Index, Count int
}

// ParseShard reads K/N.
func ParseShard(s string) (Shard, error) {
	k, n, ok := strings.Cut(s, "/")
	if !ok {
		return Shard{}, errors.New("want K/N, shard K of N (1/4 .. 4/4)")
	}
	ki, err1 := strconv.Atoi(strings.TrimSpace(k))
	ni, err2 := strconv.Atoi(strings.TrimSpace(n))
	switch {
	case err1 != nil || err2 != nil:
		return Shard{}, errors.New("want K/N with whole numbers, shard K of N (1/4 .. 4/4)")
	case ni < 1:
		return Shard{}, errors.New("N is at least 1")
	case ki < 1:
		return Shard{}, fmt.Errorf("K counts from 1 (1/%d .. %d/%d)", ni, ni, ni)
	case ki > ni:
		return Shard{}, fmt.Errorf("K is at most N (1/%d .. %d/%d)", ni, ni, ni)
	}
	return Shard{ki, ni}, nil
}

// String is "2/4"; "" for a whole run.
func (s Shard) String() string {
	if s.Count == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// Set and Type make a Shard a flag (pflag.Value).
func (s *Shard) Set(v string) error {
	p, err := ParseShard(v)
	if err != nil {
		return err
	}
	*s = p
	return nil
}

func (s *Shard) Type() string { return "K/N" }

// A plan is what a whole sharded run selected: its suite's name and
// cases, in suite order, with their numbers of trials.
type plan struct {
	Suite string
	Cases []report.ShardCase
}

// planOf is the plan of a suite whose cases are selected, each run as
// many times as trials says (0: each case's own, else the suite's, else
// once), as the runner runs them. definition, when not nil, gives each
// case's definition as written (spec.Built.Definition), whose digest the
// plan holds: shards of two versions of a suite are not one run.
func planOf(s *gavel.Suite, trials int, definition func(id string) []byte) plan {
	p := plan{Suite: s.Name}
	c := runner.Config{Trials: trials}
	for _, cs := range s.Cases {
		sc := report.ShardCase{ID: cs.ID, Trials: c.TrialsOf(s, cs)}
		if definition != nil {
			if def := definition(cs.ID); len(def) > 0 {
				sum := sha256.Sum256(def)
				sc.Definition = "sha256:" + hex.EncodeToString(sum[:])
			}
		}
		p.Cases = append(p.Cases, sc)
	}
	return p
}

// each calls fn for every trial of the plan in suite order, with its
// index from 0.
func (p plan) each(fn func(i int, caseID string, n int)) {
	i := 0
	for _, c := range p.Cases {
		for n := 1; n <= c.Trials; n++ {
			fn(i, c.ID, n)
			i++
		}
	}
}

// owner is the shard of count that runs the i-th trial.
func owner(i, count int) int { return i%count + 1 }

// selects returns runner.Config.Select for Shard s of the plan.
func (p plan) selects(s Shard) func(caseID string, n int) bool {
	mine := map[trialKey]bool{}
	p.each(func(i int, caseID string, n int) {
		if owner(i, s.Count) == s.Index {
			mine[trialKey{caseID, n}] = true
		}
	})
	return func(caseID string, n int) bool { return mine[trialKey{caseID, n}] }
}

// digest identifies the plan: shards of one run have the same. It holds
// the cases' definitions too, so that a shard of another version of the
// suite may not join a labelled run.
func (p plan) digest() string {
	h := sha256.New()
	fmt.Fprintf(h, "%q\n", p.Suite)
	for _, c := range p.Cases {
		fmt.Fprintf(h, "%q %d", c.ID, c.Trials)
		if c.Definition != "" {
			fmt.Fprintf(h, " %s", c.Definition)
		}
		fmt.Fprintln(h)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// otherDefinitions returns the ids of the cases that p and q both select
// and define otherwise, in p's order.
func (p plan) otherDefinitions(q plan) []string {
	theirs := map[string]string{}
	for _, c := range q.Cases {
		theirs[c.ID] = c.Definition
	}
	var out []string
	for _, c := range p.Cases {
		if def, ok := theirs[c.ID]; ok && def != c.Definition {
			out = append(out, c.ID)
		}
	}
	return out
}

// reportShard is what the reports of Shard s of the plan say of it.
func (p plan) reportShard(s Shard, label string) *report.Shard {
	return &report.Shard{Index: s.Index, Count: s.Count, Label: label, Selection: p.digest(), Cases: p.Cases}
}
