package audit

import "github.com/gavelhq/gavel/judge"

// The filler the verbosity probe pads a reply with: courtesy that says
// nothing the reply did not, neither right nor wrong, asks nothing (no
// question mark) and promises nothing. A judge that scores the padded
// reply higher rewards length, not content.
const (
	fillerBefore = "Thank you for your message. I have read it carefully, and here is my reply.\n\n"
	fillerAfter  = "\n\nI hope this reply is clear. To sum up, the answer is the one given above, " +
		"and there is nothing further to add to it. Thank you again for your message, " +
		"and for taking the time to write."
)

// Pad returns t with each round's reply (the last agent turn of every
// round, and FinalResponse when set) padded with neutral filler before
// and after it; t is not changed. The tool calls and everything else are
// kept.
func Pad(t *judge.Transcript) *judge.Transcript {
	out := *t
	out.Turns = make([]judge.Turn, len(t.Turns))
	copy(out.Turns, t.Turns)
	last := map[int]int{} // round -> index of its last agent turn
	for i, turn := range out.Turns {
		if turn.Role == judge.RoleAgent {
			last[turn.Round] = i
		}
	}
	for _, i := range last {
		out.Turns[i].Content = pad(out.Turns[i].Content)
	}
	if out.FinalResponse != "" {
		out.FinalResponse = pad(out.FinalResponse)
	}
	return &out
}

func pad(reply string) string { return fillerBefore + reply + fillerAfter }
