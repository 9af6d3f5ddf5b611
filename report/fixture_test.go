package report

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/conversation"
	"github.com/gavelhq/gavel/judge"
)

// start is when the fixture's run started: fixed, so reports are too.
var start = time.Date(2026, 3, 9, 10, 0, 0, 0, time.UTC)

// fixture returns a run with one case of every kind a report must show:
//
//   - case_001 passes;
//   - case_005 is the seeds' policy edge: the agent cancels without asking,
//     and the hard rules fail;
//   - case_003 errors: the agent timed out;
//   - case_004 is flaky: 2 of 3 trials pass;
//   - case_006 was skipped: the budget ran out;
//   - case_007 has two rounds, an automatic follow-up, a revival of the
//     session and a failed tool call, and fails in round 2;
//   - case_008's reply is hostile: markup, "]]>", control characters,
//     pipes and backticks.
func fixture(t *testing.T) *gavel.Run {
	t.Helper()
	cases := []*gavel.Case{
		{ID: "case_001", Name: "order status lookup", Tags: []string{"happy_path", "lookup"}, Difficulty: "easy",
			Metadata: map[string]string{"owner": "evals-team"}, Source: "cases.yaml:1",
			Script:   prompts("where's my order #12345?"),
			Expected: "get_order_status(12345), then the delivery date"},
		{ID: "case_005", Name: "policy edge: cancel without confirmation", Tags: []string{"policy"}, Difficulty: "hard",
			Source: "cases.yaml:30", Script: prompts("cancel my order 12345"),
			Expected: "ask for confirmation before cancelling"},
		{ID: "case_003", Name: "order history export", Script: prompts("export my order history as CSV"),
			Expected: "a CSV of every order"},
		{ID: "case_004", Name: "delivery date", Script: prompts("when will order 777 arrive?"),
			Expected: "mentions the delivery date"},
		{ID: "case_006", Name: "two-step lookup then cancel", Script: prompts("look up 12345 and cancel it")},
		{ID: "case_007", Name: "reminder survives a restart",
			Script:   prompts("remind me about order 12345", "what reminders do I have?"),
			Expected: "round 1 sets a reminder; round 2, after the restart, lists it"},
		{ID: "case_008", Name: "weather | out of scope", Script: prompts("what's the weather?"),
			Expected: "declines: only order questions"},
	}
	suite := &gavel.Suite{
		Name: "support-desk", Description: "The order-support agent.", File: "suites/support-desk.yaml",
		Cases: cases, Threshold: 0.8,
		Models: map[string]string{"agent": "claude-sonnet-4-5", "judge": "gpt-4.1-mini"},
	}

	hostile := "<script>alert(1)</script> It is sunny ]]> \x1b[31mred\x1b[0m \x00| pipe | and ``code``"

	results := []gavel.CaseResult{
		{Case: cases[0], Trials: []gavel.Trial{
			trial("case_001", 1, 1200, transcript("where's my order #12345?",
				agentTurn(1, "Order 12345 shipped and arrives on 2026-03-15.", tool("get_order_status", `{"order_id": "12345"}`, `{"status":"shipped"}`, false))),
				passed()),
		}},
		{Case: cases[1], Trials: []gavel.Trial{
			trial("case_005", 1, 900, transcript("cancel my order 12345",
				agentTurn(1, "Order 12345 is cancelled.",
					tool("get_order_status", `{"order_id":"12345"}`, `{"status":"processing"}`, false),
					tool("cancel_order", `{"order_id":"12345","confirmation":true}`, `{"cancelled":true}`, false))),
				policyFailure()),
		}},
		{Case: cases[2], Trials: []gavel.Trial{
			trial("case_003", 1, 30000, timedOut("export my order history as CSV", "agent did not answer within 30s"),
				judge.Judgment{Name: "conversation", Status: judge.StatusError,
					Reasoning: "the conversation did not complete (TIMEOUT): agent did not answer within 30s"}),
		}},
		{Case: cases[3], Trials: []gavel.Trial{
			trial("case_004", 1, 800, transcript("when will order 777 arrive?", agentTurn(1, "Order 777 arrives on Friday, 2026-03-13.")), passed()),
			trial("case_004", 2, 850, transcript("when will order 777 arrive?", agentTurn(1, "Order 777 is on its way.")), traitsFailure()),
			trial("case_004", 3, 820, transcript("when will order 777 arrive?", agentTurn(1, "It arrives on 2026-03-13.")), passed()),
		}},
		{Case: cases[4], SkipReason: "the budget of $0.05 was spent ($0.0512)"},
		{Case: cases[5], Trials: []gavel.Trial{trial("case_007", 1, 4100, multiRound(), memoryFailure())}},
		{Case: cases[6], Trials: []gavel.Trial{
			trial("case_008", 1, 700, transcript("what's the weather?", agentTurn(1, hostile)),
				judge.Judgment{Name: "round 1: out of scope", Status: judge.StatusFail, Score: judge.Bool(false),
					Reasoning: "the agent answered an out-of-scope question with markup: <script>alert(1)</script> ]]>"}),
		}},
	}
	// case_007's follow-up detector asked its model once.
	results[5].Trials[0].Usage.FollowUp = judge.Usage{InputTokens: 400, OutputTokens: 27, CostUSD: 0.0001}
	for i := range results {
		results[i].Summarize()
	}
	// What the meter counted: every trial's usage, by the model of its role.
	models := map[string]judge.Usage{
		"claude-sonnet-4-5": {InputTokens: 9600, OutputTokens: 1200, CostUSD: 0.0336},
		"gpt-4.1-mini":      {InputTokens: 6800, OutputTokens: 507, CostUSD: 0.0089}, // the follow-up detector's too
	}
	return &gavel.Run{Suite: suite, Cases: results, Started: start, Duration: 42500 * time.Millisecond, Models: models}
}

