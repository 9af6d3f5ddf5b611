package sim_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/llmtest"
	"github.com/gavelhq/gavel/sim"
)

var maya = sim.Persona{
	Name:       "Maya",
	Background: "A nurse who works night shifts.",
	Traits:     []string{"casual texter", "lowercase", "short messages"},
	Goal:       "find out when order 12345 arrives",
	Knows:      []string{"her order number is 12345"},
	Secrets:    []string{"her card's security code is 321"},
}

func newUser(t *testing.T, model llm.Model, maxTurns int) *sim.User {
	t.Helper()
	u, err := sim.NewUser(sim.UserConfig{Persona: maya, Model: model, MaxTurns: maxTurns})
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestUserPlaysThePersona(t *testing.T) {
	model := &llmtest.Scripted{Rules: []llmtest.Rule{
		{Match: "conversation starts", Text: "hey where's my order"},
		{Match: "order number", Text: "its 12345"},
		{Match: "arrives on", Text: "ok thanks <<DONE>>"},
	}}
	u := newUser(t, model, 0)
	ctx := context.Background()
	var turns []judge.Turn
	say := func(role judge.Role, text string) { turns = append(turns, judge.Turn{Role: role, Content: text}) }

	first, err := u.Next(ctx, nil)
	if err != nil || first.Message != "hey where's my order" || first.Done {
		t.Fatalf("first turn = %+v, %v", first, err)
	}
	say(judge.RoleUser, first.Message)
	say(judge.RoleAgent, "Sure! What's your order number?")
	second, err := u.Next(ctx, turns)
	if err != nil || second.Message != "its 12345" || second.Done {
		t.Fatalf("second turn = %+v, %v", second, err)
	}
	say(judge.RoleUser, second.Message)
	say(judge.RoleAgent, "Order 12345 arrives on 2026-03-15.")
	last, err := u.Next(ctx, turns)
	if err != nil || last.Message != "ok thanks" || !last.Done || last.Reason != "stop signal" {
		t.Fatalf("last turn = %+v, %v; want a last message and the stop", last, err)
	}

	// The model plays the user: the agent's words reach it as user
	// messages, its own as assistant messages, the persona as the system.
	req := model.Calls()[2]
	system := req.Messages[0].Content
	for _, want := range []string{"You are Maya", "night shifts", "lowercase", "order 12345 arrives", "her order number is 12345", "must never reveal", "security code is 321", "<<DONE>>"} {
		if !strings.Contains(system, want) {
			t.Errorf("system prompt lacks %q:\n%s", want, system)
		}
	}
	var roles []llm.Role
	for _, m := range req.Messages[1:] {
		roles = append(roles, m.Role)
	}
	want := []llm.Role{llm.RoleUser, llm.RoleAssistant, llm.RoleUser, llm.RoleAssistant, llm.RoleUser}
	if strings.Join(roleNames(roles), ",") != strings.Join(roleNames(want), ",") {
		t.Errorf("roles = %v, want %v", roles, want)
	}
}

func roleNames(rs []llm.Role) []string {
	s := make([]string, len(rs))
	for i, r := range rs {
		s[i] = string(r)
	}
	return s
}

func TestUserStops(t *testing.T) {
	ctx := context.Background()
	talk := &llmtest.Scripted{Rules: []llmtest.Rule{{Text: "and another thing"}}}

	// A bare stop signal ends it with no message.
	quits := newUser(t, &llmtest.Scripted{Rules: []llmtest.Rule{{Text: "<<DONE>>"}}}, 0)
	if got, err := quits.Next(ctx, nil); err != nil || !got.Done || got.Message != "" {
		t.Errorf("bare stop signal: %+v, %v", got, err)
	}

	// The last allowed message is marked done; after it, no model call.
	u := newUser(t, talk, 2)
	turns := []judge.Turn{{Role: judge.RoleUser, Content: "hi"}, {Role: judge.RoleAgent, Content: "hello"}}
	if got, err := u.Next(ctx, turns); err != nil || !got.Done || got.Reason != "max turns" || got.Message == "" {
		t.Errorf("last allowed message: %+v, %v", got, err)
	}
	turns = append(turns, judge.Turn{Role: judge.RoleUser, Content: "x"}, judge.Turn{Role: judge.RoleAgent, Content: "y"})
	calls := len(talk.Calls())
	if got, err := u.Next(ctx, turns); err != nil || !got.Done || got.Message != "" || len(talk.Calls()) != calls {
		t.Errorf("past max turns: %+v, %v, %d new calls", got, err, len(talk.Calls())-calls)
	}
}

func TestUserErrors(t *testing.T) {
	boom := errors.New("provider down")
	u := newUser(t, &llmtest.Scripted{Rules: []llmtest.Rule{{Err: boom}}}, 0)
	if _, err := u.Next(context.Background(), nil); !errors.Is(err, boom) {
		t.Errorf("error = %v, want it wrapped", err)
	}
	silent := newUser(t, &llmtest.Scripted{Rules: []llmtest.Rule{{Text: "  "}}}, 0)
	if _, err := silent.Next(context.Background(), nil); err == nil {
		t.Error("an empty message: no error")
	}
	for _, c := range []sim.UserConfig{
		{Persona: maya},
		{Persona: sim.Persona{Goal: "x"}, Model: &llmtest.Scripted{}},
		{Persona: sim.Persona{Name: "x"}, Model: &llmtest.Scripted{}},
		{Persona: maya, Model: &llmtest.Scripted{}, StopSignal: " "},
	} {
		if _, err := sim.NewUser(c); err == nil {
			t.Errorf("NewUser(%+v): no error", c)
		}
	}
}

// A simulated user whose model writes the agent's part has left its
// persona: that is an error naming it, not a message to the agent.
func TestUserLeavesItsPersona(t *testing.T) {
	for _, text := range []string{
		"Assistant: Your order has shipped.",
		"Where is my order?\nAgent: It shipped yesterday.",
		"agent: let me check that for you",
	} {
		u := newUser(t, &llmtest.Scripted{Rules: []llmtest.Rule{{Text: text}}}, 0)
		_, err := u.Next(context.Background(), nil)
		if err == nil || !strings.Contains(err.Error(), "simulated user Maya left its persona: it wrote the agent's part") {
			t.Errorf("%q: %v", text, err)
		}
	}
	u := newUser(t, &llmtest.Scripted{Rules: []llmtest.Rule{{Text: "My agent said the parcel was lost."}}}, 0)
	if _, err := u.Next(context.Background(), nil); err != nil {
		t.Errorf("a message that mentions an agent: %v", err)
	}
}
