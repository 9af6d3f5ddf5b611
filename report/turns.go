package report

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/gavelhq/gavel/judge"
)

// speaker says who spoke a turn, marking the user turns the case did not
// write, the agent turns Gavel's cache answered in whole or in part, and
// the agent turns whose model stopped abnormally: "agent", "user
// (automatic follow-up)", "user (simulated)", "agent (answered from the
// cache)", "agent (1 of 2 model calls answered from the cache)", "agent
// (cut off by the token limit: finish_reason length)", "agent (faults
// injected into its model calls: rate_limit (429, Retry-After 1s))". It
// is cleaned: a stored transcript may hold any role.
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
	if note := fromCache(t.Usage); note != "" {
		s += " (" + note + ")"
	}
	switch {
	case !t.AbnormalFinish():
	case t.FinishReason == "length":
		s += " (cut off by the token limit: finish_reason length)"
	default:
		s += " (finish_reason " + t.FinishReason + ")"
	}
	if len(t.ModelFaults) > 0 {
		s += " (faults injected into its model calls: " + strings.Join(t.ModelFaults, ", ") + ")"
	}
	return oneLine(s)
}

// revived says how the session was revived before a turn, by the turn's
// index, in one line.
func revived(t *judge.Transcript) map[int]string {
	if t == nil || len(t.Revivals) == 0 {
		return nil
	}
	out := make(map[int]string, len(t.Revivals))
	for _, r := range t.Revivals {
		out[r.BeforeTurn] = oneLine(r.Description())
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
// "user (automatic follow-up)", "user (simulated)", "agent (answered
// from the cache)", and an agent turn whose model stopped for a reason
// other than a natural end or a tool call with that reason, "agent (cut
// off by the token limit: finish_reason length)".
func Speaker(t judge.Turn) string { return speaker(t) }

// followUpNote formats the check of whether a reply asked for
// clarification, as the turn-by-turn reports write it under the reply:
// "follow-up check by the pre-check: none needed (no question mark in the
// reply)", "follow-up check by the model (427 tokens): needed (asks which
// order)"; "" when the reply was not checked.
// It is cleaned.
func followUpNote(c *judge.FollowUpCheck) string {
	if c == nil {
		return ""
	}
	s := "follow-up check by the " + c.By
	if c.Usage.Tokens() > 0 || c.Usage.Unreported {
		s += " (" + tokens(c.Usage) + " tokens)"
	}
	switch {
	case c.Error != "":
		s += ": could not tell (" + c.Error + ")"
	case c.NeedsFollowUp:
		s += ": needed"
	default:
		s += ": none needed"
	}
	if c.Reason != "" && c.Error == "" {
		s += " (" + c.Reason + ")"
	}
	return oneLine(s)
}

// FollowUpNote formats the check of whether a reply asked for
// clarification, as every turn-by-turn report writes it: "follow-up check
// by the pre-check: none needed (no question mark in the reply)"; "" when
// the reply was not checked.
func FollowUpNote(c *judge.FollowUpCheck) string { return followUpNote(c) }
