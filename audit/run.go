package audit

import (
	"context"
	"fmt"
	"sync"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llmjudge"
)

// A judgeRun is one judge's probes under way: a judgment per transcript,
// each asked by a worker, its samples gathered here.
type judgeRun struct {
	j Judge
	// family says the judge is of the agent's family; nil when not.
	family *llmjudge.HierarchyWarning
	// reference is the judge on the reference model; refErr says why it
	// could not be built.
	reference judge.Judge
	refErr    error

	mu          sync.Mutex
	judgments   int
	errors      int
	firstError  string
	comparisons []Comparison
	paddings    []Padding
	samples     [][]Sample
	pairs       []Pair
}

// startJudge starts the judgments of j on its transcripts.
func startJudge(w *workers, p Plan, j Judge) *judgeRun {
	r := &judgeRun{j: j}
	r.family = p.sameFamily(j)
	if p.measuresFamily(j) {
		if j.On == nil {
			r.refErr = fmt.Errorf("a %s judge cannot be built on another model", j.Kind)
		} else {
			r.reference, r.refErr = j.On(p.Reference)
		}
	}
	asksOriginal := p.asksOriginal(j)
	for _, t := range p.transcriptsOf(j) {
		w.do(func(ctx context.Context) {
			var own, padded, ref []Sample
			var cs []Comparison
			k := p.samples()
			if asksOriginal {
				own, cs = r.ask(ctx, t, k)
			}
			if p.runs(ProbeVerbosity) {
				var more []Comparison
				padded, more = r.ask(ctx, Pad(t), k)
				cs = append(cs, more...)
			}
			if r.reference != nil {
				ref = r.askJudge(ctx, r.reference, t, k)
			}
			r.mu.Lock()
			defer r.mu.Unlock()
			r.judgments++
			r.comparisons = append(r.comparisons, cs...)
			r.samples = append(r.samples, own)
			r.paddings = append(r.paddings, Padding{Original: own, Padded: padded})
			if r.reference != nil {
				r.pairs = append(r.pairs, Pair{Own: own, Reference: ref})
			}
		})
	}
	return r
}

// ask judges t k times with the judge, and returns the samples and, for
// a pairwise judge, the comparisons.
func (r *judgeRun) ask(ctx context.Context, t *judge.Transcript, k int) ([]Sample, []Comparison) {
	if r.j.Compare == nil {
		return r.askJudge(ctx, r.j.Judge, t, k), nil
	}
	var ss []Sample
	var cs []Comparison
	for range k {
		res, err := r.j.Compare(ctx, t)
		if err != nil {
			r.failed(err.Error())
			continue
		}
		ss = append(ss, sampleOfComparison(res))
		cs = append(cs, Comparison{Forward: res.Forward.Winner, Reversed: res.Reversed.Winner})
	}
	return ss, cs
}

// askJudge judges t k times with j.
func (r *judgeRun) askJudge(ctx context.Context, j judge.Judge, t *judge.Transcript, k int) []Sample {
	var ss []Sample
	for range k {
		out := judge.Run(ctx, j, t)
		s, ok := sampleOf(out)
		if !ok {
			r.failed(fmt.Sprintf("%s: %s", out.Status, firstLine(out.Reasoning)))
			continue
		}
		ss = append(ss, s)
	}
	return ss
}

// failed counts a judgment that judged nothing.
func (r *judgeRun) failed(why string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errors++
	if r.firstError == "" {
		r.firstError = why
	}
}

// report is the judge's findings.
func (r *judgeRun) report(p Plan) JudgeReport {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := JudgeReport{Name: r.j.Name, Case: r.j.Case, Kind: r.j.Kind, Model: r.j.Model,
		Judgments: r.judgments, Errors: r.errors, FirstError: r.firstError}
	if p.runs(ProbePosition) && r.j.Compare != nil {
		pos := PositionOf(r.comparisons)
		out.Position = &pos
	}
	if p.runs(ProbeVerbosity) {
		v := VerbosityOf(r.paddings)
		out.Verbosity = &v
	}
	if p.runs(ProbeConsistency) && p.samples() > 1 {
		c := ConsistencyOf(r.samples)
		out.Consistency = &c
	}
	if p.runs(ProbeFamily) && r.family != nil {
		f := Family{Family: r.family.Family, SameModel: r.family.SameModel, Reference: p.ReferenceModel}
		if r.refErr != nil {
			f.Reference, f.Unmeasured = "", r.refErr.Error()
		}
		if r.reference != nil {
			f.Gap, f.Judgments = GapOf(r.pairs)
		}
		out.Family = &f
	}
	return out
}

func firstLine(s string) string {
	for i, c := range s {
		if c == '\n' {
			return s[:i]
		}
	}
	return s
}
