package main

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/conversation"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/store"
)

// The history the store benchmark writes: runs of a few suites, on a few
// branches, each of the same number of trials (two per case), with small
// transcripts (a question, a tool call, an answer) and verdicts as gavel
// run writes them: rules, then a jury of three scored criteria, so that
// trial_scores and run_criteria fill up. Everything follows from a run's
// index, so two seedings write the same history (bar the run IDs, which
// the store draws).

// A benchSuite is a suite of the generated history: its share of the runs
// and the pass rate its trials hover around.
type benchSuite struct {
	Name     string
	Share    float64
	PassRate float64
}

var benchSuites = []benchSuite{
	{"support-desk", 0.4, 0.90},
	{"billing", 0.3, 0.85},
	{"search", 0.2, 0.80},
	{"onboarding", 0.1, 0.95},
}

// Of the runs, 70% are on main, 10% on release, and 20% on feature
// branches that each live for a hundred runs (feature/0 for runs 0–99,
// and so on): about 20 runs each.
const (
	mainBranch    = "main"
	releaseBranch = "release"
)

// trialsPerCase is how many trials each case of a generated run has.
const trialsPerCase = 2

// benchThreshold is the generated suites' threshold: a run whose pass
// rate is below it failed.
const benchThreshold = 0.8

// historyStart is when the first generated run starts; the next start
// every half hour or so, so 10,000 runs span seven months.
var historyStart = time.Date(2025, 6, 2, 8, 0, 0, 0, time.UTC)

// A runPlan is one run of the generated history, before it is written.
type runPlan struct {
	Index   int
	Suite   benchSuite
	Branch  string
	Started time.Time
	// Errored runs (1%) could not reach the agent: every trial is an
	// ERROR. Interrupted ones (1%) were stopped by a budget or Ctrl-C.
	Errored, Interrupted bool
	passRate             float64 // the chance that a trial passes
	rng                  *rand.Rand
}

// planRun returns the plan of the i-th run of the history.
func planRun(i int) runPlan {
	rng := rand.New(rand.NewPCG(0x6761_76656c, uint64(i)))
	p := runPlan{Index: i, rng: rng}
	x := rng.Float64()
	for _, s := range benchSuites {
		p.Suite = s
		if x -= s.Share; x < 0 {
			break
		}
	}
	switch b := rng.Float64(); {
	case b < 0.7:
		p.Branch = mainBranch
	case b < 0.8:
		p.Branch = releaseBranch
	default:
		p.Branch = fmt.Sprintf("feature/%d", i/100)
	}
	p.Started = historyStart.Add(time.Duration(i)*30*time.Minute + time.Duration(rng.Int64N(int64(10*time.Minute))))
	switch s := rng.Float64(); {
	case s < 0.01:
		p.Errored = true
	case s < 0.02:
		p.Interrupted = true
	}
	// The pass rate drifts over the months, and varies from run to run.
	p.passRate = min(1, p.Suite.PassRate+0.08*math.Sin(float64(i)/700)+0.04*(rng.Float64()-0.5))
	return p
}

// info returns the RunInfo the run is created with.
func (p runPlan) info() store.RunInfo {
	commit := make([]byte, 20)
	for i := range commit {
		commit[i] = byte(p.rng.UintN(256))
	}
	return store.RunInfo{
		Suite:     p.Suite.Name,
		SuiteFile: "suites/" + p.Suite.Name + "/gavel.yaml",
		StartedBy: []string{"ada", "grace", "ci"}[p.Index%3],
		Host:      fmt.Sprintf("ci-%d", p.Index%7),
		GitCommit: fmt.Sprintf("%x", commit),
		GitBranch: p.Branch,
		Models:    map[string]string{"agent": "openai:gpt-5-mini", "judge": "anthropic:claude-sonnet-4-5", "user": "openai:gpt-5-nano"},
		Settings:  map[string]string{"concurrency": "64", "trials": fmt.Sprint(trialsPerCase), "timeout": "5m0s"},
		Threshold: benchThreshold,
		Started:   p.Started,
	}
}

// benchCase returns the case of a generated suite with index c (from 0).
func benchCase(suite string, c int) *gavel.Case {
	id := fmt.Sprintf("case_%03d", c+1)
	return &gavel.Case{
		ID:       id,
		Name:     fmt.Sprintf("%s %s", strings.ToUpper(suite[:1])+suite[1:], id),
		Tags:     []string{"orders", []string{"smoke", "policy", "regression"}[c%3]},
		Source:   fmt.Sprintf("cases.yaml:%d", 4+6*c),
		Script:   conversation.Script{Rounds: []conversation.Round{{Prompt: prompts[c%len(prompts)]}}},
		Expected: "calls get_order_status; " + judgePrompt,
	}
}

