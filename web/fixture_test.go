package web

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/conversation"
	"github.com/gavelhq/gavel/internal/pgtest"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/store"
	"github.com/gavelhq/gavel/store/postgres"
	"github.com/gavelhq/gavel/store/sqlite"
)

// The fixture is a real SQLite store holding:
//
//   - three finished runs of suite support-desk (older, old, latest: the
//     latest fails its threshold), with passing, failing, flaky,
//     errored and skipped cases, tool calls, a revival, an automatic
//     follow-up, a simulated user turn and an event, and a jury; the
//     older two on main (older without a label, old labelled
//     "nightly"), the latest labelled "shorter system prompt" on branch
//     fix/refunds, started by grace;
//   - a run of suite hostile whose agent, tools, judges and suite file
//     write markup, and whose model reference carries a password;
//   - a run of support-desk still running, labelled "prompt v3", on
//     fix/refunds, started by eddie;
//   - the cases' definitions.

// base is when the fixture's runs start.
var base = time.Date(2026, 11, 21, 4, 45, 12, 123456000, time.UTC)

// secrets are the parts of model references that must never reach a
// client.
var secrets = []string{"s3cret", "k3y-value"}

// hostileSuite is the hostile run's suite's name; hostileQuery, the
// same in a query string.
const (
	hostileSuite = `hostile<u>suite</u>`
	hostileQuery = `hostile%3Cu%3Esuite%3C%2Fu%3E`
	// hostileTag is a tag of a support-desk case; hostileTagQuery, the
	// same in a query string.
	hostileTag      = `"><b>tag</b>`
	hostileTagQuery = `%22%3E%3Cb%3Etag%3C%2Fb%3E`
)

// evil is what the hostile run's agent, tools and judges write.
const evil = `<script>alert(1)</script>`

type fixture struct {
	t     *testing.T
	store store.Store
	srv   *Server
	// The runs' ids.
	older, old, latest, hostile, running string
}

// newFixture fills a new store and serves it.
func newFixture(t *testing.T, cfg Config) *fixture {
	t.Helper()
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "gavel.db"))
	if err != nil {
		t.Fatal(err)
	}
	return newFixtureOn(t, cfg, st)
}

// newPostgresFixture is the fixture in a PostgreSQL schema of its own
// (see internal/pgtest).
func newPostgresFixture(t *testing.T, cfg Config) *fixture {
	t.Helper()
	st, err := postgres.Open(context.Background(), pgtest.Schema(t))
	if err != nil {
		t.Fatal(err)
	}
	return newFixtureOn(t, cfg, st)
}

