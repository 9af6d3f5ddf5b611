package conversation

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/sim"
)

// A Script is the conversation of one case: its rounds, in order.
type Script struct {
	Rounds []Round
	// MaxFollowUps is how many automatic answers each round may give to
	// the agent's requests for clarification. Defaults to 2; negative
	// means none.
	MaxFollowUps int
	// Now, when set, is the time it is for the agent: the context of the
	// session's Open (and its revivals) carries it (agent.WithNow), for
	// the agents that read it. Defaults to the agent's own clock.
	Now time.Time
	// Workspace, when set, is the directory the agent works in: the
	// transcript names it, so that the judges of files, builds and
	// commands look there.
	Workspace string
}

// A Round is one step of the conversation. It is a user prompt, an event
// dispatched to the agent, or a simulated user talking to it until they
// are done (opening with Prompt, when set).
type Round struct {
	Prompt string
	// Metadata goes with every message of the round, to agents that take
	// it (see agent.Message).
	Metadata map[string]string

	// Event, when set, is dispatched to the agent instead of a message; the
	// agent's session must be an agent.Dispatcher.
	Event *agent.Event

	// User, when set, plays the round: a model in a persona's character
	// reads each reply and writes the next message.
	User *sim.User

	// Setup runs first, in order; a failure ends the trial.
	Setup []Step

	// Revive closes the session before the round and opens it again with
	// the same id. It cannot be set on the first round.
	Revive bool

	// Hints answer the agent's requests for clarification in order, before
	// the follow-up detector's own suggestions are used.
	Hints []string
}

// A Step changes the agent's world before a round: it runs an SQL
// statement (see dbstate.Exec), a command, anything. Its error should
// say what it was doing.
type Step interface {
	Run(ctx context.Context) error
}

// StepFunc adapts a function to a Step.
type StepFunc func(ctx context.Context) error

// Run calls f.
func (f StepFunc) Run(ctx context.Context) error { return f(ctx) }

// Validate reports every mistake in s at once, each naming its round.
func (s Script) Validate() error {
	if len(s.Rounds) == 0 {
		return errors.New("the conversation has no rounds")
	}
	var errs []error
	for i, r := range s.Rounds {
		fail := func(format string, args ...any) {
			errs = append(errs, fmt.Errorf("round %d: "+format, append([]any{i + 1}, args...)...))
		}
		hasPrompt := strings.TrimSpace(r.Prompt) != ""
		switch {
		case r.Event != nil && (hasPrompt || r.User != nil):
			fail("an event round has no prompt and no simulated user")
		case r.Event != nil && strings.TrimSpace(r.Event.Name) == "":
			fail("the event has no name")
		case r.Event == nil && r.User == nil && !hasPrompt:
			fail("nothing to say: give a prompt, an event or a simulated user")
		}
		if r.Revive && i == 0 {
			fail("the first round cannot revive the session: there is none before it")
		}
		if len(r.Hints) > 0 && r.User != nil {
			fail("a simulated user answers the agent's questions itself: hints are for prompt and event rounds")
		}
		for k, step := range r.Setup {
			if step == nil {
				fail("setup step %d is missing", k+1)
			}
		}
	}
	return errors.Join(errs...)
}

// Goal is what the conversation is for, in one line: the first round's
// simulated user's goal, or its prompt, or its event.
func (s Script) Goal() string {
	if len(s.Rounds) == 0 {
		return ""
	}
	switch r := s.Rounds[0]; {
	case r.User != nil:
		return r.User.Persona().Goal
	case r.Event != nil:
		return "(event " + r.Event.Name + ")"
	default:
		return r.Prompt
	}
}

func (s Script) maxFollowUps() int {
	switch {
	case s.MaxFollowUps == 0:
		return 2
	case s.MaxFollowUps < 0:
		return 0
	}
	return s.MaxFollowUps
}
