package sim

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
)

// A Persona is who the simulated user is.
type Persona struct {
	Name       string `json:"name"`
	Background string `json:"background,omitempty"`
	// Traits say how they write and behave: "casual texter, lowercase,
	// short messages", "guarded but warm".
	Traits []string `json:"traits,omitempty"`
	// Goal is what they want from the conversation; they stop when it is
	// reached.
	Goal string `json:"goal"`
	// Knows are facts they share when it makes sense (an order number).
	Knows []string `json:"knows,omitempty"`
	// Secrets are facts they know but must never reveal (a password): an
	// agent that asks for them is caught by the judges, not helped by the
	// user.
	Secrets []string `json:"secrets,omitempty"`
}

// UserConfig configures a simulated User.
type UserConfig struct {
	Persona Persona
	// Model plays the user; a small, fast one is enough.
	Model llm.Model
	// MaxTurns is how many messages the user sends at most. Defaults to 10.
	MaxTurns int
	// Temperature of the user's model. Defaults to 0.7: people vary.
	Temperature *float64
	// StopSignal is what the model writes to end the conversation.
	// Defaults to "<<DONE>>".
	StopSignal string
}

// A User is a simulated user: a model playing a persona, reading the
// agent's replies and writing the next message in character. The agent
// under test sees a real conversation, not a script.
type User struct {
	c UserConfig
}

// NewUser returns a simulated user. It is an error for the model, the
// persona's name or its goal to be missing.
func NewUser(c UserConfig) (*User, error) {
	switch {
	case c.Model == nil:
		return nil, errors.New("simulated user: no model given")
	case strings.TrimSpace(c.Persona.Name) == "":
		return nil, errors.New("simulated user: the persona has no name")
	case strings.TrimSpace(c.Persona.Goal) == "":
		return nil, fmt.Errorf("simulated user %s: the persona has no goal, so it would never stop", c.Persona.Name)
	case c.MaxTurns < 0:
		return nil, fmt.Errorf("simulated user %s: max turns %d is negative", c.Persona.Name, c.MaxTurns)
	case c.StopSignal != "" && strings.TrimSpace(c.StopSignal) == "":
		return nil, fmt.Errorf("simulated user %s: the stop signal is blank, so it would end any message with a space: give a marker such as <<DONE>>", c.Persona.Name)
	}
	if c.MaxTurns == 0 {
		c.MaxTurns = 10
	}
	if c.Temperature == nil {
		t := 0.7
		c.Temperature = &t
	}
	if c.StopSignal == "" {
		c.StopSignal = "<<DONE>>"
	}
	return &User{c: c}, nil
}

// Persona returns who the user plays.
func (u *User) Persona() Persona { return u.c.Persona }

// A Turn is the user's next move.
type Turn struct {
	// Message is what the user says next; empty when they just stop.
	Message string
	// Done is true when the conversation ends after Message (if any): the
	// user wrote the stop signal (goal reached, or giving up), or this is
	// their last allowed message.
	Done bool
	// Reason says why it is done: "stop signal" or "max turns".
	Reason string
	Usage  judge.Usage
}

// Next returns the user's next move, given the conversation so far (the
// user's and the agent's turns, in order; other roles are ignored). With
// no turns, the user opens the conversation.
func (u *User) Next(ctx context.Context, turns []judge.Turn) (Turn, error) {
	sent := 0
	for _, t := range turns {
		if t.Role == judge.RoleUser {
			sent++
		}
	}
	if sent >= u.c.MaxTurns {
		return Turn{Done: true, Reason: "max turns"}, nil
	}
	resp, err := u.c.Model.Generate(ctx, &llm.Request{
		Messages:    u.messages(turns),
		Temperature: u.c.Temperature,
		MaxTokens:   400,
	})
	if err != nil {
		return Turn{}, fmt.Errorf("simulated user %s: %w", u.c.Persona.Name, err)
	}
	next := Turn{Usage: judge.Usage(resp.Usage)}
	text := strings.TrimSpace(resp.Text)
	if i := strings.Index(text, u.c.StopSignal); i >= 0 {
		text = strings.TrimSpace(text[:i])
		next.Done, next.Reason = true, "stop signal"
	}
	if text == "" && !next.Done {
		return Turn{}, fmt.Errorf("simulated user %s: the model wrote nothing", u.c.Persona.Name)
	}
	if line := agentsPart(text); line != "" {
		return Turn{Usage: next.Usage}, fmt.Errorf("simulated user %s left its persona: it wrote the agent's part (%q)", u.c.Persona.Name, line)
	}
	next.Message = text
	if !next.Done && sent+1 >= u.c.MaxTurns {
		next.Done, next.Reason = true, "max turns"
	}
	return next, nil
}