// newFixtureOn fills st, an empty store it closes when the test ends,
// with the fixture.
func newFixtureOn(t *testing.T, cfg Config, st store.Store) *fixture {
	t.Helper()
	t.Cleanup(func() { st.Close() })
	f := &fixture{t: t, store: st}
	ctx := context.Background()

	suite := &gavel.Suite{Name: "support-desk", File: "examples/support-desk/gavel.yaml", Threshold: 0.8,
		Models: map[string]string{"agent": "openai:gpt-5-mini", "judge": "anthropic:claude-sonnet-4-5"}}
	cases := []*gavel.Case{
		testCase("case_001", "Where is order 12345?"),
		testCase("case_002", "cancel my order 12345"),
		testCase("case_003", "I want a refund"),
		testCase("orders/cancel 4", "cancel order 4"),
		testCase("case_005", "never ran"),
	}
	// case_003 alone is also tagged refunds, and orders/cancel 4 a tag
	// that writes markup, for the trends of a tag.
	cases[2].Tags = []string{"orders", "refunds"}
	cases[3].Tags = []string{"orders", hostileTag}
	for _, c := range cases {
		if _, err := st.SaveCase(ctx, store.CaseDef{Suite: suite.Name, ID: c.ID, Name: c.Name, Tags: c.Tags,
			Definition: []byte("id: " + c.ID + "\ninput: " + c.Input() + "\n"), Source: c.Source}); err != nil {
			t.Fatal(err)
		}
	}
	// The older runs pass everything but one case.
	for i, id := range []*string{&f.older, &f.old} {
		run := &gavel.Run{Suite: suite, Cases: []gavel.CaseResult{
			result(cases[0], passing("case_001", 1, 5)),
			result(cases[1], passing("case_002", 1, 4)),
			result(cases[2], passing("case_003", 1, 4)),
			result(cases[3], passing("orders/cancel 4", 1, 3)),
			result(cases[4], failing("case_005", 1)),
		}}
		info := runInfo(suite, base.Add(time.Duration(i)*time.Hour))
		if i == 1 {
			info.Label = "nightly"
		}
		*id = f.save(info, run, store.Passed)
	}
	// The latest regresses case_002, is flaky on case_003, errs on case 4
	// and skips case_005.
	latest := &gavel.Run{Suite: suite, Cases: []gavel.CaseResult{
		result(cases[0], passing("case_001", 1, 5), passing("case_001", 2, 4)),
		result(cases[1], failing("case_002", 1), failing("case_002", 2)),
		result(cases[2], passing("case_003", 1, 3), failing("case_003", 2)),
		result(cases[3], errored("orders/cancel 4", 1), errored("orders/cancel 4", 2)),
		{Case: cases[4], Outcome: gavel.Skipped, SkipReason: "the budget ran out"},
	}, Models: map[string]judge.Usage{"openai:gpt-5-mini": {InputTokens: 5000, OutputTokens: 300, CostUSD: 0.05}}}
	info := runInfo(suite, base.Add(2*time.Hour))
	info.Label, info.GitBranch, info.GitCommit, info.StartedBy = "shorter system prompt", "fix/refunds", "9c1e4f2a77d0b3e1", "grace"
	f.latest = f.save(info, latest, store.Failed)

	// The hostile run: markup everywhere, and a model reference with a
	// password and a key.
	hostileSuite := &gavel.Suite{Name: hostileSuite, File: `suites/<b>hostile</b>.yaml`, Threshold: 0.5,
		Models: map[string]string{"agent": "openai:qwen@https://ada:s3cret@gateway.example/v1?api_key=k3y-value"}}
	hc := testCase("case_x", evil)
	hc.Name, hc.Description, hc.Expected = `<img src=x onerror=alert(2)>`, `"><script>alert(3)</script>`, evil
	ht := passing("case_x", 1, 4)
	ht.Transcript.Turns[1].Content = evil
	ht.Transcript.Turns[1].ToolCalls[0].Result = `</pre><script>alert(4)</script>`
	ht.Transcript.Turns[1].ToolCalls[0].Arguments = json.RawMessage(`{"order_id":"<script>alert(5)</script>"}`)
	ht.Transcript.FinalResponse = evil
	ht.Verdict.Parts[1].Parts[0].Reasoning = `<b onmouseover="alert(6)">hover</b>`
	ht.Verdict.Parts[1].Parts[0].Name = `<i>criterion</i>`
	// The gateway's model has no price: what the agent spent is unknown.
	ht.Usage.Agent = judge.Usage{InputTokens: 10, Unpriced: true}
	hostileRun := &gavel.Run{Suite: hostileSuite, Cases: []gavel.CaseResult{result(hc, ht)},
		Models: map[string]judge.Usage{"openai:qwen@https://ada:s3cret@gateway.example/v1?api_key=k3y-value": {InputTokens: 10, Unpriced: true}}}
	info = runInfo(hostileSuite, base.Add(3*time.Hour))
	info.GitBranch, info.Label = `<script>alert(7)</script>`, `<img src=x onerror=alert(8)>`
	f.hostile = f.save(info, hostileRun, store.Passed)

	// A run still going.
	info = runInfo(suite, base.Add(4*time.Hour))
	info.Label, info.GitBranch, info.GitCommit, info.StartedBy = "prompt v3", "fix/refunds", "a0b1c2d3e4f5", "eddie"
	created, err := st.CreateRun(ctx, info)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.SaveTrial(ctx, created.ID, store.TrialRecord{Trial: passing("case_001", 1, 5)}); err != nil {
		t.Fatal(err)
	}
	f.running = created.ID

	f.srv = New(st, cfg)
	return f
}

// save stores a finished run and returns its id.
func (f *fixture) save(info store.RunInfo, run *gavel.Run, status store.Status) string {
	f.t.Helper()
	ctx := context.Background()
	run.Started = info.Started
	run.Duration = 90 * time.Second
	created, err := f.store.CreateRun(ctx, info)
	if err != nil {
		f.t.Fatal(err)
	}
	for _, c := range run.Cases {
		for _, tr := range c.Trials {
			if err := f.store.SaveTrial(ctx, created.ID, store.TrialRecord{Trial: tr}); err != nil {
				f.t.Fatal(err)
			}
		}
	}
	if err := f.store.FinishRun(ctx, created.ID, store.RunEnd{Status: status, Ended: info.Started.Add(run.Duration), Run: run}); err != nil {
		f.t.Fatal(err)
	}
	return created.ID
}

