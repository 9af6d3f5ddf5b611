package eval

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/audit"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/providers"
	"github.com/gavelhq/gavel/report"
	"github.com/gavelhq/gavel/runner"
	"github.com/gavelhq/gavel/spec"
	"github.com/gavelhq/gavel/store"
)

// Auditing says what Audit audits, and how: gavel audit's flags.
type Auditing struct {
	// Suite is the suite file, or a directory holding gavel.yaml.
	Suite string
	// Run, when set, is the stored run whose transcripts the judges judge
	// (the first trial of each case); otherwise the agent is run once on
	// each case first, and its judges are not asked.
	Run string
	// DB is the results database (OpenStore).
	DB string
	// Tags and IDs keep the cases with one of the tags and one of the
	// ids, as gavel run's do.
	Tags, IDs []string
	// Samples, Probes and ReferenceModel override the suite's audit:
	// block (samples, the probes run, reference_model) when set.
	Samples        int
	Probes         []audit.Probe
	ReferenceModel string
	// BiasBench, when set, is a bias benchmark file in EvalBiasBench's
	// format the self-test asks instead of the suite's audit.bias_bench,
	// or else Gavel's own set.
	BiasBench string
	// Examples, when set, is a file of few-shot examples (gavel calibrate
	// --disagreements writes one): the audit then compares, on Run's
	// suite's labels, the agreement with people of the judges that name
	// it with and without its examples, on held-out cases
	// (CompareExamples, at gavel.Holdout's defaults). It needs Run.
	Examples string
	// MaxCostUSD stops the audit once its judge calls cost this much
	// (0: no limit); every model it asks must then have a price.
	MaxCostUSD float64
	// DryRun states what the audit would ask, and asks nothing.
	DryRun bool
	// Concurrency is how many judgments are asked at once (default: the
	// suite's concurrency, else 4).
	Concurrency int
	// Outs are report files to write, each a FILE whose extension says
	// its format (.txt, .json, .html) or FORMAT=FILE, as gavel run's
	// --out.
	Outs []string
	// Stderr is where the audit says what it will spend, and problems.
	Stderr io.Writer
}

// Audit puts the model judges of a suite through the audit's probes
// (package audit; gavel audit): it loads the suite, says how many judge
// calls the audit will make before it makes one, gathers the replies
// (a stored run's transcripts, or the agent's answers to the cases, with
// no judge asked), and runs the audit. The models are asked, never
// Gavel's cache: a cached answer would make every sample the same.
//
// It returns the report (nil when nothing was audited: a dry run, or an
// error said on Stderr) and the exit code: ExitPassed when every judge
// met the suite's bars, ExitFailed when one did not, ExitIncomplete when
// the budget or an interrupt stopped it first, ExitUsage for a mistake
// in the suite or the flags, ExitInfra when the database or the agent
// failed.
func Audit(ctx context.Context, a Auditing) (*audit.Report, int) {
	stderr := a.Stderr
	if stderr == nil {
		stderr = io.Discard
	}
	fail := func(code int, format string, args ...any) (*audit.Report, int) {
		fmt.Fprintf(stderr, "gavel audit: "+format+"\n", args...)
		return nil, code
	}
	outs, err := auditOutputs(a.Outs)
	if err != nil {
		return fail(ExitUsage, "%v", err)
	}
	st, err := OpenStore(ctx, a.DB)
	if err != nil {
		return fail(ExitInfra, "the results database: %v", err)
	}
	defer st.Close()
	m, err := OpenModels("", true, false) // no cache: see above
	if err != nil {
		return fail(ExitInfra, "models: %v", err)
	}
	defer m.Close()
	meter := llm.NewMeter(llm.DefaultPrices())
	limits := &llm.Limiters{}
	b, err := spec.Open(cmp.Or(a.Suite, "."), suiteEnv(limits, m, meter, stderr, st))
	if err != nil {
		fmt.Fprintln(stderr, err)
		return nil, ExitUsage
	}
	defer b.Close()
	for _, w := range b.Warnings {
		fmt.Fprintln(stderr, w)
	}
	prices := llm.DefaultPrices().With(b.Prices)
	meter.SetPrices(prices)
	if a.MaxCostUSD > 0 {
		if err := allPriced(b, prices); err != nil {
			return fail(ExitUsage, "%v", err)
		}
	}
	if err := selectCases(b.Suite, a.Tags, a.IDs); err != nil {
		return fail(ExitUsage, "%v", err)
	}

	p, err := auditPlan(b, a, m, meter, stderr)
	if err != nil {
		return fail(ExitUsage, "%v", err)
	}
	var stored *store.StoredRun
	if a.Run != "" {
		if stored, err = st.Run(ctx, a.Run); err != nil {
			if errors.Is(err, store.ErrNotFound) {
				return fail(ExitUsage, "--run %s: no such run (gavel runs lists them)", a.Run)
			}
			return fail(ExitInfra, "--run %s: %v", a.Run, err)
		}
		p.Transcripts = storedTranscripts(stored, b.Suite)
		if len(p.Transcripts) == 0 {
			return fail(ExitUsage, "--run %s has no transcript of the cases selected of suite %s", a.Run, b.Suite.Name)
		}
	} else {
		// One stand-in per case, to count the calls before the agent runs.
		for _, c := range b.Suite.Cases {
			p.Transcripts = append(p.Transcripts, &judge.Transcript{CaseID: c.ID})
		}
	}
	if a.Examples != "" {
		if a.Run == "" {
			return fail(ExitUsage, "--examples %s: it needs --run RUN, a run whose judgments people labelled", a.Examples)
		}
		p.Examples = examplesProbe(st, b.Suite.Name, a)
	}
	if err := p.Check(); err != nil {
		return fail(ExitUsage, "%v", err)
	}
	stateCost(stderr, p, a, len(b.Suite.Cases))
	if a.DryRun {
		return nil, ExitPassed
	}
	if a.Run == "" {
		if p.Transcripts, err = replies(ctx, b); err != nil {
			return fail(ExitInfra, "%v", err)
		}
	}
	if a.MaxCostUSD > 0 {
		p.Budget = func() string {
			if spent := meter.Total(); spent.CostUSD >= a.MaxCostUSD {
				return fmt.Sprintf("the audit spent $%.4f, reaching --max-cost-usd %g", spent.CostUSD, a.MaxCostUSD)
			}
			return ""
		}
	}
	r, err := audit.Run(ctx, p)
	if err != nil {
		return fail(ExitUsage, "%v", err)
	}
	for _, o := range outs {
		if err := writeAuditFile(o, r); err != nil {
			fmt.Fprintf(stderr, "gavel audit: %v\n", err)
			return r, ExitInfra
		}
	}
	switch {
	case r.Stopped != "":
		return r, ExitIncomplete
	case !r.Passed():
		return r, ExitFailed
	}
	return r, ExitPassed
}