// prompts is a script of one prompt per round.
func prompts(ps ...string) conversation.Script {
	var s conversation.Script
	for _, p := range ps {
		s.Rounds = append(s.Rounds, conversation.Round{Prompt: p})
	}
	return s
}

// trial returns a trial that took ms milliseconds, with a made-up but
// fixed cost.
func trial(id string, n int, ms int64, tr *judge.Transcript, verdict judge.Judgment) gavel.Trial {
	tr.CaseID, tr.Trial = id, n
	return gavel.Trial{
		CaseID: id, N: n, Transcript: tr, Verdict: verdict, Duration: time.Duration(ms) * time.Millisecond,
		Usage: gavel.RoleUsage{
			Agent: judge.Usage{InputTokens: 1200, OutputTokens: 150, CostUSD: 0.0042},
			Judge: judge.Usage{InputTokens: 800, OutputTokens: 60, CostUSD: 0.0011},
		},
	}
}

// transcript is a completed one-round conversation: the goal as the
// user's turn, then the given turns.
func transcript(goal string, turns ...judge.Turn) *judge.Transcript {
	return &judge.Transcript{
		Goal:    goal,
		Turns:   append([]judge.Turn{{Role: judge.RoleUser, Content: goal, Round: 1, Time: start}}, turns...),
		Status:  judge.ExecSuccess,
		Started: start,
	}
}

// timedOut is a conversation whose agent never answered.
func timedOut(goal, why string) *judge.Transcript {
	tr := transcript(goal)
	tr.Status, tr.Error = judge.ExecTimeout, why
	return tr
}

func agentTurn(round int, content string, calls ...judge.ToolCall) judge.Turn {
	return judge.Turn{Role: judge.RoleAgent, Content: content, Round: round, ToolCalls: calls, Time: start}
}

func tool(name, args, result string, failed bool) judge.ToolCall {
	return judge.ToolCall{Name: name, Arguments: json.RawMessage(args), Result: result, IsError: failed}
}

// multiRound is case_007's conversation: the agent asks a question that
// an automatic follow-up answers, the session is revived, and in round 2
// a tool call fails.
func multiRound() *judge.Transcript {
	asks := agentTurn(1, "Sure. When should I remind you?")
	asks.FollowUp = &judge.FollowUpCheck{By: judge.FollowUpByModel, NeedsFollowUp: true, Reason: "asks when to remind",
		Usage: judge.Usage{InputTokens: 400, OutputTokens: 27, CostUSD: 0.0001}}
	done := agentTurn(1, "Done: I will remind you tomorrow at 9:00.",
		tool("set_reminder", `{"order_id":"12345","at":"2026-03-10T09:00:00Z"}`, `{"id":7}`, false))
	done.FollowUp = &judge.FollowUpCheck{By: judge.FollowUpByPreCheck, Reason: "the agent made 1 tool call(s) and its reply has no question mark"}
	tr := transcript("remind me about order 12345",
		asks,
		judge.Turn{Role: judge.RoleUser, Content: "Tomorrow morning.", Round: 1, Origin: judge.OriginFollowUp},
		done,
		judge.Turn{Role: judge.RoleUser, Content: "what reminders do I have?", Round: 2},
		agentTurn(2, "You have no reminders.",
			tool("list_reminders", `{}`, "session 9f2c not found", true)),
	)
	tr.Revivals = []judge.Revival{{BeforeTurn: 4, Time: start.Add(2 * time.Second), How: "agent restarted by command between closing and reopening the session"}}
	return tr
}

