package agent

import "errors"

// An EventTaker is an Agent that says whether its sessions take events
// (are Dispatchers), so that a case with an event step is refused before
// it runs rather than failing every trial. An Agent that is not an
// EventTaker is trusted: its sessions are asked when an event comes.
type EventTaker interface {
	// TakesEvents returns nil when the agent's sessions are Dispatchers,
	// or an error saying why they are not and what would make them.
	TakesEvents() error
}

// TakesEvents reports whether the sessions of a take events (see
// EventTaker): nil when they do, or are trusted to.
func TakesEvents(a Agent) error {
	if t, ok := a.(EventTaker); ok {
		return t.TakesEvents()
	}
	return nil
}

// TakesEvents says that a Func takes no events: it is called with
// messages only.
func (f Func) TakesEvents() error {
	return errors.New("an agent.Func takes no events: it is called with messages only: write an Agent whose sessions are agent.Dispatchers")
}

// TakesEvents says whether the agent has an event URL to post events to.
func (h *HTTP) TakesEvents() error {
	if h.eventURL == "" {
		return errors.New(h.String() + " takes no events: give it an event URL (HTTPConfig.EventURL)")
	}
	return nil
}

// TakesEvents says that a Builtin agent takes events (see EventText).
func (b *Builtin) TakesEvents() error { return nil }

// TakesEvents says that an Exec agent takes events: the protocol has them.
func (x *Exec) TakesEvents() error { return nil }

// TakesEvents is the recorded agent's.
func (r *recordedAgent) TakesEvents() error { return TakesEvents(r.agent) }

// TakesEvents is the restarted agent's.
func (r *restarting) TakesEvents() error { return TakesEvents(r.agent) }
