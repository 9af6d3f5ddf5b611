package importer

import "github.com/gavelhq/gavel/judge"

// A callRef is a tool call's place in a transcript: its turn, and its
// index among the turn's calls.
type callRef struct{ turn, call int }

// answered are the tool calls of a transcript that a result was paired
// with. An empty result answers its call too, so whether a call waits
// for its result is told by this, never by its Result.
//
// Results are paired with calls by id, but an id does not name one call:
// some agents number their calls within a reply (τ-bench's trajectories
// of some models reuse call_1 all along), so a result answers the latest
// call of its id still waiting for one. An agent calls again with an id
// only once the call before has its result.
type answered map[callRef]bool

// waiting returns the places of t's calls, from turn from on, that match
// and that no result answered yet, in the order they were made.
func (a answered) waiting(t *judge.Transcript, from int, match func(judge.ToolCall) bool) []callRef {
	var out []callRef
	for i := max(from, 0); i < len(t.Turns); i++ {
		for j, c := range t.Turns[i].ToolCalls {
			if ref := (callRef{i, j}); !a[ref] && match(c) {
				out = append(out, ref)
			}
		}
	}
	return out
}

// answer marks the call at ref answered and returns it.
func (a answered) answer(t *judge.Transcript, ref callRef) *judge.ToolCall {
	a[ref] = true
	return &t.Turns[ref.turn].ToolCalls[ref.call]
}

// latest pairs a result of the call id with the latest call of that id,
// from turn from on, still waiting for one, and returns it; nil when
// none waits.
func (a answered) latest(t *judge.Transcript, from int, id string) *judge.ToolCall {
	refs := a.waiting(t, from, func(c judge.ToolCall) bool { return c.ID == id })
	if len(refs) == 0 {
		return nil
	}
	return a.answer(t, refs[len(refs)-1])
}

// hasID reports whether any call of t, from turn from on, has the id.
func hasID(t *judge.Transcript, from int, id string) bool {
	for i := max(from, 0); i < len(t.Turns); i++ {
		for _, c := range t.Turns[i].ToolCalls {
			if c.ID == id {
				return true
			}
		}
	}
	return false
}

// named matches the calls of a tool's name; "" matches every call.
func named(name string) func(judge.ToolCall) bool {
	return func(c judge.ToolCall) bool { return name == "" || c.Name == name }
}
