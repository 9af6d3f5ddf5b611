package audit_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gavelhq/gavel/audit"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/llmtest"
	"github.com/gavelhq/gavel/llmjudge"
)

// The planted biases: scripted judge models that answer as a biased judge
// would, deterministically.

// fenced finds the text of a fence named name (response, response_a…)
// in a judge's prompt.
func fenced(req *llm.Request, name string) string {
	re := regexp.MustCompile(`(?s)<` + name + `_[0-9a-f]+>\n(.*?)\n</` + name + `_`)
	m := re.FindStringSubmatch(req.Messages[len(req.Messages)-1].Content)
	if m == nil {
		return ""
	}
	return m[1]
}

// answer is a scripted model that answers every request with f.
func answer(f func(req *llm.Request) string) *llmtest.Scripted {
	return &llmtest.Scripted{Name: "gpt-5-mini", Rules: []llmtest.Rule{{Respond: func(req *llm.Request) (llmtest.Rule, bool) {
		return llmtest.Rule{Text: f(req)}, true
	}}}}
}

func score(v float64) string { return fmt.Sprintf(`{"reasoning": "r", "score": %g}`, v) }

func winner(w string) string { return fmt.Sprintf(`{"reasoning": "r", "winner": %q}`, w) }

// A pairwise judge model that always prefers the response shown first.
func alwaysA() *llmtest.Scripted { return answer(func(*llm.Request) string { return winner("A") }) }

// A pairwise judge model that prefers the response that gives a date,
// wherever it is shown, and else answers tie: no position bias.
func prefersDates() *llmtest.Scripted {
	date := regexp.MustCompile(`\d{4}-\d\d-\d\d`)
	return answer(func(req *llm.Request) string {
		switch {
		case date.MatchString(fenced(req, "response_a")):
			return winner("A")
		case date.MatchString(fenced(req, "response_b")):
			return winner("B")
		}
		return winner("tie")
	})
}

// A rubric judge model that scores 0.6, and adds 0.2 to a reply longer
// than 150 characters.
func prefersLong() *llmtest.Scripted {
	return answer(func(req *llm.Request) string {
		if len(fenced(req, "agent_response")) > 150 {
			return score(0.8)
		}
		return score(0.6)
	})
}

// A rubric judge model that scores 0.8 whatever the length.
func steady(v float64) *llmtest.Scripted {
	return answer(func(*llm.Request) string { return score(v) })
}

// A rubric judge model whose scores alternate, 0.9 then 0.3: every
// judgment asked twice or more is unstable.
func flipFlop() *llmtest.Scripted {
	var n atomic.Int64
	return answer(func(*llm.Request) string {
		if n.Add(1)%2 == 1 {
			return score(0.9)
		}
		return score(0.3)
	})
}

func rubric(t *testing.T, name string, m llm.Model) audit.Judge {
	t.Helper()
	build := func(m llm.Model) (judge.Judge, error) {
		return llmjudge.NewRubric(m, "The reply gives the order's status.", llmjudge.RubricConfig{Options: llmjudge.Options{Name: name}})
	}
	j, err := build(m)
	if err != nil {
		t.Fatal(err)
	}
	return audit.Judge{Name: name, Kind: "rubric", Model: "openai:gpt-5-mini", Judge: j, LLM: m, On: build}
}

func pairwise(t *testing.T, name string, m llm.Model) audit.Judge {
	t.Helper()
	p, err := llmjudge.NewPairwise(m, "Which reply helps more?", llmjudge.PairwiseConfig{Options: llmjudge.Options{Name: name}})
	if err != nil {
		t.Fatal(err)
	}
	baseline := "Your order is on its way."
	return audit.Judge{Name: name, Kind: "pairwise", Model: "openai:gpt-5-mini", LLM: m,
		Compare: func(ctx context.Context, t *judge.Transcript) (llmjudge.PairwiseResult, error) {
			b := *t
			b.FinalResponse = baseline
			return p.Compare(ctx, t, &b)
		}}
}

