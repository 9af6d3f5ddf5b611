package rule

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/gavelhq/gavel/judge"
)

// A textMatch tests one text. want describes a match as a verb phrase
// ("contain \"refund\""); test reports whether text matches and, when it
// helps, a detail for the reasoning ("missing \"refund\"").
type textMatch struct {
	kind string // with arg, names the judge: `contains "refund"`
	arg  string
	want string
	test func(text string) (matched bool, detail string)
}

// Equals passes when the text equals want, ignoring surrounding whitespace.
func Equals(want string, o Opts) (judge.Judge, error) {
	fold := folder(o.IgnoreCase)
	w := fold(strings.TrimSpace(want))
	return textRule(o, textMatch{
		kind: "equals",
		arg:  excerpt(want, 80),
		want: "equal " + excerpt(want, 80),
		test: func(text string) (bool, string) { return fold(strings.TrimSpace(text)) == w, "" },
	})
}

// Contains passes when the text contains sub.
func Contains(sub string, o Opts) (judge.Judge, error) {
	return ContainsAll([]string{sub}, o)
}

// ContainsAll passes when the text contains every one of subs; the
// reasoning names the missing ones.
func ContainsAll(subs []string, o Opts) (judge.Judge, error) {
	kind, want := "contains_all", "contain all of "+quoteAll(subs)
	if len(subs) == 1 {
		kind, want = "contains", "contain "+quoteAll(subs)
	}
	if err := checkValues(subs); err != nil {
		return nil, fmt.Errorf("%s: %w", kind, err)
	}
	fold := folder(o.IgnoreCase)
	return textRule(o, textMatch{kind: kind, arg: quoteAll(subs), want: want, test: func(text string) (bool, string) {
		text = fold(text)
		var missing []string
		for _, s := range subs {
			if !strings.Contains(text, fold(s)) {
				missing = append(missing, s)
			}
		}
		if len(missing) > 0 && len(subs) > 1 {
			return false, "missing " + quoteAll(missing)
		}
		return len(missing) == 0, ""
	}})
}

// ContainsAny passes when the text contains at least one of subs; the
// reasoning names the ones found.
func ContainsAny(subs []string, o Opts) (judge.Judge, error) {
	if err := checkValues(subs); err != nil {
		return nil, fmt.Errorf("contains_any: %w", err)
	}
	fold := folder(o.IgnoreCase)
	return textRule(o, textMatch{kind: "contains_any", arg: quoteAll(subs), want: "contain any of " + quoteAll(subs), test: func(text string) (bool, string) {
		text = fold(text)
		var found []string
		for _, s := range subs {
			if strings.Contains(text, fold(s)) {
				found = append(found, s)
			}
		}
		if len(found) == 0 {
			return false, ""
		}
		return true, "found " + quoteAll(found)
	}})
}

// Regex passes when the text matches the regular expression pattern (Go's
// RE2 syntax). An invalid pattern is an error now, not when judging.
func Regex(pattern string, o Opts) (judge.Judge, error) {
	expr := pattern
	if o.IgnoreCase {
		expr = "(?i)" + pattern
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, fmt.Errorf("regex %q: %w", pattern, err)
	}
	return textRule(o, textMatch{kind: "regex", arg: "/" + pattern + "/", want: "match /" + pattern + "/", test: func(text string) (bool, string) {
		if loc := re.FindStringIndex(text); loc != nil {
			return true, "matched " + excerpt(text[loc[0]:loc[1]], 60)
		}
		return false, ""
	}})
}

// StartsWith passes when the text, less leading whitespace, starts with
// prefix.
func StartsWith(prefix string, o Opts) (judge.Judge, error) {
	if prefix == "" {
		return nil, errors.New("starts_with: the prefix is empty")
	}
	fold := folder(o.IgnoreCase)
	p := fold(prefix)
	return textRule(o, textMatch{kind: "starts_with", arg: excerpt(prefix, 80), want: "start with " + excerpt(prefix, 80), test: func(text string) (bool, string) {
		return strings.HasPrefix(fold(strings.TrimLeft(text, " \t\r\n")), p), ""
	}})
}

// textRule builds the judge shared by the text-matching rules: it applies
// m to every passage the scope selects, negated when asked.
func textRule(o Opts, m textMatch) (judge.Judge, error) {
	name := m.kind + " " + m.arg
	if o.Negate {
		name = "not " + name
	}
	return passageRule(name, o.Scope, func(p passage) (bool, string) {
		matched, detail := m.test(p.text)
		if detail != "" {
			detail = ": " + detail
		}
		switch {
		case !o.Negate && matched:
			return true, fmt.Sprintf("%s does %s%s", p.where, m.want, detail)
		case !o.Negate:
			return false, fmt.Sprintf("%s does not %s%s (got %s)", p.where, m.want, detail, excerpt(p.text, 200))
		case matched:
			return false, fmt.Sprintf("%s must not %s, but does%s (got %s)", p.where, m.want, detail, excerpt(p.text, 200))
		default:
			return true, fmt.Sprintf("%s does not %s", p.where, m.want)
		}
	})
}

// folder returns the case folding the rule uses: lower-casing, or none.
func folder(ignoreCase bool) func(string) string {
	if ignoreCase {
		return strings.ToLower
	}
	return func(s string) string { return s }
}

// checkValues refuses an empty list, or an empty string in it, which would
// match every text.
func checkValues(values []string) error {
	if len(values) == 0 {
		return errors.New("no text to look for")
	}
	for i, v := range values {
		if v == "" {
			return fmt.Errorf("text %d to look for is empty: it would match anything", i+1)
		}
	}
	return nil
}
