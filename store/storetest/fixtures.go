package storetest

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/conversation"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/store"
)

// base is the time the fixtures' runs start around: with nanoseconds, as
// clocks give it, and a zone that is not UTC.
var base = time.Date(2026, 11, 21, 4, 45, 12, 123456789, time.FixedZone("CET", 3600))

// A trialSpec describes a fixture trial.
type trialSpec struct {
	status judge.Status
	// helpfulness is the 1..5 score of the "helpfulness" criterion.
	helpfulness float64
	// tone is the "tone" criterion's label: "cold" (0) or "warm" (1).
	tone string
	// big adds this many bytes of incompressible text to the agent's answer.
	big int
}

// trial returns a trial with everything a transcript and a verdict can
// hold: rounds, tool calls, a revival, usage on every level, checks,
// findings, a jury with numerical and categorical criteria.
func trial(caseID string, n int, spec trialSpec) gavel.Trial {
	if spec.status == "" {
		spec.status = judge.StatusPass
	}
	if spec.helpfulness == 0 {
		spec.helpfulness = 4
	}
	if spec.tone == "" {
		spec.tone = "warm"
	}
	started := base.Add(time.Duration(n) * time.Second)
	answer := fmt.Sprintf("Order 12345 has shipped (trial %d).", n)
	if spec.big > 0 {
		raw := make([]byte, spec.big*3/4)
		r := rand.NewChaCha8([32]byte{byte(n)})
		r.Read(raw)
		answer += " " + base64.StdEncoding.EncodeToString(raw)
	}
	agentUsage := judge.Usage{InputTokens: 1200 + int64(n), OutputTokens: 80, CachedTokens: 1000, CostUSD: 0.0123, Calls: 3, CacheHits: 1}
	transcript := &judge.Transcript{
		CaseID: caseID,
		Trial:  n,
		Goal:   "cancel my order 12345",
		Context: []judge.Turn{
			{Role: judge.RoleSystem, Content: "You are a support agent."},
		},
		Turns: []judge.Turn{
			{Role: judge.RoleUser, Content: "cancel my order 12345", Time: started, Round: 1},
			{
				Role: judge.RoleAgent, Content: "Let me check.", Time: started.Add(1500 * time.Millisecond),
				Latency: 1500 * time.Millisecond, Round: 1, Usage: agentUsage,
				ToolCalls: []judge.ToolCall{
					{ID: "call_1", Name: "get_order_status", Arguments: json.RawMessage(`{"order_id":"12345"}`), Result: `{"status":"shipped"}`, Duration: 30 * time.Millisecond, Replayed: judge.ReplayRecorded},
					{ID: "call_2", Name: "cancel_order", Arguments: json.RawMessage(`{"confirmation":true,"order_id":"12345"}`), Result: "order has already shipped", IsError: true, Duration: 12 * time.Millisecond},
				},
			},
			{Role: judge.RoleUser, Content: "Which order was that?", Time: started.Add(2 * time.Second), Round: 2, Origin: judge.OriginFollowUp},
			{Role: judge.RoleAgent, Content: answer, Time: started.Add(3 * time.Second), Latency: time.Second, Round: 2},
		},
		FinalResponse: answer,
		SessionID:     fmt.Sprintf("sess-%s-%d", caseID, n),
		Revivals:      []judge.Revival{{BeforeTurn: 2, Time: started.Add(1900 * time.Millisecond), How: "session closed and reopened from its checkpoint"}},
		Workspace:     "/tmp/ws",
		Status:        judge.ExecSuccess,
		Started:       started,
		Duration:      3 * time.Second,
		Usage:         agentUsage,
		Metadata:      map[string]string{"agent_version": "1.2.3"},
	}
	helpfulness, err := judge.Number(spec.helpfulness, 1, 5)
	if err != nil {
		panic(err)
	}
	tone, err := judge.Category(spec.tone, []judge.Label{{Name: "cold", Value: 0}, {Name: "warm", Value: 1}})
	if err != nil {
		panic(err)
	}
	judgeUsage := judge.Usage{InputTokens: 900, OutputTokens: 40, CostUSD: 0.002, Calls: 1}
	verdict := judge.Judgment{
		Name:      "tiered",
		Status:    spec.status,
		DecidedBy: "tier 2",
		Reasoning: "tier 2 decided",
		Parts: []judge.Judgment{
			{
				Name: "all", Status: judge.StatusPass, Score: judge.Bool(true),
				Parts: []judge.Judgment{{
					Name: "expected_tools get_order_status", Status: judge.StatusPass, Score: judge.Bool(true),
					Reasoning: "called get_order_status",
					Checks:    []judge.Check{{Name: "call 1", Passed: true, Message: "get_order_status"}},
				}},
				Findings: []judge.Finding{{Judge: "max_bubbles 2", Message: "turn 2 has 3 bubbles"}},
			},
			{
				Name: "jury", Status: spec.status, Score: judge.Unit(0.75), DecidedBy: "majority",
				Parts: []judge.Judgment{
					{Name: "helpfulness", Status: spec.status, Score: helpfulness, Reasoning: "looked it up\nthen answered", Usage: judgeUsage, Duration: 800 * time.Millisecond,
						Threshold: judge.AtLeast(spec.helpfulness, 3)}, // the line its verdict was drawn at comes back too
					{Name: "tone", Status: judge.StatusPass, Score: tone, Usage: judgeUsage},
					{Name: "abstainer", Status: judge.StatusAbstain, Reasoning: "not applicable"},
				},
				Usage: judgeUsage.Add(judgeUsage),
			},
		},
		Usage:    judgeUsage.Add(judgeUsage),
		Duration: 1700 * time.Millisecond,
	}
	return gavel.Trial{
		CaseID:     caseID,
		N:          n,
		Transcript: transcript,
		Verdict:    verdict,
		Usage: gavel.RoleUsage{
			Agent:         agentUsage,
			Judge:         judgeUsage.Add(judgeUsage),
			SimulatedUser: judge.Usage{InputTokens: 300, OutputTokens: 20, CostUSD: 0.0004, Calls: 2, CacheHits: 2},
			// The follow-up detector's model has no price in even trials.
			FollowUp: judge.Usage{InputTokens: 150, OutputTokens: 12, CostUSD: 0.0001, Unpriced: n%2 == 0, Calls: 1},
		},
		Models: map[string]judge.Usage{
			"claude-sonnet-4-5": agentUsage,
			"gpt-5-mini":        judgeUsage.Add(judgeUsage).Add(judge.Usage{InputTokens: 300, OutputTokens: 20, CostUSD: 0.0004, Calls: 2, CacheHits: 2}),
			"my-finetune":       {InputTokens: 150, OutputTokens: 12, CostUSD: 0.0001, Unpriced: n%2 == 0, Calls: 1},
		},
		Duration: 4*time.Second + time.Duration(n)*time.Millisecond,
	}
}

