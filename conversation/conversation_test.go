package conversation_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/conversation"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/llmtest"
	"github.com/gavelhq/gavel/llmjudge"
	"github.com/gavelhq/gavel/sim"
)

// notebook is an agent that remembers, per session id, everything it was
// told, but only across a proper Close: what a session heard is saved when
// it closes, as a checkpointing agent does. It answers with what it
// remembers, asks which order when a message names none, and reports a
// lookup tool call when it names one.
type notebook struct {
	mu     sync.Mutex
	saved  map[string][]string
	opens  int
	closes int
}

func newNotebook() *notebook { return &notebook{saved: map[string][]string{}} }

func (n *notebook) Open(_ context.Context, id string) (agent.Session, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.opens++
	return &notebookSession{n: n, id: id, heard: append([]string(nil), n.saved[id]...)}, nil
}

type notebookSession struct {
	n     *notebook
	id    string
	heard []string
}

var orderNumber = regexp.MustCompile(`\d{5}`)

func (s *notebookSession) Send(_ context.Context, msg agent.Message) (*agent.Reply, error) {
	s.heard = append(s.heard, msg.Text)
	reply := &agent.Reply{Usage: judge.Usage{InputTokens: 10, OutputTokens: 5}, Latency: time.Millisecond}
	id := orderNumber.FindString(msg.Text)
	if id == "" {
		reply.Text = "Which order do you mean?"
		return reply, nil
	}
	reply.Text = fmt.Sprintf("Order %s has shipped. So far you said: %s", id, strings.Join(s.heard, " | "))
	reply.ToolCalls = []judge.ToolCall{{Name: "get_order_status", Arguments: json.RawMessage(`{"order_id":"` + id + `"}`)}}
	return reply, nil
}

func (s *notebookSession) Dispatch(_ context.Context, e agent.Event) (*agent.Reply, error) {
	return &agent.Reply{Text: "Reminder: " + e.Name}, nil
}

func (s *notebookSession) Close(context.Context) error {
	s.n.mu.Lock()
	defer s.n.mu.Unlock()
	s.n.closes++
	s.n.saved[s.id] = s.heard
	return nil
}

// fixedClock returns a clock that moves one second a call.
func fixedClock() func() time.Time {
	t := time.Date(2026, 3, 9, 12, 0, 0, 0, time.UTC)
	return func() time.Time { t = t.Add(time.Second); return t }
}

func TestSinglePrompt(t *testing.T) {
	out := conversation.Run(context.Background(), newNotebook(), conversation.Script{
		Rounds: []conversation.Round{{Prompt: "where's my order #12345?"}},
	}, conversation.Config{CaseID: "case_001", Trial: 2, Now: fixedClock()})
	tr := out.Transcript
	if tr.Status != judge.ExecSuccess || tr.Error != "" {
		t.Fatalf("status %s %q, want SUCCESS", tr.Status, tr.Error)
	}
	if tr.CaseID != "case_001" || tr.Trial != 2 || tr.Goal != "where's my order #12345?" {
		t.Errorf("case %q trial %d goal %q", tr.CaseID, tr.Trial, tr.Goal)
	}
	if !regexp.MustCompile(`^gavel-case_001-t2-[0-9a-f]{8}$`).MatchString(tr.SessionID) {
		t.Errorf("session id %q, want gavel-case_001-t2-<random>", tr.SessionID)
	}
	if len(tr.Turns) != 2 || tr.Turns[0].Round != 1 || tr.Turns[1].Round != 1 || len(tr.ToolCalls()) != 1 {
		t.Errorf("want a user turn and an agent turn with a tool call in round 1, got %+v", tr.Turns)
	}
	if tr.Usage != (judge.Usage{InputTokens: 10, OutputTokens: 5}) || tr.Duration != 3*time.Second {
		t.Errorf("usage %+v, duration %v", tr.Usage, tr.Duration)
	}
}

