package report

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/gavelhq/gavel"
)

// shownReplies returns the pairs of replies a comparison report shows:
// those that differ, or all with ComparisonOptions.AllReplies.
func shownReplies(c gavel.Comparison, opts ComparisonOptions) []gavel.ReplyPair {
	var out []gavel.ReplyPair
	for _, p := range c.Replies {
		if p.Differs || opts.AllReplies {
			out = append(out, p)
		}
	}
	return out
}

// replyText is what the agent said in a transcript, on one line: its
// turns cleaned, joined by " ¶ ".
func replyText(said []string) string {
	lines := make([]string, len(said))
	for i, s := range said {
		lines[i] = oneLine(s)
	}
	return strings.Join(lines, " ¶ ")
}

// cleanCalls cleans tool calls written by gavel.CallsOf, one line each.
func cleanCalls(calls []string) []string {
	out := make([]string, len(calls))
	for i, c := range calls {
		out[i] = oneLine(c)
	}
	return out
}

// ReplyDiff is a pair of replies as the reports show it: the replies' word
// diff and the tool calls' line diff, cleaned (one line each, no control
// characters); what the web app's comparison page shows too. A side
// missing (no transcript) has its Missing set, and all of the other's
// text is inserted or deleted.
type ReplyDiff struct {
	// Reply is the replies' word diff; Calls the tool calls' line diff,
	// an edit a call.
	Reply, Calls             []Edit
	BaseMissing, HeadMissing bool
	BaseCalls, HeadCalls     int
	SameReply, SameCalls     bool
}

// DiffReplies diffs a pair of replies (see ReplyDiff).
func DiffReplies(p gavel.ReplyPair) ReplyDiff {
	base, head := replyText(gavel.AgentSaid(p.Base)), replyText(gavel.AgentSaid(p.Head))
	bc, hc := cleanCalls(gavel.CallsOf(p.Base)), cleanCalls(gavel.CallsOf(p.Head))
	return ReplyDiff{
		Reply: WordDiff(base, head), Calls: DiffLines(bc, hc),
		BaseMissing: p.Base == nil, HeadMissing: p.Head == nil,
		BaseCalls: len(bc), HeadCalls: len(hc),
		SameReply: base == head, SameCalls: strings.Join(bc, "\n") == strings.Join(hc, "\n"),
	}
}

// PairwiseWords says what a pairwise judge preferred, in words: "head is
// better", "base is better", "a tie", "could not judge: …".
func PairwiseWords(v *gavel.PairwiseVerdict, base, head string) string {
	switch {
	case v == nil:
		return ""
	case v.Winner == gavel.PreferBase:
		return base + " is better"
	case v.Winner == gavel.PreferHead:
		return head + " is better"
	case v.Winner == gavel.PreferNeither:
		return "a tie"
	}
	return "could not judge: " + oneLine(v.Error)
}

// pairwiseTallyWords sums a pairwise tally up on one line.
func pairwiseTallyWords(t *gavel.PairwiseTally, base, head string) string {
	s := fmt.Sprintf("%s wins %d, %s wins %d, ties %d", base, t.Base, head, t.Head, t.Ties)
	if t.Errors > 0 {
		s += fmt.Sprintf(", could not judge %d", t.Errors)
	}
	return s
}

// writeRepliesText writes the Replies section of the text comparison:
// for each case shown, the replies as a word diff ([-base-]{+head+}) and
// the tool calls as a line diff ("- " base only, "+ " head only).
func writeRepliesText(b *bytes.Buffer, c gavel.Comparison, opts ComparisonOptions, base, head string) {
	if c.Replies == nil {
		return
	}
	shown := shownReplies(c, opts)
	differ := 0
	for _, p := range c.Replies {
		if p.Differs {
			differ++
		}
	}
	fmt.Fprintf(b, "\nReplies (%s -> %s): %d of %d cases in both runs differ", base, head, differ, len(c.Replies))
	if !opts.AllReplies && differ < len(c.Replies) {
		b.WriteString(" (--all-replies shows every case)")
	}
	b.WriteString("\n")
	for _, p := range shown {
		d := DiffReplies(p)
		fmt.Fprintf(b, "\n%s", oneLine(p.ID))
		if p.Name != "" {
			fmt.Fprintf(b, " %s", oneLine(p.Name))
		}
		fmt.Fprintf(b, " (trial %d -> trial %d)\n", p.BaseTrial, p.HeadTrial)
		switch {
		case d.BaseMissing:
			fmt.Fprintf(b, "  no transcript in %s\n", base)
		case d.HeadMissing:
			fmt.Fprintf(b, "  no transcript in %s\n", head)
		}
		b.WriteString("  reply: ")
		if d.SameReply {
			b.WriteString("(same) ")
		}
		for _, e := range d.Reply {
			switch e.Op {
			case Delete:
				fmt.Fprintf(b, "[-%s-]", e.Text)
			case Insert:
				fmt.Fprintf(b, "{+%s+}", e.Text)
			default:
				b.WriteString(e.Text)
			}
		}
		b.WriteString("\n")
		switch {
		case d.SameCalls && d.BaseCalls == 0:
			b.WriteString("  tool calls: none in either\n")
		case d.SameCalls:
			fmt.Fprintf(b, "  tool calls: the same %d\n", d.BaseCalls)
			if opts.AllReplies {
				writeCallLines(b, d.Calls)
			}
		default:
			b.WriteString("  tool calls:\n")
			writeCallLines(b, d.Calls)
		}
		if p.Pairwise != nil {
			fmt.Fprintf(b, "  pairwise: %s", PairwiseWords(p.Pairwise, base, head))
			if r := firstLine(p.Pairwise.Reasoning); r != "" && p.Pairwise.Error == "" {
				fmt.Fprintf(b, " (%s)", shorten(oneLine(r), 160))
			}
			b.WriteString("\n")
		}
	}
}

// writeCallLines writes a line diff of tool calls, one call a line.
func writeCallLines(b *bytes.Buffer, calls []Edit) {
	for _, e := range calls {
		prefix := "   "
		switch e.Op {
		case Delete:
			prefix = "  -"
		case Insert:
			prefix = "  +"
		}
		fmt.Fprintf(b, "  %s %s\n", prefix, e.Text)
	}
}

// firstLine returns s up to its first line break.
func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}