// replies are the transcripts the judges judge: short replies, one with a
// date.
func replies() []*judge.Transcript {
	var out []*judge.Transcript
	for i, r := range []string{"Order 12345 arrives on 2026-03-14.", "Order 24680 was delivered.", "Which order do you mean?"} {
		out = append(out, &judge.Transcript{CaseID: fmt.Sprintf("case_%d", i+1), Goal: "where is my order?",
			Turns: []judge.Turn{{Role: judge.RoleUser, Content: "where is my order?"}, {Role: judge.RoleAgent, Content: r}}})
	}
	return out
}

func run(t *testing.T, p audit.Plan) *audit.Report {
	t.Helper()
	r, err := audit.Run(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func value(v *float64) string {
	if v == nil {
		return "none"
	}
	return fmt.Sprintf("%.3f", *v)
}

func TestAuditFindsPlantedBiases(t *testing.T) {
	bars := audit.Bars{MaxPositionFlips: ptr(0.1), MaxVerbosityShare: ptr(0.2), MaxVerbosityGain: ptr(0.05), MaxUnstable: ptr(0.1)}
	for _, tc := range []struct {
		name  string
		judge func(t *testing.T) audit.Judge
		// want is what the report says of the judge's probes; fails, the
		// bars it fails.
		position, verbosityShare, verbosityGain, unstable string
		fails                                             []string
	}{
		{name: "always prefers position A",
			judge:    func(t *testing.T) audit.Judge { return pairwise(t, "pw", alwaysA()) },
			position: "1.000", verbosityShare: "0.000", verbosityGain: "0.000", unstable: "0.000",
			fails: []string{"pw: position flips 100% is above the bar of 10%"}},
		{name: "an unbiased pairwise judge",
			judge:    func(t *testing.T) audit.Judge { return pairwise(t, "pw", prefersDates()) },
			position: "0.000", verbosityShare: "0.000", verbosityGain: "0.000", unstable: "0.000"},
		{name: "adds 0.2 to longer replies",
			judge:    func(t *testing.T) audit.Judge { return rubric(t, "long", prefersLong()) },
			position: "none", verbosityShare: "1.000", verbosityGain: "0.200", unstable: "0.000",
			fails: []string{"long: padded replies scoring higher 100% is above the bar of 20%", "long: padding gains +0.200 on average, above the bar of 0.050"}},
		{name: "an unbiased rubric judge",
			judge:    func(t *testing.T) audit.Judge { return rubric(t, "steady", steady(0.8)) },
			position: "none", verbosityShare: "0.000", verbosityGain: "0.000", unstable: "0.000"},
		{name: "unstable verdicts",
			judge:    func(t *testing.T) audit.Judge { return rubric(t, "coin", flipFlop()) },
			position: "none", verbosityShare: "0.000", verbosityGain: "0.000", unstable: "1.000",
			fails: []string{"coin: unstable verdicts 100% is above the bar of 10%"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// One judgment at a time: the coin's answers alternate by call,
			// so its samples must be asked in turn to alternate within
			// each judgment.
			r := run(t, audit.Plan{Judges: []audit.Judge{tc.judge(t)}, Transcripts: replies(), Samples: 2, Bars: bars, Concurrency: 1,
				Probes: []audit.Probe{audit.ProbePosition, audit.ProbeVerbosity, audit.ProbeConsistency}})
			j := r.Judges[0]
			if j.Errors != 0 {
				t.Fatalf("%d errors: %s", j.Errors, j.FirstError)
			}
			var pos *float64
			if j.Position != nil {
				pos = j.Position.Share
			}
			got := []string{value(pos), value(j.Verbosity.Share), value(j.Verbosity.MeanGain), value(j.Consistency.Share)}
			want := []string{tc.position, tc.verbosityShare, tc.verbosityGain, tc.unstable}
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("position flips, verbosity share and gain, unstable: got %v, want %v", got, want)
			}
			if strings.Join(r.Failures, "\n") != strings.Join(tc.fails, "\n") {
				t.Errorf("failures:\n%s\nwant:\n%s", strings.Join(r.Failures, "\n"), strings.Join(tc.fails, "\n"))
			}
			if r.Passed() != (len(tc.fails) == 0) {
				t.Errorf("Passed() = %v with failures %v", r.Passed(), r.Failures)
			}
		})
	}
}

func ptr(v float64) *float64 { return &v }

// The calls stated before the audit are the calls it makes.
func TestAuditCallsAreStatedBeforehand(t *testing.T) {
	rm, pm := steady(0.8), prefersDates()
	bench := []audit.BenchPair{{Bias: "length bias", Instruction: "Say hi.", Better: "Hi.", Worse: "Hello there, 2026-01-01."}}
	p := audit.Plan{Judges: []audit.Judge{rubric(t, "r", rm), pairwise(t, "p", pm)}, Transcripts: replies(), Samples: 3, Bench: bench}
	p.Judges[1].Model = "anthropic:claude-sonnet-4-5"
	p.Judges[0].LLM = nil // the self-test asks the pairwise judge's model alone
	calls := p.Calls()
	// rubric: 3 replies × (3 + 3 padded) × 1 call; pairwise: 3 × (3 +
	// 3) × 2, and 2 for the self-test's pair.
	want := map[string]int{"openai:gpt-5-mini": 18, "anthropic:claude-sonnet-4-5": 36 + 2}
	if fmt.Sprint(calls) != fmt.Sprint(want) || p.TotalCalls() != 56 {
		t.Fatalf("Calls() = %v (%d), want %v (56)", calls, p.TotalCalls(), want)
	}
	run(t, p)
	if got := len(rm.Calls()); got != want["openai:gpt-5-mini"] {
		t.Errorf("the rubric's model was called %d times, stated %d", got, want["openai:gpt-5-mini"])
	}
	if got := len(pm.Calls()); got != want["anthropic:claude-sonnet-4-5"] {
		t.Errorf("the pairwise judge's model was called %d times, stated %d", got, want["anthropic:claude-sonnet-4-5"])
	}
}

func TestSelfTestPerBiasType(t *testing.T) {
	bench := audit.BiasBench()
	better := map[string]bool{}
	for _, p := range bench {
		better[p.Better] = true
	}
	// An oracle: it knows the better response wherever it is shown.
	oracle := answer(func(req *llm.Request) string {
		if better[fenced(req, "response_a")] {
			return winner("A")
		}
		return winner("B")
	})
	for _, tc := range []struct {
		name     string
		model    *llmtest.Scripted
		accuracy string
		flips    int
		fails    int
	}{
		// Asked in both orders, a judge that always answers A flips on
		// every pair: a tie, never the better response.
		{"always A", alwaysA(), "0.000", 42, 1},
		{"an oracle", oracle, "1.000", 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, audit.Plan{Judges: []audit.Judge{rubric(t, "r", tc.model)}, Transcripts: replies(),
				Probes: []audit.Probe{audit.ProbeSelfTest}, Bars: audit.Bars{MinBiasAccuracy: ptr(0.7)}})
			if len(r.SelfTests) != 1 {
				t.Fatalf("got %d self-tests, want 1", len(r.SelfTests))
			}
			st := r.SelfTests[0]
			if value(st.Accuracy) != tc.accuracy || st.Position.Flips != tc.flips || st.Pairs != 42 || len(st.ByBias) != 6 || len(r.Failures) != tc.fails || st.Bench != audit.BiasBenchName {
				t.Errorf("accuracy %s over %d pairs of %q in %d bias types, %d flips, failures %v; want %s over 42 of Gavel's set in 6, %d flips, %d failures",
					value(st.Accuracy), st.Pairs, st.Bench, len(st.ByBias), st.Position.Flips, r.Failures, tc.accuracy, tc.flips, tc.fails)
			}
			if len(r.Judges[0].Model) == 0 || r.Judges[0].Verbosity != nil {
				t.Errorf("only the self-test was asked, yet the judge's report is %+v", r.Judges[0])
			}
		})
	}
}

