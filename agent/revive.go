package agent

import (
	"context"
	"errors"
	"fmt"
)

// A Reviver is an Agent that says what reviving one of its sessions
// (closing it and opening its id again) really does, or that it does
// nothing: an agent whose Close does not reach the agent has nothing to
// revive, and a case that revives its session tests nothing. An Agent
// that is not a Reviver is trusted to let go of a session when it is
// closed.
type Reviver interface {
	// Revival describes a revival as the transcript records it, such as
	// "session closed and reopened from its checkpoint", or returns an
	// error saying why the agent cannot be revived and what would let it
	// be.
	Revival() (string, error)
}

// A Restarter is an Agent that is restarted to revive a session: Revive
// calls Restart after closing the session and before opening it again.
// WithRestart makes one of any agent.
type Restarter interface {
	Restart(ctx context.Context) error
}

// closedAndReopened is how an Agent that is not a Reviver is revived.
const closedAndReopened = "session closed and reopened"

// Revival says how a session of a is revived, or why it cannot be (see
// Reviver).
func Revival(a Agent) (string, error) {
	if r, ok := a.(Reviver); ok {
		return r.Revival()
	}
	return closedAndReopened, nil
}

// Revive revives s, a session of a opened with sessionID: it closes s,
// restarts a if it is a Restarter, and opens sessionID again. It returns
// the new session and how it was revived (Revival). It fails, after
// closing s, when a cannot be revived.
func Revive(ctx context.Context, a Agent, s Session, sessionID string) (Session, string, error) {
	how, err := Revival(a)
	if err != nil {
		return nil, "", errors.Join(err, s.Close(ctx))
	}
	if err := s.Close(ctx); err != nil {
		return nil, "", fmt.Errorf("close the session to revive it: %w", err)
	}
	if r, ok := a.(Restarter); ok {
		if err := r.Restart(ctx); err != nil {
			return nil, "", fmt.Errorf("restart the agent to revive the session: %w", err)
		}
	}
	reopened, err := a.Open(ctx, sessionID)
	if err != nil {
		return nil, "", fmt.Errorf("reopen session %q: %w", sessionID, err)
	}
	return reopened, how, nil
}

// Revival says that a Func cannot be revived: it has no session to close.
func (f Func) Revival() (string, error) {
	return "", errors.New("an agent.Func cannot be revived: it keeps no session, so closing one and opening it again " +
		"tests nothing: write an Agent whose sessions close, or restart it (agent.WithRestart)")
}

// Revival says that a session is revived from the checkpoint its Close
// saved.
func (b *Builtin) Revival() (string, error) {
	return "session closed and reopened from its checkpoint", nil
}

// Revival says how a session is revived: in per-session mode, in a new
// process; in shared mode, by close and open requests to the same
// process, which keeps whatever it holds in memory.
func (x *Exec) Revival() (string, error) {
	if x.perSession {
		return "session closed and reopened in a new process", nil
	}
	return "session closed and reopened in the same process (shared mode)", nil
}

// Revival says how a session is revived: by the close request and, if
// set, the open request. Without a close request the agent is never told
// that a session closed, and cannot be revived.
func (h *HTTP) Revival() (string, error) {
	switch {
	case h.close == nil:
		return "", fmt.Errorf("%s cannot be revived: closing a session sends it nothing, so the agent never lets go of "+
			"the conversation: give it a close request (HTTPConfig.Close), or restart it (agent.WithRestart)", h)
	case h.open == nil:
		return "session closed by the close request and reopened", nil
	}
	return "session closed and reopened by the close and open requests", nil
}

// Revival is the recorded agent's.
func (r *recordedAgent) Revival() (string, error) { return Revival(r.agent) }

// Restart restarts the recorded agent if it is a Restarter.
func (r *recordedAgent) Restart(ctx context.Context) error {
	if rs, ok := r.agent.(Restarter); ok {
		return rs.Restart(ctx)
	}
	return nil
}