// A thread of three rounds with a revival before the third: the agent is
// closed and reopened with the same id, and its answer shows that it
// remembers the first two rounds.
func TestRoundsWithRevival(t *testing.T) {
	nb := newNotebook()
	out := conversation.Run(context.Background(), nb, conversation.Script{Rounds: []conversation.Round{
		{Prompt: "where's order 12345?"},
		{Prompt: "and 67890?"},
		{Prompt: "remind me about 12345", Revive: true},
	}}, conversation.Config{SessionID: "thread-1"})
	tr := out.Transcript
	if tr.Status != judge.ExecSuccess {
		t.Fatalf("status %s: %s", tr.Status, tr.Error)
	}
	if want := []judge.Revival{{BeforeTurn: 4, Time: tr.Revivals[0].Time, How: "session closed and reopened"}}; !cmp.Equal(tr.Revivals, want) {
		t.Errorf("revivals %+v, want one before turn 4", tr.Revivals)
	}
	if nb.opens != 2 || nb.closes != 2 {
		t.Errorf("opened %d and closed %d sessions, want 2 and 2", nb.opens, nb.closes)
	}
	third := tr.Round(3)
	if got := third.Response(); !strings.Contains(got, "where's order 12345? | and 67890?") {
		t.Errorf("after the revival the agent forgot the thread: %q", got)
	}
	if len(third.Context) != 4 || len(third.Revivals) != 1 || third.Goal != "remind me about 12345" {
		t.Errorf("round 3 view: %d context turns, revivals %+v, goal %q", len(third.Context), third.Revivals, third.Goal)
	}
}

// followUpDetector returns a detector on a scripted model that finds a
// question in "Which order" replies and suggests order 24680.
func followUpDetector(t *testing.T) (*llmjudge.FollowUp, *llmtest.Scripted) {
	t.Helper()
	model := &llmtest.Scripted{Rules: []llmtest.Rule{
		{Match: "Which order do you mean?", Text: `{"reasoning":"asks which order","needs_followup":true,"reply":"order 24680"}`},
		{Text: `{"reasoning":"answers","needs_followup":false,"reply":""}`},
	}}
	f, err := llmjudge.NewFollowUp(model, llmjudge.FollowUpConfig{})
	if err != nil {
		t.Fatal(err)
	}
	return f, model
}

func TestFollowUps(t *testing.T) {
	detector, _ := followUpDetector(t)
	// alwaysAsks never answers: the limit ends the round.
	alwaysAsks := agent.Func(func(context.Context, string, agent.Message) (*agent.Reply, error) {
		return &agent.Reply{Text: "Which order do you mean?"}, nil
	})
	tests := []struct {
		name      string
		agent     agent.Agent
		round     conversation.Round
		max       int
		wantUsers []string // the round's user turns, automatic ones marked with a *
	}{
		{"answered from the detector", newNotebook(), conversation.Round{Prompt: "cancel my order"}, 0,
			[]string{"cancel my order", "*order 24680"}},
		{"answered from the hints first", newNotebook(), conversation.Round{Prompt: "cancel my order", Hints: []string{"it's 67890"}}, 0,
			[]string{"cancel my order", "*it's 67890"}},
		{"no question, no follow-up", newNotebook(), conversation.Round{Prompt: "status of 12345?"}, 0,
			[]string{"status of 12345?"}},
		{"at most two by default", alwaysAsks, conversation.Round{Prompt: "cancel my order"}, 0,
			[]string{"cancel my order", "*order 24680", "*order 24680"}},
		{"a limit of one", alwaysAsks, conversation.Round{Prompt: "cancel my order"}, 1,
			[]string{"cancel my order", "*order 24680"}},
		{"none", alwaysAsks, conversation.Round{Prompt: "cancel my order"}, -1,
			[]string{"cancel my order"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := conversation.Run(context.Background(), tc.agent,
				conversation.Script{Rounds: []conversation.Round{tc.round}, MaxFollowUps: tc.max},
				conversation.Config{FollowUps: detector})
			if out.Transcript.Status != judge.ExecSuccess {
				t.Fatalf("status %s: %s", out.Transcript.Status, out.Transcript.Error)
			}
			var users []string
			for _, turn := range out.Transcript.Turns {
				if turn.Role == judge.RoleUser {
					mark := ""
					if turn.Origin == judge.OriginFollowUp {
						mark = "*"
					}
					users = append(users, mark+turn.Content)
				}
			}
			if diff := cmp.Diff(tc.wantUsers, users); diff != "" {
				t.Errorf("user turns (-want +got):\n%s", diff)
			}
			if tc.max >= 0 && out.FollowUps.Tokens() == 0 {
				t.Error("the detector's usage was not counted")
			}
		})
	}
}