// caseDef returns a generated case's definition, as SaveCase takes it.
func caseDef(suite string, c *gavel.Case) store.CaseDef {
	def := fmt.Sprintf("id: %s\nname: %s\ninput: %q\nexpected_tools: [get_order_status]\njudge_prompt: %s\n",
		c.ID, c.Name, c.Script.Rounds[0].Prompt, judgePrompt)
	return store.CaseDef{Suite: suite, ID: c.ID, Name: c.Name, Tags: c.Tags, Definition: []byte(def), Source: c.Source}
}

// casesPerRun returns how many cases a run of n trials has.
func casesPerRun(n int) int { return (n + trialsPerCase - 1) / trialsPerCase }

const judgePrompt = "The agent answers with the order's status and nothing it could not know."

var prompts = []string{
	"Where is my order %d?",
	"Has order %d shipped yet?",
	"Cancel my order %d, please.",
	"I was charged twice for order %d.",
	"Can I change the address of order %d?",
}

var sentences = []string{
	"I looked up order %d for you.",
	"It left our warehouse on Tuesday and is with the carrier now.",
	"The tracking page should update within a day.",
	"It cannot be cancelled any more, as it has already shipped.",
	"You can return it free of charge within 30 days of delivery.",
	"I have not changed anything on the order.",
	"Is there anything else I can help you with?",
}

// build returns the run whole, its trials as they are saved (in the
// order they finish: shuffled), and the status it ends with.
func (p runPlan) build(trialsPerRun int) (*gavel.Run, []gavel.Trial, store.Status) {
	run := &gavel.Run{
		Suite:   &gavel.Suite{Name: p.Suite.Name, File: "suites/" + p.Suite.Name + "/gavel.yaml", Threshold: benchThreshold},
		Started: p.Started,
	}
	if p.Interrupted {
		run.Stopped, run.StopReason = gavel.StopInterrupted, "the run was interrupted"
	}
	var all []gavel.Trial
	for c := range casesPerRun(trialsPerRun) {
		r := gavel.CaseResult{Case: benchCase(p.Suite.Name, c)}
		for n := 1; n <= trialsPerCase && len(all) < trialsPerRun; n++ {
			t := p.trial(r.Case, n)
			r.Trials = append(r.Trials, t)
			all = append(all, t)
			run.Duration = max(run.Duration, t.Duration)
		}
		r.Summarize()
		run.Cases = append(run.Cases, r)
	}
	p.rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	run.Duration += time.Duration(len(all)) * 50 * time.Millisecond
	var total judge.Usage
	for _, t := range all {
		total = total.Add(t.Usage.Agent)
	}
	run.Models = map[string]judge.Usage{"openai:gpt-5-mini": total}
	status := store.Passed
	switch {
	case p.Errored:
		status = store.Errored
	case p.Interrupted:
		status = store.Incomplete
	case !gavel.Reaches(run.Stats().PassRate, benchThreshold):
		status = store.Failed
	}
	return run, all, status
}

