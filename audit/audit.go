package audit

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llmjudge"
)

// A Judge is one model judge of a suite, as the audit probes it.
type Judge struct {
	// Name says where the suite names the judge: "case_003: judge_prompt",
	// "every_case: judges[0]".
	Name string
	// Case is the id of the case the judge judges; "" for a judge of every
	// case.
	Case string
	// Kind is the judge's kind: rubric, traits, criteria, correctness,
	// pairwise, or a composite's (jury).
	Kind string
	// Model is the judge model's reference as reports show it; "" when the
	// judge has no one model (a jury of several).
	Model string
	// Judge judges a transcript as the suite does (a round's judge reads
	// its round). It is asked for the verbosity and consistency probes of
	// judges that are not pairwise.
	Judge judge.Judge
	// Compare, set for a pairwise judge, compares the transcript's reply
	// with the judge's baseline in both orders (llmjudge.Pairwise.Compare,
	// the reply as a, the baseline as b). The position probe reads its
	// two orders; the other probes its winner.
	Compare func(ctx context.Context, t *judge.Transcript) (llmjudge.PairwiseResult, error)
	// Calls is how many model calls one judgment makes, for the cost
	// stated before the audit (a judge with samples: 5 makes 5; Compare
	// makes 2). Defaults to 1, or 2 with Compare.
	Calls int
	// LLM is the judge's model, for the self-test; nil skips the
	// self-test for it (a jury of several models).
	LLM llm.Model
	// On builds the same judge (prompt, criteria, threshold) on another
	// model, for the family probe; nil when it cannot be.
	On func(m llm.Model) (judge.Judge, error)
}

// calls is Calls with its default.
func (j Judge) calls() int {
	switch {
	case j.Calls > 0:
		return j.Calls
	case j.Compare != nil:
		return 2
	}
	return 1
}

// A Probe names one of the audit's probes.
type Probe string

// The probes.
const (
	ProbePosition    Probe = "position"
	ProbeVerbosity   Probe = "verbosity"
	ProbeConsistency Probe = "consistency"
	ProbeFamily      Probe = "family"
	ProbeSelfTest    Probe = "self-test"
)

// Probes are every probe, in the order reports list them.
var Probes = []Probe{ProbePosition, ProbeVerbosity, ProbeConsistency, ProbeFamily, ProbeSelfTest}

// ParseProbe reads a probe's name.
func ParseProbe(s string) (Probe, error) {
	if p := Probe(s); slices.Contains(Probes, p) {
		return p, nil
	}
	return "", fmt.Errorf("unknown probe %q: want %s, %s, %s, %s or %s", s, Probes[0], Probes[1], Probes[2], Probes[3], Probes[4])
}

// Bars are what a judge must meet to pass the audit. A nil bar is not
// checked: its number is reported, and passes.
type Bars struct {
	// MaxPositionFlips is the largest share of pairwise comparisons whose
	// two orders may disagree.
	MaxPositionFlips *float64 `json:"max_position_flips,omitempty"`
	// MaxVerbosityShare is the largest share of judgments a padded reply
	// may score higher in.
	MaxVerbosityShare *float64 `json:"max_verbosity_share,omitempty"`
	// MaxVerbosityGain is the largest mean gain of the score (0..1) that
	// padding may buy, over every judgment.
	MaxVerbosityGain *float64 `json:"max_verbosity_gain,omitempty"`
	// MaxUnstable is the largest share of judgments whose k samples may
	// disagree on the verdict.
	MaxUnstable *float64 `json:"max_unstable,omitempty"`
	// MaxFamilyGap is the largest mean score (0..1) by which a judge of
	// the agent's family may favour its replies over the reference model.
	MaxFamilyGap *float64 `json:"max_family_gap,omitempty"`
	// MinBiasAccuracy is the lowest accuracy a judge model may have on
	// the self-test, over its every pair.
	MinBiasAccuracy *float64 `json:"min_bias_accuracy,omitempty"`
}

// DefaultSamples is how many times each judgment is asked (k) unless the
// Plan says otherwise.
const DefaultSamples = 3

// MaxSamples is the most samples a Plan may ask for.
const MaxSamples = 25