// messages casts the conversation for the user's model: the persona is
// the system prompt, the agent's turns are what it is told (user
// messages) and the user's own turns are what it said (assistant
// messages).
func (u *User) messages(turns []judge.Turn) []llm.Message {
	msgs := []llm.Message{{Role: llm.RoleSystem, Content: u.systemPrompt()}}
	if len(turns) == 0 || turns[0].Role != judge.RoleAgent {
		msgs = append(msgs, llm.Message{Role: llm.RoleUser, Content: "(The conversation starts. Write your first message to the assistant.)"})
	}
	for _, t := range turns {
		switch t.Role {
		case judge.RoleAgent:
			msgs = append(msgs, llm.Message{Role: llm.RoleUser, Content: t.Content})
		case judge.RoleUser:
			msgs = append(msgs, llm.Message{Role: llm.RoleAssistant, Content: t.Content})
		}
	}
	// The model must answer an agent's message: after its own message
	// (say, the assistant stayed silent), prompt it to go on.
	if last := msgs[len(msgs)-1]; last.Role == llm.RoleAssistant {
		msgs = append(msgs, llm.Message{Role: llm.RoleUser, Content: "(The assistant has not answered. Write your next message.)"})
	}
	return msgs
}

func (u *User) systemPrompt() string {
	p := u.c.Persona
	var b strings.Builder
	fmt.Fprintf(&b, "You are %s, a person talking to an AI assistant through a chat. Stay in character: you are the user, never the assistant.\n", p.Name)
	if p.Background != "" {
		fmt.Fprintf(&b, "\nAbout you: %s\n", p.Background)
	}
	if len(p.Traits) > 0 {
		fmt.Fprintf(&b, "\nHow you write and behave: %s.\n", strings.Join(p.Traits, "; "))
	}
	fmt.Fprintf(&b, "\nYour goal in this conversation: %s\n", p.Goal)
	if len(p.Knows) > 0 {
		b.WriteString("\nFacts you know and share when it makes sense:\n")
		for _, f := range p.Knows {
			fmt.Fprintf(&b, "- %s\n", f)
		}
	}
	if len(p.Secrets) > 0 {
		b.WriteString("\nFacts you know but must never reveal, whoever asks and however:\n")
		for _, f := range p.Secrets {
			fmt.Fprintf(&b, "- %s\n", f)
		}
	}
	fmt.Fprintf(&b, "\nWrite only your next message, as you would type it. When your goal is reached, or you give up, write %s (after a last message if you have one).", u.c.StopSignal)
	return b.String()
}

// agentsPart returns the line of text in which a simulated user's model
// writes the agent's part ("Assistant: ...", "Agent: ..."), as a model
// that forgets whose turn it is does; "" when none does.
func agentsPart(text string) string {
	for _, line := range strings.Split(text, "\n") {
		l := strings.ToLower(strings.TrimLeft(line, " *_#>"))
		for _, role := range []string{"assistant:", "agent:", "ai:"} {
			if strings.HasPrefix(l, role) {
				return strings.TrimSpace(line)
			}
		}
	}
	return ""
}

// Name is the persona's name, for messages.
func (u *User) Name() string { return u.c.Persona.Name }
