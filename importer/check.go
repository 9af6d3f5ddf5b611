package importer

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/report"
)

// A reportCheck gathers the problems of one Gavel report: the values no
// run of Gavel writes (a threshold that is no pass rate, a negative
// count, pass@k for more trials than a case ran, ...), each at its JSON
// path. A report that holds one was not written by Gavel as it is, and is
// refused whole.
type reportCheck struct {
	path     string
	problems Problems
}

func (c *reportCheck) add(at, format string, args ...any) {
	c.problems = append(c.problems, Problem{File: c.path, Path: at, Message: fmt.Sprintf(format, args...)})
}

// rate checks a share, 0..1 (NaN is none).
func (c *reportCheck) rate(at string, v float64) {
	if !(v >= 0 && v <= 1) {
		c.add(at, "%v is no rate: want a number from 0 to 1", v)
	}
}

// count checks a count.
func (c *reportCheck) count(at string, n int) {
	if n < 0 {
		c.add(at, "%d is a negative count", n)
	}
}

// head checks what a report says of its run, all but its cases: the
// suite's threshold, what stopped the run, its numbers, its shard.
// trials are how many trials each case of the report ran.
func (c *reportCheck) head(r *report.JSONReport, trials []int) {
	if th := r.Suite.Threshold; !(th >= 0 && th <= 1) {
		c.add("suite.threshold", "%v is no pass rate: want a number from 0 to 1", th)
	}
	switch {
	case r.Stopped != "" && !r.Stopped.Known():
		c.add("stopped", "%q is not one of %s, %s, %s, %s, %s", r.Stopped,
			gavel.StopInterrupted, gavel.StopBudget, gavel.StopFailFast, gavel.StopRunning, gavel.StopNotJudged)
	case r.Incomplete && r.Stopped == "":
		c.add("incomplete", "true, but stopped says nothing of what stopped the run")
	case !r.Incomplete && r.Stopped != "":
		c.add("incomplete", "false, but stopped says %q stopped the run", r.Stopped)
	}
	c.stats(&r.Stats, trials)
	if r.Shard != nil {
		c.shard(r.Shard)
	}
}

// stats checks a report's numbers. They are computed again from the
// trials whatever they say; numbers no run has are refused all the same.
func (c *reportCheck) stats(s *gavel.Stats, trials []int) {
	for _, o := range slices.Sorted(maps.Keys(s.Cases)) {
		if !validOutcome(o) {
			c.add("stats.cases", "%q is no outcome: want PASS, FAIL, FLAKY, ERROR or SKIPPED", o)
		}
		c.count("stats.cases."+string(o), s.Cases[o])
	}
	c.count("stats.trials", s.Trials)
	if s.PassRate != nil { // null: nothing was judged
		c.rate("stats.pass_rate", *s.PassRate)
	}
	// pass@k and pass^k are given for k up to the fewest trials a case
	// that ran ran.
	fewest := 0
	for _, n := range trials {
		if n > 0 && (fewest == 0 || n < fewest) {
			fewest = n
		}
	}
	for _, at := range []struct {
		field, name string
		ks          []float64
	}{{"pass_at_k", "pass@", s.PassAtK}, {"pass_hat_k", "pass^", s.PassHatK}} {
		if len(at.ks) > fewest {
			trials := "trials"
			if fewest == 1 {
				trials = "trial"
			}
			c.add("stats."+at.field, "%s%d, but a case ran %d %s: k is at most %d", at.name, len(at.ks), fewest, trials, fewest)
		}
		for k, v := range at.ks {
			c.rate(fmt.Sprintf("stats.%s[%d]", at.field, k), v)
		}
	}
	for i, cs := range s.Criteria {
		at := fmt.Sprintf("stats.criteria[%d]", i)
		c.count(at+".count", cs.Count)
		c.rate(at+".mean", cs.Mean)
		c.rate(at+".min", cs.Min)
	}
}

// shard checks what a shard's report says of its shard.
func (c *reportCheck) shard(s *report.Shard) {
	switch {
	case s.Count < 1:
		c.add("shard.count", "%d: a run has at least 1 shard", s.Count)
	case s.Index < 1 || s.Index > s.Count:
		c.add("shard.index", "%d: a shard of %d is 1 to %d", s.Index, s.Count, s.Count)
	}
	for i, sc := range s.Cases {
		c.count(fmt.Sprintf("shard.cases[%d].trials", i), sc.Trials)
	}
}

// jsonCase checks a case of the report at p, all but its trials.
func (c *reportCheck) jsonCase(jc *report.JSONCase, p string) {
	if jc.PassRate != nil {
		c.rate(p+".pass_rate", *jc.PassRate)
	}
}

// trial checks a trial of a case at p, the trials before it in seen:
// its number, its duration, its verdict as a tree of judgments, and a
// verdict on a conversation that did not complete (the runner judges
// none: its verdict is ERROR).
func (c *reportCheck) trial(t *gavel.Trial, p string, seen map[int]bool) {
	if seen[t.N] {
		c.add(p+".trial", "trial %d of case %s twice", t.N, t.CaseID)
	}
	seen[t.N] = true
	if t.Duration < 0 {
		c.add(p+".duration_ns", "%d is a negative duration", t.Duration)
	}
	if err := t.Verdict.ValidateTree(); err != nil {
		// The error starts with the path below the verdict.
		c.problems = append(c.problems, Problem{File: c.path, Message: p + ".verdict." + err.Error()})
		return
	}
	if tr := t.Transcript; tr != nil && tr.Status != "" && tr.Status != judge.ExecSuccess && (t.Verdict.Status == judge.StatusPass || t.Verdict.Status == judge.StatusFail) {
		c.add(p+".verdict.status", "%s, but the conversation did not complete (%s): its verdict is ERROR", t.Verdict.Status, tr.Status)
	}
}

// looseJudgment is a judgment read without decoding what its decoding
// checks (judge.Status and judge.Score refuse invalid values without
// saying where they are).
type looseJudgment struct {
	Status json.RawMessage `json:"status"`
	Score  json.RawMessage `json:"score"`
	Parts  []looseJudgment `json:"parts"`
}

// badJudgment finds, in a report that did not decode, the judgment of a
// trial whose status or score its decoding refused: the problem at the
// JSON path of that value; false when there is none.
func badJudgment(path string, data []byte) (Problem, bool) {
	var r struct {
		Cases []struct {
			Trials []struct {
				Verdict looseJudgment `json:"verdict"`
			} `json:"trials"`
		} `json:"cases"`
	}
	if json.Unmarshal(data, &r) != nil {
		return Problem{}, false
	}
	var find func(j looseJudgment, p string) (Problem, bool)
	find = func(j looseJudgment, p string) (Problem, bool) {
		var status judge.Status
		var score judge.Score
		for _, f := range []struct {
			name string
			raw  json.RawMessage
			into any
		}{{"status", j.Status, &status}, {"score", j.Score, &score}} {
			if len(f.raw) == 0 {
				continue
			}
			if err := json.Unmarshal(f.raw, f.into); err != nil {
				return Problem{File: path, Path: p + "." + f.name, Message: strings.TrimPrefix(err.Error(), "status ")}, true
			}
		}
		for i, part := range j.Parts {
			if bad, ok := find(part, fmt.Sprintf("%s.parts[%d]", p, i)); ok {
				return bad, true
			}
		}
		return Problem{}, false
	}
	for i, jc := range r.Cases {
		for k, t := range jc.Trials {
			if bad, ok := find(t.Verdict, fmt.Sprintf("cases[%d].trials[%d].verdict", i, k)); ok {
				return bad, true
			}
		}
	}
	return Problem{}, false
}