// auditPlan is the audit of b's model judges on its selected cases, as
// the suite's audit: block and the flags say.
func auditPlan(b *spec.Built, a Auditing, m *Models, meter *llm.Meter, stderr io.Writer) (audit.Plan, error) {
	block := b.Audit
	if block == nil {
		block = &spec.AuditSpec{}
	}
	p := audit.Plan{Suite: b.Suite.Name, Samples: cmp.Or(a.Samples, block.Samples), Probes: a.Probes, Bars: block.Bars(),
		Agent: b.ModelRef("agent"), Concurrency: cmp.Or(a.Concurrency, b.Concurrency)}
	if strings.HasPrefix(p.Agent, "script:") {
		p.Agent = "" // a script plays a part; it has no family
	}
	for _, j := range b.AuditJudges {
		if j.Case == "" || slices.ContainsFunc(b.Suite.Cases, func(c *gavel.Case) bool { return c.ID == j.Case }) {
			p.Judges = append(p.Judges, j)
		}
	}
	if ref := cmp.Or(a.ReferenceModel, block.ReferenceModel); ref != "" {
		model, err := openModel(ref, filepath.Dir(b.Suite.File), m, meter)
		if err != nil {
			return p, fmt.Errorf("reference model: %w", err)
		}
		p.Reference, p.ReferenceModel = model, ref
	}
	bench, where := a.BiasBench, "--bias-bench"
	if bench == "" {
		bench, where = block.BiasBench, "audit.bias_bench"
	}
	if bench != "" {
		pairs, err := audit.ReadBench(bench)
		if err != nil {
			return p, fmt.Errorf("%s: %w", where, err)
		}
		p.Bench, p.BenchName = pairs, filepath.Base(bench)
	}
	return p, nil
}

// openModel opens the model ref as a suite's models are opened (meter,
// retries; a "script:" path relative to dir).
func openModel(ref, dir string, m *Models, meter *llm.Meter) (llm.Model, error) {
	parsed, err := llm.ParseRef(ref)
	if err != nil {
		return nil, err
	}
	if parsed.Provider == "script" && !filepath.IsAbs(parsed.Model) && dir != "" {
		parsed.Model = filepath.Join(dir, parsed.Model)
	}
	open, ok := providers.Registry()[parsed.Provider]
	if !ok {
		return nil, fmt.Errorf("%s: unknown model provider %q", ref, parsed.Provider)
	}
	model, err := open(parsed, os.Getenv)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ref, err)
	}
	return m.Wrapper(meter)("judge", parsed, model), nil
}