// Every check of a reply is recorded on its turn: a reply that asks
// nothing is decided by the pre-check, at no cost and without the model;
// a question goes to the model, whose answer is sent (seed 000).
func TestFollowUpChecksAreRecorded(t *testing.T) {
	detector, model := followUpDetector(t)
	out := conversation.Run(context.Background(), newNotebook(),
		conversation.Script{Rounds: []conversation.Round{{Prompt: "cancel my order"}}},
		conversation.Config{FollowUps: detector})
	tr := out.Transcript
	if tr.Status != judge.ExecSuccess {
		t.Fatalf("status %s: %s", tr.Status, tr.Error)
	}
	var got []judge.FollowUpCheck
	for _, turn := range tr.Turns {
		if turn.Role == judge.RoleAgent && turn.FollowUp != nil {
			got = append(got, *turn.FollowUp)
		}
	}
	want := []judge.FollowUpCheck{
		{By: judge.FollowUpByModel, NeedsFollowUp: true, Reason: "asks which order", Usage: out.FollowUps},
		{By: judge.FollowUpByPreCheck, Reason: "the agent made 1 tool call(s) and its reply has no question mark"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("follow-up checks (-want +got):\n%s", diff)
	}
	if n := len(model.Calls()); n != 1 || out.FollowUps.Tokens() == 0 {
		t.Errorf("the detector's model was asked %d times for %d tokens, want once, for the question only", n, out.FollowUps.Tokens())
	}
}

// A detector that cannot tell ends the conversation, and its check says
// why and what it spent.
func TestFollowUpCheckThatFailed(t *testing.T) {
	model := &llmtest.Scripted{Rules: []llmtest.Rule{{Text: "no idea"}}}
	detector, err := llmjudge.NewFollowUp(model, llmjudge.FollowUpConfig{})
	if err != nil {
		t.Fatal(err)
	}
	out := conversation.Run(context.Background(), newNotebook(),
		conversation.Script{Rounds: []conversation.Round{{Prompt: "cancel my order"}}},
		conversation.Config{FollowUps: detector})
	tr := out.Transcript
	check := tr.Turns[len(tr.Turns)-1].FollowUp
	if tr.Status == judge.ExecSuccess || check == nil || check.By != judge.FollowUpByModel || check.Error == "" || check.Usage.Tokens() == 0 {
		t.Errorf("status %s, check %+v: want the conversation ended and the failed check recorded with its usage", tr.Status, check)
	}
}

// A round's detector sees the earlier rounds, so a question about them is
// understood.
func TestFollowUpSeesEarlierRounds(t *testing.T) {
	detector, model := followUpDetector(t)
	conversation.Run(context.Background(), newNotebook(), conversation.Script{Rounds: []conversation.Round{
		{Prompt: "where's 12345?"}, {Prompt: "cancel it"},
	}}, conversation.Config{FollowUps: detector})
	calls := model.Calls()
	last := calls[len(calls)-1].Messages
	if prompt := last[len(last)-1].Content; !strings.Contains(prompt, "where's 12345?") {
		t.Errorf("the detector of round 2 was not shown round 1:\n%s", prompt)
	}
}

func TestSimulatedUser(t *testing.T) {
	userModel := &llmtest.Scripted{Rules: []llmtest.Rule{
		{Match: "has shipped", Text: "ok thx <<DONE>>"},
		{Text: "hey whats up with order 12345"},
	}}
	user, err := sim.NewUser(sim.UserConfig{Model: userModel, Persona: sim.Persona{
		Name: "Sam", Traits: []string{"casual texter"}, Goal: "learn where order 12345 is",
	}})
	if err != nil {
		t.Fatal(err)
	}
	out := conversation.Run(context.Background(), newNotebook(),
		conversation.Script{Rounds: []conversation.Round{{User: user}}}, conversation.Config{})
	tr := out.Transcript
	if tr.Status != judge.ExecSuccess {
		t.Fatalf("status %s: %s", tr.Status, tr.Error)
	}
	var got []string
	for _, turn := range tr.Turns {
		got = append(got, fmt.Sprintf("%s/%s: %.20s", turn.Role, turn.Origin, turn.Content))
	}
	// The user's last message is sent before they stop.
	want := []string{
		"user/simulated: hey whats up with or",
		"agent/: Order 12345 has ship",
		"user/simulated: ok thx",
		"agent/: Which order do you m",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("turns (-want +got):\n%s", diff)
	}
	if tr.Goal != "learn where order 12345 is" || out.SimulatedUser.Tokens() == 0 {
		t.Errorf("goal %q, simulated user usage %+v", tr.Goal, out.SimulatedUser)
	}
	if tr.Usage.Tokens() != 30 {
		t.Errorf("the agent's usage is %+v; the simulated user's must not be in it", tr.Usage)
	}
}

func TestEventsAndSetup(t *testing.T) {
	var order []string
	step := func(name string) conversation.Step {
		return conversation.StepFunc(func(context.Context) error { order = append(order, name); return nil })
	}
	out := conversation.Run(context.Background(), newNotebook(), conversation.Script{Rounds: []conversation.Round{
		{Prompt: "remind me to check order 12345", Setup: []conversation.Step{step("create table")}},
		{Event: &agent.Event{Name: "reminder_due", Payload: json.RawMessage(`{"order":"12345"}`)}, Setup: []conversation.Step{step("backdate")}},
	}}, conversation.Config{})
	tr := out.Transcript
	if tr.Status != judge.ExecSuccess {
		t.Fatalf("status %s: %s", tr.Status, tr.Error)
	}
	if diff := cmp.Diff([]string{"create table", "backdate"}, order); diff != "" {
		t.Errorf("setup order (-want +got):\n%s", diff)
	}
	event, reply := tr.Turns[2], tr.Turns[3]
	if event.Role != judge.RoleEvent || event.Content != `reminder_due {"order":"12345"}` || reply.Content != "Reminder: reminder_due" || reply.Round != 2 {
		t.Errorf("event turns: %+v, %+v", event, reply)
	}
}

func TestFailuresKeepTheTranscript(t *testing.T) {
	crash := func(round int) agent.Func {
		return func(_ context.Context, _ string, msg agent.Message) (*agent.Reply, error) {
			if strings.HasPrefix(msg.Text, fmt.Sprint(round)) {
				return nil, errors.New("exit status 2: panic: nil map")
			}
			return &agent.Reply{Text: "ok"}, nil
		}
	}
	hang := agent.Func(func(ctx context.Context, _ string, msg agent.Message) (*agent.Reply, error) {
		if msg.Text == "1" {
			return &agent.Reply{Text: "ok"}, nil
		}
		<-ctx.Done()
		return nil, fmt.Errorf("no answer: %w", ctx.Err())
	})
	twoRounds := []conversation.Round{{Prompt: "1"}, {Prompt: "2"}}
	failingStep := conversation.StepFunc(func(context.Context) error { return errors.New("sql setup on database file \"app.db\": no such table") })
	tests := []struct {
		name       string
		agent      agent.Agent
		rounds     []conversation.Round
		timeout    time.Duration
		wantStatus judge.ExecStatus
		wantError  string
		wantTurns  int
	}{
		{"the agent crashes in round 2", crash(2), twoRounds, 0, judge.ExecFailed, "round 2: the agent did not answer: exit status 2", 3},
		{"the agent hangs", hang, twoRounds, 100 * time.Millisecond, judge.ExecTimeout, "round 2: the agent did not answer", 3},
		{"a setup step fails", crash(9), []conversation.Round{{Prompt: "1"}, {Prompt: "2", Setup: []conversation.Step{failingStep}}}, 0,
			judge.ExecFailed, "round 2: setup step 1: sql setup", 2},
		{"events need a dispatcher", crash(9), []conversation.Round{{Event: &agent.Event{Name: "tick"}}}, 0,
			judge.ExecFailed, `round 1: the agent cannot take the event "tick"`, 0},
		{"an invalid script", crash(9), []conversation.Round{{}}, 0,
			judge.ExecFailed, "invalid conversation: round 1: nothing to say", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			if tc.timeout > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tc.timeout)
				defer cancel()
			}
			tr := conversation.Run(ctx, tc.agent, conversation.Script{Rounds: tc.rounds}, conversation.Config{}).Transcript
			if tr.Status != tc.wantStatus || !strings.Contains(tr.Error, tc.wantError) || len(tr.Turns) != tc.wantTurns {
				t.Errorf("got %s %q with %d turns; want %s, an error containing %q, %d turns", tr.Status, tr.Error, len(tr.Turns), tc.wantStatus, tc.wantError, tc.wantTurns)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	user, _ := sim.NewUser(sim.UserConfig{Model: &llmtest.Scripted{}, Persona: sim.Persona{Name: "Sam", Goal: "g"}})
	err := conversation.Script{Rounds: []conversation.Round{
		{Prompt: "hi", Revive: true},
		{Prompt: "hi", Event: &agent.Event{Name: "x"}},
		{Event: &agent.Event{}},
		{User: user, Hints: []string{"12345"}},
		{Prompt: "hi", Setup: []conversation.Step{nil}},
	}}.Validate()
	for _, want := range []string{
		"round 1: the first round cannot revive",
		"round 2: an event round has no prompt",
		"round 3: the event has no name",
		"round 4: a simulated user answers the agent's questions itself",
		"round 5: setup step 1 is missing",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Validate() = %v, want it to say %q", err, want)
		}
	}
	if err := (conversation.Script{}).Validate(); err == nil {
		t.Error("a script without rounds is valid")
	}
}

// An agent that fails part-way (a model error after some tool calls, its
// turn limit, a reply cut off by the token limit) returns what it did with
// its error: the transcript keeps that reply as the agent's turn, its
// calls and tokens included, and ends FAILED with the error.
func TestAFailedAgentKeepsItsPartialReply(t *testing.T) {
	partial := &agent.Reply{
		ToolCalls:    []judge.ToolCall{{Name: "get_order_status", Arguments: json.RawMessage(`{"order_id":"12345"}`), Result: `{"status":"shipped"}`}},
		Usage:        judge.Usage{InputTokens: 120, OutputTokens: 30},
		FinishReason: "length",
	}
	fails := agent.Func(func(_ context.Context, _ string, msg agent.Message) (*agent.Reply, error) {
		if msg.Text == "1" {
			return &agent.Reply{Text: "ok", Usage: judge.Usage{InputTokens: 10, OutputTokens: 5}, FinishReason: "stop"}, nil
		}
		return partial, errors.New("builtin agent: the model's reply was cut off by the token limit (finish_reason length)")
	})
	tr := conversation.Run(t.Context(), fails, conversation.Script{Rounds: []conversation.Round{{Prompt: "1"}, {Prompt: "2"}}}, conversation.Config{}).Transcript
	if tr.Status != judge.ExecFailed || !strings.Contains(tr.Error, "round 2: the agent did not answer: builtin agent: the model's reply was cut off") {
		t.Errorf("status %s %q, want FAILED with the agent's error", tr.Status, tr.Error)
	}
	if len(tr.Turns) != 4 || tr.Turns[3].Role != judge.RoleAgent || tr.Turns[3].Round != 2 {
		t.Fatalf("turns = %+v, want both rounds' user and agent turns, the partial reply last", tr.Turns)
	}
	last := tr.Turns[3]
	if len(last.ToolCalls) != 1 || last.Usage != partial.Usage || last.FinishReason != "length" {
		t.Errorf("last turn = %+v, want the partial reply's call, usage and finish reason", last)
	}
	if tr.Turns[1].FinishReason != "stop" {
		t.Errorf("first agent turn's finish reason = %q, want stop", tr.Turns[1].FinishReason)
	}
	if want := (judge.Usage{InputTokens: 130, OutputTokens: 35}); tr.Usage != want {
		t.Errorf("usage = %+v, want %+v: the failed turn's tokens were spent", tr.Usage, want)
	}
}

// The builtin agent at its turn limit: the calls it made are in the
// transcript, not "Tool calls: none".
func TestTheBuiltinAgentsTurnLimitKeepsItsCalls(t *testing.T) {
	model := &llmtest.Scripted{Rules: []llmtest.Rule{{ToolCalls: []llm.ToolCall{{Name: "lookup", Arguments: json.RawMessage(`{}`)}}}}}
	b, err := agent.NewBuiltin(agent.BuiltinConfig{Model: model, MaxTurns: 2, Tools: []agent.Toolbox{lookupTool{}}})
	if err != nil {
		t.Fatal(err)
	}
	tr := conversation.Run(t.Context(), b, conversation.Script{Rounds: []conversation.Round{{Prompt: "go"}}}, conversation.Config{}).Transcript
	if tr.Status != judge.ExecFailed || !strings.Contains(tr.Error, "turn limit") {
		t.Errorf("status %s %q, want FAILED at the turn limit", tr.Status, tr.Error)
	}
	if calls := tr.ToolCalls(); len(calls) != 2 || tr.Usage.InputTokens == 0 {
		t.Errorf("calls %+v, usage %+v; want the 2 calls made and their tokens", calls, tr.Usage)
	}
}

// lookupTool is a toolbox with one tool that always answers.
type lookupTool struct{}

func (lookupTool) Tools(context.Context) ([]llm.Tool, error) {
	return []llm.Tool{{Name: "lookup"}}, nil
}

func (lookupTool) Call(_ context.Context, name string, args json.RawMessage) (judge.ToolCall, error) {
	return judge.ToolCall{Name: name, Arguments: args, Result: "found"}, nil
}

// An empty answer is an answer: it is recorded, and judged as empty.
func TestAnEmptyReplyIsATurn(t *testing.T) {
	silent := agent.Func(func(context.Context, string, agent.Message) (*agent.Reply, error) { return &agent.Reply{}, nil })
	tr := conversation.Run(t.Context(), silent, conversation.Script{Rounds: []conversation.Round{{Prompt: "hi"}}}, conversation.Config{}).Transcript
	if tr.Status != judge.ExecSuccess || len(tr.Turns) != 2 || tr.Turns[1].Role != judge.RoleAgent {
		t.Errorf("status %s, turns %+v; want the user's turn and the agent's empty one", tr.Status, tr.Turns)
	}
}

// An agent that reports usage no reply can spend (a Go agent: the exec and
// HTTP protocols refuse it as they read it) fails the conversation, and
// its count is not summed: it is an error, not a number.
func TestImpossibleUsageIsAnError(t *testing.T) {
	for _, tc := range []struct {
		name  string
		usage judge.Usage
		want  string
	}{
		{"2^63-1 input tokens", judge.Usage{InputTokens: math.MaxInt64, OutputTokens: 5},
			"the agent reported usage no reply can have: input_tokens is 9223372036854775807, more than the 1,000,000,000,000 tokens"},
		{"negative output tokens", judge.Usage{InputTokens: 10, OutputTokens: -40},
			"the agent reported usage no reply can have: output_tokens is -40, want a count of at least 0"},
		{"a NaN cost", judge.Usage{CostUSD: math.NaN()},
			"the agent reported usage no reply can have: cost_usd is NaN, want an amount of at least 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lies := agent.Func(func(context.Context, string, agent.Message) (*agent.Reply, error) {
				return &agent.Reply{Text: "hi", Usage: tc.usage}, nil
			})
			tr := conversation.Run(t.Context(), lies, conversation.Script{Rounds: []conversation.Round{{Prompt: "hello"}}}, conversation.Config{}).Transcript
			if tr.Status != judge.ExecFailed || !strings.Contains(tr.Error, tc.want) {
				t.Errorf("status %s %q, want FAILED saying %q", tr.Status, tr.Error, tc.want)
			}
			if tr.Usage != (judge.Usage{}) {
				t.Errorf("usage = %+v, want none counted", tr.Usage)
			}
		})
	}
}

