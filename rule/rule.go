package rule

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gavelhq/gavel/judge"
)

// Scope says which of the agent's texts a text rule reads.
type Scope string

const (
	// Final reads the response the case is judged on
	// (judge.Transcript.Response). It is the default.
	Final Scope = "final"
	// EachTurn reads every agent turn; the rule passes only if every turn
	// does.
	EachTurn Scope = "each_turn"
)

// Opts are the settings shared by the text-matching rules.
type Opts struct {
	// Scope is the text read. Defaults to Final.
	Scope Scope
	// Negate makes the rule pass when the match is absent.
	Negate bool
	// IgnoreCase compares lower-cased text (strings.ToLower on both
	// sides).
	IgnoreCase bool
}

// A passage is one text a rule reads, with where it came from.
type passage struct {
	where string // "final response", "turn 3"
	text  string
}

// passages returns the texts of t that scope selects. For EachTurn, a
// transcript without agent turns falls back to its final response.
func passages(t *judge.Transcript, scope Scope) []passage {
	if scope == EachTurn {
		var out []passage
		for i, turn := range t.Turns {
			if turn.Role == judge.RoleAgent {
				out = append(out, passage{where: "turn " + strconv.Itoa(i+1), text: turn.Content})
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	return []passage{{where: "final response", text: t.Response()}}
}

// passageRule builds a rule that checks each passage the scope selects.
func passageRule(name string, scope Scope, check func(passage) (bool, string)) (judge.Judge, error) {
	if err := checkScope(scope); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return transcriptRule(name, func(t *judge.Transcript) judge.Judgment {
		return eachPassage(name, t, scope, check)
	}), nil
}

// eachPassage applies check to every passage the scope selects and returns
// the verdict: PASS when every passage passes. With several passages, each
// becomes a Check and the reasoning lists the failures.
func eachPassage(name string, t *judge.Transcript, scope Scope, check func(passage) (bool, string)) judge.Judgment {
	ps := passages(t, scope)
	if len(ps) == 1 {
		ok, msg := check(ps[0])
		return verdict(name, ok, msg)
	}
	var checks []judge.Check
	var failures []string
	for _, p := range ps {
		ok, msg := check(p)
		checks = append(checks, judge.Check{Name: p.where, Passed: ok, Message: msg})
		if !ok {
			failures = append(failures, msg)
		}
	}
	if len(failures) > 0 {
		return verdict(name, false, strings.Join(failures, "; "), checks...)
	}
	return verdict(name, true, fmt.Sprintf("all %d agent turns pass", len(ps)), checks...)
}

// checkScope reports an unknown scope when the rule is built.
func checkScope(s Scope) error {
	switch s {
	case "", Final, EachTurn:
		return nil
	}
	return fmt.Errorf("unknown scope %q: want %q or %q", s, Final, EachTurn)
}

// verdict returns a PASS or FAIL judgment named name.
func verdict(name string, passed bool, reasoning string, checks ...judge.Check) judge.Judgment {
	j := judge.Verdict(passed, reasoning)
	j.Name = name
	j.Checks = checks
	return j
}

// transcriptRule builds a rule named name that judges a transcript with
// check. A transcript with nothing in it fails with that reason, so check
// never sees one.
func transcriptRule(name string, check func(*judge.Transcript) judge.Judgment) judge.Judge {
	return judge.Func(func(_ context.Context, t *judge.Transcript) (judge.Judgment, error) {
		if t.IsEmpty() {
			return verdict(name, false, "the transcript is empty: the agent gave no response to check"), nil
		}
		return check(t), nil
	})
}

// excerpt quotes s for a reasoning, cut to at most max runes.
func excerpt(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return strconv.Quote(s)
	}
	r := []rune(s)
	return strconv.Quote(string(r[:max])) + "…"
}

// quoteAll formats values as a comma-separated list of quoted strings.
func quoteAll(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, ", ")
}