func TestFamilyGap(t *testing.T) {
	own := rubric(t, "tone", steady(0.9)) // openai:gpt-5-mini, the agent's family
	p := audit.Plan{Judges: []audit.Judge{own}, Transcripts: replies(), Samples: 2,
		Probes: []audit.Probe{audit.ProbeFamily}, Agent: "openai:gpt-5",
		Reference: steady(0.6), ReferenceModel: "anthropic:claude-sonnet-4-5", Bars: audit.Bars{MaxFamilyGap: ptr(0.1)}}
	r := run(t, p)
	f := r.Judges[0].Family
	if f == nil || f.Family != "gpt" || value(f.Gap) != "0.300" || f.Judgments != 3 || f.Reference != "anthropic:claude-sonnet-4-5" {
		t.Fatalf("family: got %+v (gap %s), want gpt, gap 0.300 over 3 judgments against claude", f, value(f.Gap))
	}
	if len(r.Failures) != 1 || !strings.Contains(r.Failures[0], "+0.300") {
		t.Errorf("failures %v, want the family gap's", r.Failures)
	}

	// Another family than the agent's: nothing to measure.
	p.Agent = "anthropic:claude-opus-4-5"
	p.Reference = steady(0.6)
	if r := run(t, p); r.Judges[0].Family != nil {
		t.Errorf("a judge of another family than the agent's was measured: %+v", r.Judges[0].Family)
	}
}