// get serves a GET request and returns the response and its body.
func (f *fixture) get(path string, header ...string) (*http.Response, string) {
	f.t.Helper()
	return f.do(http.MethodGet, path, header...)
}

// do serves a request; header holds name, value pairs.
func (f *fixture) do(method, path string, header ...string) (*http.Response, string) {
	f.t.Helper()
	return f.send(method, path, "", header...)
}

// send serves a request with a body; header holds name, value pairs. The
// request is addressed to 127.0.0.1, as a browser of an app on loopback
// addresses it.
func (f *fixture) send(method, path, body string, header ...string) (*http.Response, string) {
	f.t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Host = "127.0.0.1:8080"
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Add(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	f.srv.ServeHTTP(rec, req)
	res := rec.Result()
	answer, err := io.ReadAll(res.Body)
	if err != nil {
		f.t.Fatal(err)
	}
	return res, string(answer)
}

// runInfo returns the info of a run of suite started at started.
func runInfo(suite *gavel.Suite, started time.Time) store.RunInfo {
	return store.RunInfo{
		Suite: suite.Name, SuiteFile: suite.File, StartedBy: "ada", Host: "ci-7",
		GitCommit: "5d7e765abcdef0123", GitBranch: "main", Filters: []string{"--tag orders"},
		Models: suite.Models, Settings: map[string]string{"trials": "2", "concurrency": "8"},
		Threshold: suite.Threshold, Started: started,
	}
}

// testCase returns a case as a suite holds it.
func testCase(id, input string) *gavel.Case {
	return &gavel.Case{
		ID: id, Name: "Case " + id, Description: "What " + id + " checks.",
		Tags: []string{"orders"}, Source: "cases.yaml:12",
		Script:   conversation.Script{Rounds: []conversation.Round{{Prompt: input}, {Prompt: "Which order was that?"}}},
		Expected: "calls get_order_status; never calls cancel_order",
	}
}

// result returns a case result of trials, summarized.
func result(c *gavel.Case, trials ...gavel.Trial) gavel.CaseResult {
	r := gavel.CaseResult{Case: c, Trials: trials}
	r.Summarize()
	return r
}

// passing returns a trial that passed, with the given helpfulness (1..5).
func passing(caseID string, n int, helpfulness float64) gavel.Trial {
	return trial(caseID, n, true, helpfulness)
}

// failing returns a trial that called a forbidden tool.
func failing(caseID string, n int) gavel.Trial {
	return trial(caseID, n, false, 2)
}

// trial returns a trial with rounds, tool calls (one failed), a
// revival, an automatic follow-up, a simulated user, an event, and a
// verdict with rules and a jury.
func trial(caseID string, n int, passed bool, helpfulness float64) gavel.Trial {
	started := base.Add(time.Duration(n) * time.Second)
	answer := fmt.Sprintf("Order 12345 has shipped (trial %d).", n)
	calls := []judge.ToolCall{{ID: "call_1", Name: "get_order_status", Arguments: json.RawMessage(`{"order_id":"12345"}`),
		Result: `{"status":"shipped"}`, Duration: 30 * time.Millisecond}}
	if !passed {
		calls = append(calls, judge.ToolCall{ID: "call_2", Name: "cancel_order", Arguments: json.RawMessage(`{"confirmation":true,"order_id":"12345"}`),
			Result: "order has already shipped", IsError: true, Duration: 12 * time.Millisecond})
	}
	agentUsage := judge.Usage{InputTokens: 1200, OutputTokens: 80, CachedTokens: 1000, CostUSD: 0.0123}
	transcript := &judge.Transcript{
		CaseID: caseID, Trial: n, Goal: "cancel my order 12345",
		Turns: []judge.Turn{
			{Role: judge.RoleUser, Content: "cancel my order 12345", Time: started, Round: 1},
			{Role: judge.RoleAgent, Content: "Let me check.", Latency: 1500 * time.Millisecond, Round: 1, Usage: agentUsage, ToolCalls: calls,
				FollowUp: &judge.FollowUpCheck{By: judge.FollowUpByModel, NeedsFollowUp: true, Reason: "asks which order", Usage: judge.Usage{InputTokens: 150, OutputTokens: 12}}},
			{Role: judge.RoleUser, Content: "The one from Tuesday.", Round: 1, Origin: judge.OriginFollowUp},
			{Role: judge.RoleAgent, Content: "Found it.", Round: 1},
			{Role: judge.RoleEvent, Content: "order 12345 delivered", Round: 2},
			{Role: judge.RoleUser, Content: "Which order was that?", Round: 2, Origin: judge.OriginSimulated},
			{Role: judge.RoleAgent, Content: answer, Latency: time.Second, Round: 2},
		},
		FinalResponse: answer,
		SessionID:     fmt.Sprintf("sess-%d", n),
		Revivals:      []judge.Revival{{BeforeTurn: 4}},
		Status:        judge.ExecSuccess,
		Started:       started,
		Duration:      3 * time.Second,
		Usage:         agentUsage,
	}
	help, err := judge.Number(helpfulness, 1, 5)
	if err != nil {
		panic(err)
	}
	tone, err := judge.Category("warm", []judge.Label{{Name: "cold", Value: 0}, {Name: "warm", Value: 1}})
	if err != nil {
		panic(err)
	}
	status := judge.StatusPass
	forbidden := judge.Judgment{Name: "forbidden_tools cancel_order", Status: judge.StatusPass, Score: judge.Bool(true), Reasoning: "never called cancel_order"}
	if !passed {
		status = judge.StatusFail
		forbidden = judge.Judgment{Name: "forbidden_tools cancel_order", Status: judge.StatusFail, Score: judge.Bool(false),
			Reasoning: "called forbidden tool cancel_order (call 2)",
			Checks:    []judge.Check{{Name: "call 2", Passed: false, Message: "cancel_order"}}}
	}
	judgeUsage := judge.Usage{InputTokens: 900, OutputTokens: 40, CostUSD: 0.002}
	verdict := judge.Judgment{
		Name: "tiered", Status: status, DecidedBy: "tier 1",
		Parts: []judge.Judgment{
			{Name: "all", Status: status, Parts: []judge.Judgment{
				{Name: "expected_tools get_order_status", Status: judge.StatusPass, Score: judge.Bool(true), Reasoning: "called get_order_status"},
				forbidden,
			}, Findings: []judge.Finding{{Judge: "max_bubbles 2", Message: "turn 2 has 3 bubbles"}}},
			{Name: "jury", Status: judge.StatusPass, Score: judge.Unit(0.75), DecidedBy: "majority", Parts: []judge.Judgment{
				{Name: "helpfulness", Status: judge.StatusPass, Score: help, Reasoning: "looked it up\nthen answered", Usage: judgeUsage},
				{Name: "tone", Status: judge.StatusPass, Score: tone, Usage: judgeUsage},
			}, Usage: judgeUsage.Add(judgeUsage)},
		},
		Usage: judgeUsage.Add(judgeUsage),
	}
	return gavel.Trial{CaseID: caseID, N: n, Transcript: transcript, Verdict: verdict,
		Usage: gavel.RoleUsage{Agent: agentUsage, Judge: judgeUsage.Add(judgeUsage), SimulatedUser: judge.Usage{InputTokens: 300, OutputTokens: 20, CostUSD: 0.0004},
			FollowUp: judge.Usage{InputTokens: 150, OutputTokens: 12, CostUSD: 0.0001}},
		Duration: 4 * time.Second}
}

// errored returns a trial whose conversation timed out.
func errored(caseID string, n int) gavel.Trial {
	return gavel.Trial{CaseID: caseID, N: n,
		Transcript: &judge.Transcript{CaseID: caseID, Trial: n, Goal: "cancel order 4", Status: judge.ExecTimeout,
			Error: "agent did not answer within 30s", Started: base, Duration: 30 * time.Second},
		Verdict:  judge.Errored("conversation failed: agent did not answer within 30s"),
		Duration: 30 * time.Second}
}

// mustContain fails the test for each of wants that body lacks.
func mustContain(t *testing.T, what, body string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(body, w) {
			t.Errorf("%s: no %q in:\n%s", what, w, shortBody(body))
		}
	}
}

// mustNotContain fails the test for each of unwanted that body holds.
func mustNotContain(t *testing.T, what, body string, unwanted ...string) {
	t.Helper()
	for _, u := range unwanted {
		if strings.Contains(body, u) {
			t.Errorf("%s: %q should not be in:\n%s", what, u, shortBody(body))
		}
	}
}

// shortBody cuts a body for a failure message.
func shortBody(body string) string {
	if len(body) > 3000 {
		return body[:3000] + "…"
	}
	return body
}
