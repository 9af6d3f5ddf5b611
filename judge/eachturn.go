package judge

import (
	"context"
	"fmt"
	"slices"
)

// EachTurn judges every agent turn of a transcript with j, one at a time,
// as a conversational product is judged: j sees the turn as the response,
// the messages since the agent's previous turn as the request, and every
// earlier turn as context (see Transcript.AgentTurn). It passes when every
// turn passes, by All's rule, and its parts are the turns' judgments,
// named "turn 1", "turn 2", ... counting the agent's turns. A transcript
// without an agent turn is an ERROR: there is nothing to judge.
func EachTurn(j Judge) Judge {
	return Func(func(ctx context.Context, t *Transcript) (Judgment, error) {
		n := len(t.AgentTurns())
		if n == 0 {
			return Judgment{Name: "each turn"}, fmt.Errorf("each turn: the agent never answered")
		}
		turns := make([]Judge, n)
		for k := range n {
			turns[k] = Func(func(ctx context.Context, t *Transcript) (Judgment, error) {
				out := Run(ctx, j, t.AgentTurn(k+1))
				out.Name = fmt.Sprintf("turn %d", k+1)
				return out, nil
			})
		}
		out, err := All(turns...).Judge(ctx, t)
		out.Name = "each turn"
		return out, err
	})
}

// AgentTurn returns the part of t that judges the agent's k-th turn
// (from 1): that turn and the messages since the agent's previous turn as
// Turns, everything before as Context, and the last of those messages
// from a user as Goal (t's Goal when there is none). Its Response is the
// turn. It returns a transcript with no turns when the agent has fewer
// than k turns.
func (t *Transcript) AgentTurn(k int) *Transcript {
	if t == nil {
		return nil
	}
	start, seen := 0, 0
	for i, turn := range t.Turns {
		if turn.Role != RoleAgent {
			continue
		}
		if seen++; seen < k {
			start = i + 1
			continue
		}
		r := *t
		r.FinalResponse, r.Revivals = "", nil
		r.Context = append(slices.Clip(t.Context), t.Turns[:start]...)
		r.Turns = t.Turns[start : i+1 : i+1]
		r.Usage = Usage{}
		for _, turn := range r.Turns {
			r.Usage = r.Usage.Add(turn.Usage)
			if turn.Role == RoleUser {
				r.Goal = turn.Content
			}
		}
		if i < len(t.Turns)-1 {
			r.Status, r.Error = ExecSuccess, "" // the conversation went on after it
		}
		return &r
	}
	r := *t
	r.Turns, r.FinalResponse = nil, ""
	return &r
}