// A simulated user that fails is not the agent's failure: a user whose
// model stops before its first message, or errs, or writes the agent's
// part, makes the conversation fail naming the simulator (the trial is
// then an ERROR, not a FAIL of the agent); a round's opening message is
// sent as written before the simulator speaks.
func TestSimulatedUserFailures(t *testing.T) {
	persona := sim.Persona{Name: "Sam", Goal: "learn where order 12345 is"}
	for _, tc := range []struct {
		name   string
		rule   llmtest.Rule
		prompt string
		want   string // in the transcript's error; "" for a success
	}{
		{"stops before its first message", llmtest.Rule{Text: "<<DONE>>"}, "", "simulated user Sam ended the conversation before its first message"},
		{"its model errs", llmtest.Rule{Err: errors.New("provider down")}, "", "simulated user Sam: provider down"},
		{"writes the agent's part", llmtest.Rule{Text: "Assistant: it shipped"}, "", "simulated user Sam left its persona"},
		{"an opening message, then done", llmtest.Rule{Text: "<<DONE>>"}, "where is order 12345?", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			user, err := sim.NewUser(sim.UserConfig{Model: &llmtest.Scripted{Rules: []llmtest.Rule{tc.rule}}, Persona: persona})
			if err != nil {
				t.Fatal(err)
			}
			out := conversation.Run(context.Background(), newNotebook(),
				conversation.Script{Rounds: []conversation.Round{{User: user, Prompt: tc.prompt}}}, conversation.Config{})
			tr := out.Transcript
			switch {
			case tc.want == "" && tr.Status != judge.ExecSuccess:
				t.Errorf("status %s: %s", tr.Status, tr.Error)
			case tc.want == "" && (len(tr.Turns) == 0 || tr.Turns[0].Content != tc.prompt):
				t.Errorf("turns %+v, want the opening message first, as written", tr.Turns)
			case tc.want != "" && (tr.Status == judge.ExecSuccess || !strings.Contains(tr.Error, tc.want)):
				t.Errorf("status %s, error %q; want a failure saying %q", tr.Status, tr.Error, tc.want)
			}
		})
	}
}
