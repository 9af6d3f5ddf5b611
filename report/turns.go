package report

import (
	"bytes"
	"encoding/json"

	"github.com/gavelhq/gavel/judge"
)

// speaker says who spoke a turn, marking the user turns the case did not
// write and the agent turns whose model stopped abnormally: "agent",
// "user (automatic follow-up)", "user (simulated)", "agent (cut off by the
// token limit: finish_reason length)". It is cleaned: a stored transcript
// may hold any role.
func speaker(t judge.Turn) string {
	s := string(t.Role)
	switch t.Origin {
	case "":
	case judge.OriginFollowUp:
		s += " (automatic follow-up)"
	case judge.OriginSimulated:
		s += " (simulated)"
	default:
		s += " (" + string(t.Origin) + ")"
	}
	switch {
	case !t.AbnormalFinish():
	case t.FinishReason == "length":
		s += " (cut off by the token limit: finish_reason length)"
	default:
		s += " (finish_reason " + t.FinishReason + ")"
	}
	return oneLine(s)
}

// revived returns the indexes of the turns before which the session was
// closed and reopened.
func revived(t *judge.Transcript) map[int]bool {
	if t == nil || len(t.Revivals) == 0 {
		return nil
	}
	out := make(map[int]bool, len(t.Revivals))
	for _, r := range t.Revivals {
		out[r.BeforeTurn] = true
	}
	return out
}

// arguments formats a tool call's arguments as compact JSON, cleaned; raw
// text when they are not JSON.
func arguments(c judge.ToolCall) string {
	var b bytes.Buffer
	if err := json.Compact(&b, c.Arguments); err != nil {
		return oneLine(string(c.Arguments))
	}
	return oneLine(b.String())
}

// call formats a tool call as "name(arguments)".
func call(c judge.ToolCall) string {
	return oneLine(c.Name) + "(" + arguments(c) + ")"
}

// Speaker says who spoke a turn, as every report writes it: "agent",
// "user (automatic follow-up)", "user (simulated)", and an agent turn whose
// model stopped for a reason other than a natural end or a tool call with
// that reason, "agent (cut off by the token limit: finish_reason length)".
func Speaker(t judge.Turn) string { return speaker(t) }