// trial returns trial n of case c: a question, a tool call, an answer
// and its verdict: about 1.2 and 1.7 KB of JSON, 520 and 550 bytes compressed.
func (p runPlan) trial(c *gavel.Case, n int) gavel.Trial {
	rng := p.rng
	order := 10000 + rng.IntN(90000)
	goal := fmt.Sprintf(c.Script.Rounds[0].Prompt, order)
	started := p.Started.Add(time.Duration(rng.Int64N(int64(time.Minute))))
	agentUsage := judge.Usage{InputTokens: 1100 + rng.Int64N(400), OutputTokens: 40 + rng.Int64N(120), CachedTokens: 1024}
	agentUsage.CostUSD = float64(agentUsage.InputTokens)*0.25e-6 + float64(agentUsage.OutputTokens)*2e-6
	t := gavel.Trial{
		CaseID:   c.ID,
		N:        n,
		Usage:    gavel.RoleUsage{Agent: agentUsage},
		Duration: 2*time.Second + time.Duration(rng.Int64N(int64(6*time.Second))),
	}
	if p.Errored {
		t.Transcript = &judge.Transcript{CaseID: c.ID, Trial: n, Goal: goal, Status: judge.ExecTimeout,
			Error: "agent did not answer within 30s", Started: started, Duration: 30 * time.Second}
		t.Verdict = judge.Errored("conversation failed: agent did not answer within 30s")
		t.Usage, t.Duration = gavel.RoleUsage{}, 30*time.Second
		return t
	}
	var answer []string
	answer = append(answer, fmt.Sprintf(sentences[0], order))
	for range 2 + rng.IntN(3) {
		answer = append(answer, sentences[1+rng.IntN(len(sentences)-1)])
	}
	final := strings.Join(answer, " ")
	latency := 800*time.Millisecond + time.Duration(rng.Int64N(int64(3*time.Second)))
	t.Transcript = &judge.Transcript{
		CaseID: c.ID,
		Trial:  n,
		Goal:   goal,
		Turns: []judge.Turn{
			{Role: judge.RoleUser, Content: goal, Time: started, Round: 1},
			{Role: judge.RoleAgent, Content: final, Time: started.Add(latency), Latency: latency, Round: 1, Usage: agentUsage,
				ToolCalls: []judge.ToolCall{{ID: fmt.Sprintf("call_%d", rng.IntN(1e6)), Name: "get_order_status",
					Arguments: json.RawMessage(fmt.Sprintf(`{"order_id":"%d"}`, order)),
					Result:    fmt.Sprintf(`{"order_id":"%d","status":"shipped","carrier":"DHL"}`, order),
					Duration:  time.Duration(5+rng.IntN(40)) * time.Millisecond}}},
		},
		FinalResponse: final,
		SessionID:     fmt.Sprintf("sess-%d-%s-%d", p.Index, c.ID, n),
		Status:        judge.ExecSuccess,
		Started:       started,
		Duration:      latency,
		Usage:         agentUsage,
	}
	t.Verdict, t.Usage.Judge = p.verdict(rng.Float64() < p.passRate)
	return t
}

var toneLabels = []judge.Label{{Name: "cold", Value: 0}, {Name: "neutral", Value: 0.5}, {Name: "warm", Value: 1}}

// verdict returns a tiered verdict: two rules, then a jury of three
// scored criteria (helpfulness 1–5, accuracy 0–1, tone by label).
func (p runPlan) verdict(pass bool) (judge.Judgment, judge.Usage) {
	rng := p.rng
	status, help, acc := judge.StatusPass, float64(3+rng.IntN(3)), 0.7+0.3*rng.Float64()
	if !pass {
		status, help, acc = judge.StatusFail, float64(1+rng.IntN(3)), 0.6*rng.Float64()
	}
	helpfulness, _ := judge.Number(help, 1, 5)
	tone, _ := judge.Category(toneLabels[rng.IntN(len(toneLabels))].Name, toneLabels)
	usage := judge.Usage{InputTokens: 700 + rng.Int64N(300), OutputTokens: 60 + rng.Int64N(60)}
	usage.CostUSD = float64(usage.InputTokens)*3e-6 + float64(usage.OutputTokens)*15e-6
	reasoning := "The answer gives the order's status from the tool's result"
	if !pass {
		reasoning = "The answer promises a refund the tool never mentioned"
	}
	jurors := []judge.Judgment{
		{Name: "helpfulness", Status: status, Score: helpfulness, Reasoning: reasoning + ", and offers a next step.", Usage: usage, Duration: time.Second},
		{Name: "accuracy", Status: status, Score: judge.Unit(acc), Reasoning: reasoning + ".", Usage: usage, Duration: time.Second},
		{Name: "tone", Status: judge.StatusPass, Score: tone, Reasoning: "Polite and to the point.", Usage: usage, Duration: time.Second},
	}
	all := usage.Add(usage).Add(usage)
	return judge.Judgment{
		Name: "tiered", Status: status, DecidedBy: "tier 2", Reasoning: "tier 2 decided",
		Parts: []judge.Judgment{
			{Name: "all", Status: judge.StatusPass, Score: judge.Bool(true), Parts: []judge.Judgment{
				{Name: "expected_tools get_order_status", Status: judge.StatusPass, Score: judge.Bool(true), Reasoning: "called get_order_status",
					Checks: []judge.Check{{Name: "call 1", Passed: true, Message: "get_order_status"}}},
				{Name: "forbidden_tools cancel_order", Status: judge.StatusPass, Score: judge.Bool(true), Reasoning: "never called cancel_order"},
			}},
			{Name: "jury", Status: status, Score: judge.Unit((helpfulness.Normalized() + acc + tone.Normalized()) / 3), DecidedBy: "majority",
				Parts: jurors, Usage: all},
		},
		Usage:    all,
		Duration: 1200 * time.Millisecond,
	}, all
}
