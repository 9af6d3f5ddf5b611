package suitefile

import (
	"fmt"
	"strings"
)

// A Kind says what became of something the source said.
type Kind int

const (
	// Approximated: converted, but Gavel's judge is not quite the
	// source's (the item says how it differs).
	Approximated Kind = iota + 1
	// NotConverted: Gavel has no equivalent; it is kept as a comment.
	NotConverted
)

func (k Kind) String() string {
	switch k {
	case Approximated:
		return "approximated"
	case NotConverted:
		return "not converted"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// An Item is one thing the report says: where it was in the source, what
// it was, and why it was approximated or not converted.
type Item struct {
	Kind  Kind
	Where string // "test 3 (greets the user)", "providers[1]"
	What  string // `javascript assertion "output.length < 100"`
	Why   string
}

// String is the item as a line of the report and a comment of the suite:
// "not converted: javascript assertion "..." (test 3): Gavel runs no
// JavaScript; ...".
func (it Item) String() string {
	s := it.Kind.String() + ": " + it.What
	if it.Where != "" {
		s += " (" + it.Where + ")"
	}
	if it.Why != "" {
		s += ": " + it.Why
	}
	return s
}

// A Report lists what was approximated and what was not converted, in the
// order met.
type Report struct {
	Items []Item
	// Cases is how many cases were written; Judges how many judges.
	Cases, Judges int
}

// Add records an item and returns its line, for a comment.
func (r *Report) Add(kind Kind, where, what, why string) string {
	it := Item{Kind: kind, Where: where, What: what, Why: why}
	r.Items = append(r.Items, it)
	return it.String()
}

// Count returns how many items are of kind.
func (r *Report) Count(kind Kind) int {
	n := 0
	for _, it := range r.Items {
		if it.Kind == kind {
			n++
		}
	}
	return n
}

// Summary is one line: how many cases and judges were written, how many
// items approximated and not converted.
func (r *Report) Summary() string {
	return fmt.Sprintf("%s, %s; %d approximated, %d not converted",
		plural(r.Cases, "case"), plural(r.Judges, "judge"), r.Count(Approximated), r.Count(NotConverted))
}

// Lines are the report's items, one a line.
func (r *Report) Lines() []string {
	out := make([]string, len(r.Items))
	for i, it := range r.Items {
		out[i] = it.String()
	}
	return out
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, strings.TrimSuffix(what, "s"))
}