// A Plan is an audit to run: the judges, the transcripts they judge, and
// what to probe.
type Plan struct {
	// Suite names the suite, for reports.
	Suite string
	// Judges are the judges to probe; Transcripts the replies they judge:
	// a judge of one Case judges that case's transcripts, one of every
	// case all of them.
	Judges      []Judge
	Transcripts []*judge.Transcript
	// Samples is k, how many times each judgment is asked (its original
	// and its padded reply alike). Defaults to DefaultSamples.
	Samples int
	// Probes are the probes to run; nil runs every one.
	Probes []Probe
	// Bars are the bars the judges must meet.
	Bars Bars
	// Agent is the agent model's reference, for the family probe; "" when
	// it is not known (an http agent that names none).
	Agent string
	// Reference, with ReferenceModel its reference, is the model of
	// another family the family probe asks; nil reports the judges of the
	// agent's family without measuring them.
	Reference      llm.Model
	ReferenceModel string
	// Bench is the self-test's pairs, and BenchName what reports call
	// them (a file's name); nil uses Gavel's own set (BiasBench).
	Bench     []BenchPair
	BenchName string
	// Examples, when set, compares each judge's agreement with people's
	// labels with and without few-shot examples on a labelled run (issue
	// 27 item 4): the Report carries what it returns. Nil skips it.
	Examples ExamplesProbe
	// Concurrency is how many judgments are asked at once. Defaults to 4.
	Concurrency int
	// Budget, when set, is asked before each judgment: a reason it
	// returns (the spend reached --max-cost-usd) stops the audit there,
	// and the report says it is incomplete.
	Budget func() string
}

// An ExamplesProbe compares a judge's agreement with people's labels
// (Cohen's kappa on held-out labels) without and with the few-shot
// examples gavel calibrate --disagreements writes: gavel audit --examples
// builds one (eval.CompareExamples) on a labelled run.
type ExamplesProbe func(ctx context.Context) ([]ExamplesComparison, error)

// An ExamplesComparison is one judge's agreement without and with its
// examples.
type ExamplesComparison struct {
	Judge        string   `json:"judge"`
	Labels       int      `json:"labels"`
	KappaWithout *float64 `json:"kappa_without,omitempty"`
	KappaWith    *float64 `json:"kappa_with,omitempty"`
}

// Check returns an error a user can fix when the plan cannot run.
func (p Plan) Check() error {
	switch {
	case p.Samples < 0 || p.Samples > MaxSamples:
		return fmt.Errorf("samples %d: want 1..%d (k, how many times each judgment is asked)", p.Samples, MaxSamples)
	case len(p.Judges) == 0:
		return errors.New("the suite has no model judges to audit: rules are deterministic and need no audit")
	}
	for _, pr := range p.Probes {
		if _, err := ParseProbe(string(pr)); err != nil {
			return err
		}
	}
	return nil
}

func (p Plan) samples() int {
	if p.Samples == 0 {
		return DefaultSamples
	}
	return p.Samples
}

func (p Plan) runs(pr Probe) bool { return p.Probes == nil || slices.Contains(p.Probes, pr) }

func (p Plan) bench() []BenchPair {
	if p.Bench != nil {
		return p.Bench
	}
	return BiasBench()
}

func (p Plan) benchName() string {
	if p.Bench != nil {
		return cmp.Or(p.BenchName, "the plan's bias benchmark")
	}
	return BiasBenchName
}

// transcriptsOf returns the transcripts j judges.
func (p Plan) transcriptsOf(j Judge) []*judge.Transcript {
	if j.Case == "" {
		return p.Transcripts
	}
	var out []*judge.Transcript
	for _, t := range p.Transcripts {
		if t.CaseID == j.Case {
			out = append(out, t)
		}
	}
	return out
}

// sameFamily says whether j's model is the agent's or of its family; nil
// when it is not, or either is not known.
func (p Plan) sameFamily(j Judge) *llmjudge.HierarchyWarning {
	if p.Agent == "" || j.Model == "" {
		return nil
	}
	var w *llmjudge.HierarchyWarning
	if errors.As(llmjudge.CheckHierarchy(j.Model, p.Agent), &w) {
		return w
	}
	return nil
}

// measuresFamily reports whether the family probe measures j: it is of
// the agent's family, and there is a reference model to compare it with.
func (p Plan) measuresFamily(j Judge) bool {
	return p.runs(ProbeFamily) && p.Reference != nil && p.sameFamily(j) != nil
}

