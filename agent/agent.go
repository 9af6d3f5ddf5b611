package agent

import (
	"context"
	"encoding/json"
	"time"

	"github.com/gavelhq/gavel/judge"
)

// An Agent is the agent under test. Open starts a session, or resumes one:
// opening an id the agent has seen before continues that conversation (the
// revival Gavel tests by closing a session mid-thread and opening it
// again).
type Agent interface {
	Open(ctx context.Context, sessionID string) (Session, error)
}

// A Session is one conversation with the agent.
type Session interface {
	// Send gives the agent a user message and returns its reply. An error
	// means no full reply: the agent could not be reached, crashed, timed
	// out or answered with something that is not a reply. A session may
	// return, with the error, the partial reply it had when it failed (the
	// tool calls it made, the tokens it spent): Gavel records it as the
	// agent's turn before ending the conversation.
	Send(ctx context.Context, msg Message) (*Reply, error)
	// Close ends the session. An agent that keeps conversations (a
	// checkpoint) saves this one, so that Open with the same id resumes it.
	Close(ctx context.Context) error
}

// A Message is what the user says to the agent.
type Message struct {
	Text string `json:"text"`
	// Metadata is passed to agents that take it (the HTTP and exec
	// adapters send it along); others ignore it.
	Metadata map[string]string `json:"metadata,omitempty"`
}

// A Reply is the agent's answer to a message or an event.
type Reply struct {
	Text string `json:"text"`
	// ToolCalls are the calls the agent made while producing the reply, in
	// order, with their arguments and results, when the agent reports them
	// (or a recording MCP proxy saw them).
	ToolCalls []judge.ToolCall `json:"tool_calls,omitempty"`
	Usage     judge.Usage      `json:"usage,omitzero"`
	// Latency is how long the agent took; adapters measure it when the
	// agent does not say.
	Latency time.Duration `json:"latency_ns,omitempty"`
	// FinishReason is why the model stopped writing the reply, when the
	// agent knows (the builtin agent does); see judge.Turn.FinishReason.
	FinishReason string `json:"finish_reason,omitempty"`
	// ModelFaults are the faults Gavel injected on purpose into the model
	// calls made through its model endpoint while the reply was produced
	// (see ModelFaultInjected); judge.Turn.ModelFaults records them.
	ModelFaults []string `json:"model_faults,omitempty"`
}

// An Event is something that happens to the agent without a user message:
// a reminder falls due, a match is found. The agent may speak first.
type Event struct {
	Name    string          `json:"name"`
	Payload json.RawMessage `json:"payload,omitempty"`
}

// A Dispatcher is a Session that takes proactive events. Gavel finds the
// ability by type assertion; a session without it cannot run a case with
// an event step.
type Dispatcher interface {
	Dispatch(ctx context.Context, e Event) (*Reply, error)
}

// A Resetter is an Agent that can forget everything (sessions, memory,
// data) before a run.
type Resetter interface {
	Reset(ctx context.Context) error
}