func TestAuditReportsErrorsNotScores(t *testing.T) {
	broken := &llmtest.Scripted{Rules: []llmtest.Rule{{Err: fmt.Errorf("provider down")}}}
	j := rubric(t, "down", broken)
	j.Judge = judge.Func(func(ctx context.Context, t *judge.Transcript) (judge.Judgment, error) {
		return judge.Errored("provider down"), nil
	})
	r := run(t, audit.Plan{Judges: []audit.Judge{j}, Transcripts: replies(), Samples: 2,
		Probes: []audit.Probe{audit.ProbeVerbosity, audit.ProbeConsistency}, Bars: audit.Bars{MaxVerbosityShare: ptr(0)}})
	got := r.Judges[0]
	if got.Errors != 12 || got.Verbosity.Share != nil || got.Consistency.Share != nil || !r.Passed() {
		t.Errorf("got %d errors, verbosity %s, unstable %s, failures %v; want 12 errors and no numbers", got.Errors, value(got.Verbosity.Share), value(got.Consistency.Share), r.Failures)
	}
}

func TestAuditStopsAtTheBudget(t *testing.T) {
	m := steady(0.8)
	var asked atomic.Int64
	r := run(t, audit.Plan{Judges: []audit.Judge{rubric(t, "r", m)}, Transcripts: replies(), Concurrency: 1,
		Probes: []audit.Probe{audit.ProbeConsistency},
		Budget: func() string {
			if asked.Add(1) > 1 {
				return "the budget of $0.01 is spent"
			}
			return ""
		}})
	if r.Stopped != "the budget of $0.01 is spent" || r.Judges[0].Judgments != 1 {
		t.Errorf("stopped %q after %d judgments; want the budget's reason after 1", r.Stopped, r.Judges[0].Judgments)
	}
}

func TestPlanCheck(t *testing.T) {
	j := audit.Judge{Name: "x", Judge: judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) { return judge.Verdict(true, ""), nil })}
	for _, tc := range []struct {
		name string
		p    audit.Plan
		want string
	}{
		{"no judges", audit.Plan{}, "no model judges"},
		{"too many samples", audit.Plan{Judges: []audit.Judge{j}, Samples: 26}, "samples 26: want 1..25"},
		{"an unknown probe", audit.Plan{Judges: []audit.Judge{j}, Probes: []audit.Probe{"length"}}, `unknown probe "length"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := audit.Run(context.Background(), tc.p)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error saying %q", err, tc.want)
			}
		})
	}
}

func TestPad(t *testing.T) {
	tr := &judge.Transcript{Turns: []judge.Turn{
		{Role: judge.RoleUser, Content: "a", Round: 1}, {Role: judge.RoleAgent, Content: "looking", Round: 1}, {Role: judge.RoleAgent, Content: "one", Round: 1},
		{Role: judge.RoleUser, Content: "b", Round: 2}, {Role: judge.RoleAgent, Content: "two", Round: 2},
	}}
	p := audit.Pad(tr)
	for i, want := range []bool{false, false, true, false, true} {
		padded := p.Turns[i].Content != tr.Turns[i].Content
		if padded != want || padded && !strings.Contains(p.Turns[i].Content, tr.Turns[i].Content) {
			t.Errorf("turn %d: %q, padded %v, want %v and the reply kept", i, p.Turns[i].Content, padded, want)
		}
	}
	if tr.Turns[2].Content != "one" {
		t.Error("Pad changed the transcript it was given")
	}
	if strings.Contains(p.Turns[4].Content, "?") {
		t.Error("the filler asks a question: a judge of clarifying questions would see one")
	}
}