// stateCost says, before anything is spent, how many judge calls the
// audit makes, by model, and that the agent runs first when it does.
func stateCost(w io.Writer, p audit.Plan, a Auditing, cases int) {
	calls := p.Calls()
	refs := make([]string, 0, len(calls))
	for ref := range calls {
		refs = append(refs, ref)
	}
	sort.Strings(refs)
	by := make([]string, len(refs))
	for i, ref := range refs {
		by[i] = fmt.Sprintf("%s %d", ref, calls[ref])
	}
	of := fmt.Sprintf("the replies of run %s (%d)", a.Run, len(p.Transcripts))
	if a.Run == "" {
		of = fmt.Sprintf("the agent's replies to %d cases (it runs once on each first, its judges not asked)", cases)
	}
	fmt.Fprintf(w, "gavel audit: %d judges of suite %s on %s: %d judge calls (%s), more if malformed answers are asked again",
		len(p.Judges), p.Suite, of, p.TotalCalls(), strings.Join(by, ", "))
	switch {
	case a.DryRun:
		fmt.Fprintln(w, "; a dry run asks none")
	case a.MaxCostUSD > 0:
		fmt.Fprintf(w, "; it stops at $%g (--max-cost-usd)\n", a.MaxCostUSD)
	default:
		fmt.Fprintln(w, "; --dry-run states this and asks none, --max-cost-usd caps the spend")
	}
}

// storedTranscripts are the first transcript of each case of s in the
// stored run, in the suite's order: a trial whose conversation never
// began has none.
func storedTranscripts(run *store.StoredRun, s *gavel.Suite) []*judge.Transcript {
	var out []*judge.Transcript
	for _, c := range s.Cases {
		for _, cr := range run.Run.Cases {
			if cr.ID() != c.ID {
				continue
			}
			if i := slices.IndexFunc(cr.Trials, func(t gavel.Trial) bool { return t.Transcript != nil && len(t.Transcript.Turns) > 0 }); i >= 0 {
				out = append(out, cr.Trials[i].Transcript)
			}
			break
		}
	}
	return out
}

// replies runs b's agent once on each case, with no judge asked, and
// returns the transcripts of the conversations that completed.
func replies(ctx context.Context, b *spec.Built) ([]*judge.Transcript, error) {
	s := *b.Suite
	s.Cases = make([]*gavel.Case, len(b.Suite.Cases))
	for i, c := range b.Suite.Cases {
		cc := *c
		cc.Judge = judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) {
			return judge.Verdict(true, "not judged: the audit judges it"), nil
		})
		s.Cases[i] = &cc
	}
	run := runner.Run(ctx, &s, runner.Config{Concurrency: b.Concurrency, Trials: 1, Timeout: b.Timeout, FollowUps: b.FollowUps})
	var out []*judge.Transcript
	var failed []string
	for _, cr := range run.Cases {
		for _, t := range cr.Trials {
			if t.Transcript == nil || len(t.Transcript.Turns) == 0 || t.Transcript.Status != judge.ExecSuccess {
				failed = append(failed, cr.ID())
				continue
			}
			out = append(out, t.Transcript)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("the agent completed no conversation (cases %s): there is nothing to judge", strings.Join(failed, ", "))
	}
	return out, nil
}

// auditOutputs reads --out's values for an audit: text, JSON or HTML.
func auditOutputs(args []string) ([]output, error) {
	outs, err := outputs(args)
	if err != nil {
		return nil, err
	}
	for _, o := range outs {
		if o.format != report.Text && o.format != report.JSON && o.format != report.HTML {
			return nil, fmt.Errorf("--out %s: an audit is written as text (.txt), json (.json) or html (.html), not %s", o.path, o.format)
		}
	}
	return outs, nil
}

// writeAuditFile writes the audit's report file whole or not at all.
func writeAuditFile(o output, r *audit.Report) error {
	if err := os.MkdirAll(filepath.Dir(o.path), 0o755); err != nil {
		return fmt.Errorf("report %s: %w", o.path, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(o.path), ".gavel-audit-*")
	if err != nil {
		return fmt.Errorf("report %s: %w", o.path, err)
	}
	defer os.Remove(tmp.Name())
	if err := report.WriteAudit(tmp, o.format, r); err != nil {
		tmp.Close()
		return fmt.Errorf("report %s: %w", o.path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("report %s: %w", o.path, err)
	}
	return os.Rename(tmp.Name(), o.path)
}

// examplesProbe compares the agreement with people's labels of suite's
// judges that take a.Examples, with and without them, on held-out cases:
// gavel calibrate --compare-examples, as one line of the audit.
func examplesProbe(st store.Store, suite string, a Auditing) audit.ExamplesProbe {
	return func(ctx context.Context) ([]audit.ExamplesComparison, error) {
		checks, err := LabelChecks(ctx, st, store.LabelFilter{Suite: suite})
		if err != nil {
			return nil, fmt.Errorf("--examples: the labels of suite %s: %w", suite, err)
		}
		c, err := CompareExamples(ctx, st, checks, ExampleComparing{Examples: a.Examples, Suite: a.Suite})
		if err != nil {
			return nil, fmt.Errorf("--examples: %w", err)
		}
		return []audit.ExamplesComparison{{
			Judge:        "the judges that take " + filepath.Base(a.Examples),
			Labels:       c.Labels,
			KappaWithout: c.Without.Kappa,
			KappaWith:    c.With.Kappa,
		}}, nil
	}
}
