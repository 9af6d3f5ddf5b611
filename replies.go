package gavel

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/gavelhq/gavel/judge"
)

// A ReplyPair sets what the agent said for one case in two runs side by
// side: the transcript of the first trial of each run that has one (the
// trial numbered lowest). It is what gavel compare shows under
// "Replies", and what a pairwise judge is asked about (see
// Comparison.Pairwise).
type ReplyPair struct {
	// ID is the case's id; Name its name in the head, else the base.
	ID, Name string
	// Base and Head are the transcripts compared, nil when the run has no
	// trial of the case with a transcript; BaseTrial and HeadTrial their
	// trial numbers.
	Base, Head           *judge.Transcript
	BaseTrial, HeadTrial int
	// Differs is true when the agent's replies (every agent turn's text)
	// or its tool calls (names and arguments, in order) differ, or only
	// one run has a transcript.
	Differs bool
	// Pairwise is what the pairwise judge said of the pair, nil when none
	// was asked.
	Pairwise *PairwiseVerdict
}

// A PairwiseVerdict is a pairwise judge's word on a ReplyPair.
type PairwiseVerdict struct {
	// Winner is PreferBase, PreferHead or PreferNeither (a tie: the
	// judge found them equal, or its two orders disagreed); "" when it
	// could not judge (Error says why).
	Winner    Preference
	Reasoning string
	Error     string
	// Usage is what asking cost.
	Usage judge.Usage
}

// A Preference is which of two runs' replies a pairwise judge prefers.
type Preference string

// The preferences of a pairwise judge.
const (
	PreferBase    Preference = "base"
	PreferHead    Preference = "head"
	PreferNeither Preference = "tie"
)

// A PairwiseTally counts a pairwise judge's preferences over the cases of
// a comparison.
type PairwiseTally struct {
	// Criteria are what the judge was told makes a reply better; Model
	// the judge's model.
	Criteria, Model string
	// Base and Head count the cases whose base or head reply won; Ties
	// those where neither did (identical replies, which are not sent to
	// the judge, included); Errors those it could not judge (a side
	// without a transcript, a model that failed).
	Base, Head, Ties, Errors int
	// Usage is what the judge's calls cost.
	Usage judge.Usage
}

// Replies pairs the cases two runs both have, by id as Compare matches
// them, in the head's order, with the transcript of each run's first
// trial that has one.
func Replies(base, head *Run) []ReplyPair {
	if base == nil || head == nil {
		return nil
	}
	inBase := map[string][]int{}
	for i := range base.Cases {
		id := base.Cases[i].ID()
		inBase[id] = append(inBase[id], i)
	}
	var out []ReplyPair
	for i := range head.Cases {
		h := &head.Cases[i]
		id := h.ID()
		idx := inBase[id]
		if len(idx) == 0 {
			continue
		}
		b := &base.Cases[idx[0]]
		inBase[id] = idx[1:]
		p := ReplyPair{ID: id, Name: caseName(h, b)}
		p.Base, p.BaseTrial = firstTranscript(b)
		p.Head, p.HeadTrial = firstTranscript(h)
		p.Differs = p.Base == nil || p.Head == nil || !slices.Equal(AgentSaid(p.Base), AgentSaid(p.Head)) ||
			!slices.Equal(CallsOf(p.Base), CallsOf(p.Head))
		out = append(out, p)
	}
	return out
}

// firstTranscript returns the transcript of the lowest-numbered trial of
// r that has one, and its number.
func firstTranscript(r *CaseResult) (*judge.Transcript, int) {
	var t *judge.Transcript
	n := 0
	for _, tr := range r.Trials {
		if tr.Transcript != nil && (t == nil || tr.N < n) {
			t, n = tr.Transcript, tr.N
		}
	}
	return t, n
}

// AgentSaid returns the text of every agent turn of t, in order; the
// final response alone when t has no agent turn with text (an imported
// transcript may hold only that).
func AgentSaid(t *judge.Transcript) []string {
	var out []string
	for _, turn := range t.AgentTurns() {
		if turn.Content != "" {
			out = append(out, turn.Content)
		}
	}
	if len(out) == 0 && t.Response() != "" {
		out = append(out, t.Response())
	}
	return out
}

// CallsOf returns t's tool calls, each as name(arguments) with its
// arguments as compact JSON (as written when they are not JSON), and
// " -> error" after a call the tool refused.
func CallsOf(t *judge.Transcript) []string {
	var out []string
	for _, c := range t.ToolCalls() {
		var b bytes.Buffer
		args := string(c.Arguments)
		if json.Compact(&b, c.Arguments) == nil {
			args = b.String()
		}
		s := c.Name + "(" + strings.TrimSpace(args) + ")"
		if c.IsError {
			s += " -> error"
		}
		out = append(out, s)
	}
	return out
}

// TallyPairwise counts the pairwise verdicts of c.Replies into
// c.Pairwise, which must be set (with its criteria and model): a pair
// without a verdict counts as an error.
func (c *Comparison) TallyPairwise() {
	t := c.Pairwise
	t.Base, t.Head, t.Ties, t.Errors, t.Usage = 0, 0, 0, 0, judge.Usage{}
	for _, p := range c.Replies {
		if p.Pairwise == nil {
			t.Errors++
			continue
		}
		t.Usage = t.Usage.Add(p.Pairwise.Usage)
		switch p.Pairwise.Winner {
		case PreferBase:
			t.Base++
		case PreferHead:
			t.Head++
		case PreferNeither:
			t.Ties++
		default:
			t.Errors++
		}
	}
}
