package report

import (
	"strings"
	"testing"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
)

// cachedRun is a run of one failing case whose second trial Gavel's cache
// answered: trial 1's agent turn made 2 fresh model calls, trial 2's made
// 2 calls the cache answered and one that it answered in part (1 of 3).
func cachedRun() *gavel.Run {
	cs := &gavel.Case{ID: "case_001", Script: prompts("hello")}
	fresh := judge.Usage{InputTokens: 1000, OutputTokens: 100, CostUSD: 0.01, Calls: 2}
	hits := judge.Usage{Calls: 2, CacheHits: 2}
	partly := judge.Usage{InputTokens: 500, OutputTokens: 50, CostUSD: 0.005, Calls: 3, CacheHits: 1}
	fail := judge.Judgment{Name: "says bye", Status: judge.StatusFail, Score: judge.Bool(false), Reasoning: "no bye"}
	tr := func(n int, usage ...judge.Usage) gavel.Trial {
		var turns []judge.Turn
		var agent judge.Usage
		for _, u := range usage {
			turn := agentTurn(1, "hello!")
			turn.Usage = u
			turns = append(turns, turn)
			agent = agent.Add(u)
		}
		t := transcript("hello", turns...)
		t.CaseID, t.Trial, t.Usage = cs.ID, n, agent
		return gavel.Trial{CaseID: cs.ID, N: n, Transcript: t, Verdict: fail, Usage: gavel.RoleUsage{Agent: agent}}
	}
	cr := gavel.CaseResult{Case: cs, Trials: []gavel.Trial{tr(1, fresh), tr(2, hits, partly)}}
	cr.Summarize()
	return &gavel.Run{
		Suite: &gavel.Suite{Name: "cached", Cases: []*gavel.Case{cs}, Threshold: 1}, Cases: []gavel.CaseResult{cr}, Started: start,
		Models: map[string]judge.Usage{"gpt-5-mini": fresh.Add(hits).Add(partly)},
	}
}

// Every report says how many model calls a run made and how many the
// cache answered, and marks the turns the cache answered, in whole or in
// part.
func TestReportsMarkCacheHits(t *testing.T) {
	run := cachedRun()
	tests := []struct {
		format Format
		opts   Options
		want   []string
	}{
		{Text, Options{Verbose: true}, []string{
			"Tokens: 1,650 (agent 1,650; 7 calls, 3 answered from the cache)",
			"gpt-5-mini | 7 (3 from the cache) | 1,650",
			"agent (answered from the cache):",
			"agent (1 of 3 model calls answered from the cache):",
		}},
		{Markdown, Options{Verbose: true}, []string{
			"1,650 tokens (7 calls, 3 answered from the cache)",
			"| gpt-5-mini | 7 (3 from the cache) | 1,650 |",
			"· agent (answered from the cache):**",
			"· agent (1 of 3 model calls answered from the cache):**",
		}},
		{HTML, Options{}, []string{
			"1,650 tokens (7 calls, 3 answered from the cache)",
			"7 (3 from the cache)",
			"agent (answered from the cache)</div>",
			"agent (1 of 3 model calls answered from the cache)</div>",
		}},
		{JSON, Options{}, []string{
			`"calls":7,"cache_hits":3`,
			`"usage":{"calls":2,"cache_hits":2}`,
		}},
	}
	for _, tt := range tests {
		t.Run(string(tt.format), func(t *testing.T) {
			out := write(t, tt.format, run, tt.opts)
			if tt.format == JSON {
				out = strings.NewReplacer(" ", "", "\n", "").Replace(out)
			}
			for _, want := range tt.want {
				if !strings.Contains(out, want) {
					t.Errorf("the report lacks %q:\n%s", want, out)
				}
			}
		})
	}
}

func TestCalls(t *testing.T) {
	tests := []struct {
		u                     judge.Usage
		calls, cell, turnNote string
	}{
		{judge.Usage{}, "", "-", ""},
		{judge.Usage{Calls: 1}, "1 call", "1", ""},
		{judge.Usage{Calls: 1, CacheHits: 1}, "1 call, answered from the cache", "1 (1 from the cache)", "answered from the cache"},
		{judge.Usage{Calls: 1200}, "1,200 calls", "1,200", ""},
		{judge.Usage{Calls: 12, CacheHits: 4}, "12 calls, 4 answered from the cache", "12 (4 from the cache)", "4 of 12 model calls answered from the cache"},
		{judge.Usage{Calls: 3, CacheHits: 3}, "3 calls, all answered from the cache", "3 (3 from the cache)", "answered from the cache"},
	}
	for _, tt := range tests {
		if got := calls(tt.u); got != tt.calls {
			t.Errorf("calls(%+v) = %q, want %q", tt.u, got, tt.calls)
		}
		if got := callsCell(tt.u); got != tt.cell {
			t.Errorf("callsCell(%+v) = %q, want %q", tt.u, got, tt.cell)
		}
		if got := fromCache(tt.u); got != tt.turnNote {
			t.Errorf("fromCache(%+v) = %q, want %q", tt.u, got, tt.turnNote)
		}
	}
}