// errorTrial returns a trial whose conversation did not complete.
func errorTrial(caseID string, n int) gavel.Trial {
	return gavel.Trial{
		CaseID: caseID,
		N:      n,
		Transcript: &judge.Transcript{
			CaseID: caseID, Trial: n, Goal: "where is my order?", Status: judge.ExecTimeout,
			Error: "agent did not answer within 30s", Started: base, Duration: 30 * time.Second,
		},
		Verdict:  judge.Errored("conversation failed: agent did not answer within 30s"),
		Duration: 30 * time.Second,
	}
}

// testCase returns a case as a suite would hold it.
func testCase(id, input string) *gavel.Case {
	return &gavel.Case{
		ID:          id,
		Name:        "Case " + id,
		Description: "What " + id + " checks.",
		Tags:        []string{"orders", id},
		Source:      "cases.yaml:" + fmt.Sprint(len(id)*7),
		Script:      conversation.Script{Rounds: []conversation.Round{{Prompt: input}, {Prompt: "Which order was that?"}}},
		Expected:    "calls get_order_status; never calls cancel_order",
	}
}

// runInfo returns the info of a run of suite, started at started.
func runInfo(suite string, started time.Time) store.RunInfo {
	return store.RunInfo{
		Suite:     suite,
		SuiteFile: "examples/" + suite + "/gavel.yaml",
		StartedBy: "ada",
		Host:      "ci-7",
		GitCommit: "5d7e765",
		GitBranch: "main",
		Filters:   []string{"--tag", "orders"},
		Models:    map[string]string{"agent": "openai:gpt-5-mini", "judge": "anthropic:claude-sonnet-4-5"},
		Settings:  map[string]string{"trials": "3", "concurrency": "8"},
		Threshold: 0.8,
		Started:   started,
	}
}

// result returns a case result of the given trials, summarized.
func result(c *gavel.Case, trials ...gavel.Trial) gavel.CaseResult {
	r := gavel.CaseResult{Case: c, Trials: trials}
	r.Summarize()
	return r
}

// skipped returns a case result that did not run.
func skipped(c *gavel.Case, reason string) gavel.CaseResult {
	return gavel.CaseResult{Case: c, Outcome: gavel.Skipped, SkipReason: reason}
}