// asksOriginal reports whether a probe needs j's judgments of the replies
// as they are: every probe but the self-test does.
func (p Plan) asksOriginal(j Judge) bool {
	return p.runs(ProbeVerbosity) || p.runs(ProbeConsistency) || p.runs(ProbePosition) && j.Compare != nil || p.measuresFamily(j)
}

// Calls are the model calls a Plan makes, by model reference: what
// gavel audit states before it spends anything. A malformed answer
// re-asked makes one more.
func (p Plan) Calls() map[string]int {
	out := map[string]int{}
	k := p.samples()
	for _, j := range p.Judges {
		n := len(p.transcriptsOf(j))
		if p.asksOriginal(j) {
			out[j.Model] += n * k * j.calls() // the reply as it is
		}
		if p.runs(ProbeVerbosity) {
			out[j.Model] += n * k * j.calls() // padded
		}
		if p.measuresFamily(j) && j.On != nil {
			out[p.ReferenceModel] += n * k * j.calls()
		}
	}
	if p.runs(ProbeSelfTest) {
		for _, m := range p.selfTestModels() {
			out[m.ref] += 2 * len(p.bench())
		}
	}
	delete(out, "")
	return out
}

// TotalCalls is the sum of Calls.
func (p Plan) TotalCalls() int {
	n := 0
	for _, c := range p.Calls() {
		n += c
	}
	return n
}

// A modelRef is a judge model the self-test asks, once per reference.
type modelRef struct {
	ref string
	m   llm.Model
}

func (p Plan) selfTestModels() []modelRef {
	var out []modelRef
	for _, j := range p.Judges {
		if j.LLM != nil && j.Model != "" && !slices.ContainsFunc(out, func(m modelRef) bool { return m.ref == j.Model }) {
			out = append(out, modelRef{j.Model, j.LLM})
		}
	}
	return out
}

// Run asks the plan's judgments and returns the audit's report. It
// returns an error only when the plan cannot run (see Check); a judgment
// that failed is counted among its judge's errors.
func Run(ctx context.Context, p Plan) (*Report, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	r := &Report{Suite: p.Suite, Transcripts: len(p.Transcripts), Samples: p.samples(), Probes: p.Probes, Bars: p.Bars}
	if r.Probes == nil {
		r.Probes = Probes
	}
	w := newWorkers(ctx, p.Concurrency, p.Budget)
	judges := make([]*judgeRun, len(p.Judges))
	for i, j := range p.Judges {
		judges[i] = startJudge(w, p, j)
	}
	var tests []*selfTestRun
	if p.runs(ProbeSelfTest) {
		for _, m := range p.selfTestModels() {
			st, err := startSelfTest(w, m, p.benchName(), p.bench())
			if err != nil {
				return nil, err
			}
			tests = append(tests, st)
		}
	}
	w.wait()
	for _, j := range judges {
		r.Judges = append(r.Judges, j.report(p))
	}
	for _, st := range tests {
		r.SelfTests = append(r.SelfTests, st.report())
	}
	if p.Examples != nil {
		cmp, err := p.Examples(ctx)
		if err != nil {
			return nil, fmt.Errorf("examples: %w", err)
		}
		r.Examples = cmp
	}
	r.Stopped = w.stopped
	r.Failures = r.check()
	return r, nil
}

// workers run the audit's judgments, at most n at once, until the
// budget says stop.
type workers struct {
	ctx    context.Context
	sem    chan struct{}
	wg     sync.WaitGroup
	budget func() string

	mu      sync.Mutex
	stopped string
}

func newWorkers(ctx context.Context, n int, budget func() string) *workers {
	if n <= 0 {
		n = 4
	}
	return &workers{ctx: ctx, sem: make(chan struct{}, n), budget: budget}
}

// do runs f unless the audit was stopped; f runs on its own goroutine.
func (w *workers) do(f func(ctx context.Context)) {
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		w.sem <- struct{}{}
		defer func() { <-w.sem }()
		if !w.proceed() {
			return
		}
		f(w.ctx)
	}()
}

// proceed reports whether another judgment may start, and records why
// not.
func (w *workers) proceed() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case w.stopped != "":
		return false
	case w.ctx.Err() != nil:
		w.stopped = "interrupted: " + w.ctx.Err().Error()
		return false
	case w.budget != nil:
		if why := w.budget(); why != "" {
			w.stopped = why
			return false
		}
	}
	return true
}

func (w *workers) wait() { w.wg.Wait() }