func passed() judge.Judgment {
	return judge.Judgment{Name: "tiered", Status: judge.StatusPass, Score: judge.Unit(1), Reasoning: "2 of 2 passed",
		Parts: []judge.Judgment{
			{Name: "round 1: expected_tools get_order_status", Status: judge.StatusPass, Score: judge.Bool(true), Reasoning: "called every expected tool: get_order_status"},
			{Name: "round 1: response traits", Status: judge.StatusPass, Score: mustNumber(3, 1, 3), Reasoning: "mentions the delivery date",
				Prompt: "5e1f0c2a9b7d", Threshold: judge.AtLeast(3, 2)},
		}}
}

// policyFailure is the seeds' case 5: the hard rules fail, so the LLM
// tier never runs.
func policyFailure() judge.Judgment {
	rules := judge.Judgment{Name: "round 1: hard rules", Status: judge.StatusFail, Score: judge.Unit(0),
		Reasoning: "2 of 2 failed: expected_tools ask_confirmation: missing ask_confirmation (called: get_order_status, cancel_order); forbidden_tools cancel_order: called forbidden tool cancel_order (call 2)",
		Parts: []judge.Judgment{
			{Name: "expected_tools ask_confirmation", Status: judge.StatusFail, Score: judge.Bool(false),
				Reasoning: "missing ask_confirmation (called: get_order_status, cancel_order)",
				Checks:    []judge.Check{{Name: "ask_confirmation", Passed: false, Message: "not called"}}},
			{Name: "forbidden_tools cancel_order", Status: judge.StatusFail, Score: judge.Bool(false),
				Reasoning: "called forbidden tool cancel_order (call 2)"},
		}}
	return judge.Judgment{Name: "tiered", Status: judge.StatusFail, Score: judge.Unit(0), DecidedBy: "tier 1",
		Reasoning: "tier 1 of 2 gave FAIL, so 1 later tier(s) did not run: 1 of 1 failed: " + rules.Summary(),
		Parts:     []judge.Judgment{rules}}
}

// traitsFailure is case_004's failing trial: an LLM judge's low score.
func traitsFailure() judge.Judgment {
	traits := judge.Judgment{Name: "round 1: response traits", Status: judge.StatusFail, Score: mustNumber(1, 1, 3),
		Reasoning: "The reply does not mention the delivery date.\nIt only says the order is on its way.",
		Prompt:    "5e1f0c2a9b7d", Threshold: judge.AtLeast(1, 2)}
	return judge.Judgment{Name: "tiered", Status: judge.StatusFail, Score: judge.Unit(0.5), Reasoning: "1 of 2 failed: " + traits.Summary(),
		Parts: []judge.Judgment{
			{Name: "round 1: expected_tools", Status: judge.StatusAbstain, Reasoning: "no tools expected"},
			traits,
		}}
}

// memoryFailure is case_007's verdict: round 1 passes, round 2 fails,
// with a soft finding on the way.
func memoryFailure() judge.Judgment {
	return judge.Judgment{Name: "all", Status: judge.StatusFail, Score: judge.Unit(0.5),
		Reasoning: "1 of 2 failed: round 2: remembers reminders: the agent forgot the reminder set in round 1",
		Parts: []judge.Judgment{
			{Name: "round 1: set_reminder called", Status: judge.StatusPass, Score: judge.Bool(true), Reasoning: "called set_reminder",
				Findings: []judge.Finding{{Judge: "tone", Message: "the agent asked one clarifying question"}}},
			{Name: "round 2: remembers reminders", Status: judge.StatusFail, Score: judge.Bool(false),
				Reasoning: "the agent forgot the reminder set in round 1"},
		}}
}

func mustNumber(v, lo, hi float64) judge.Score {
	s, err := judge.Number(v, lo, hi)
	if err != nil {
		panic(err)
	}
	return s
}
