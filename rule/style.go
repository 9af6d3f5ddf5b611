package rule

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gavelhq/gavel/judge"
)

// The style rules enforce how a conversational agent writes, as a
// character's style guide would: they are cheap, so they run before any
// LLM judge, and they are often used Soft, so that a slip becomes context
// for the judge's style score instead of a failure.

// Length passes when the text has at least min and at most max characters
// (runes). A max of 0 means no upper limit.
func Length(min, max int, scope Scope) (judge.Judge, error) {
	if min < 0 || max < 0 || (max > 0 && max < min) {
		return nil, fmt.Errorf("length: bounds %d..%d: want 0 <= min <= max (max 0 for no limit)", min, max)
	}
	name := fmt.Sprintf("length %d..%d", min, max)
	if max == 0 {
		name = fmt.Sprintf("length >= %d", min)
	}
	b := bounds{of: "characters", min: new(float64(min))}
	if max > 0 {
		b.max = new(float64(max))
	}
	return measuredRule(name, scope, b, func(p passage) (bool, string, float64) {
		n := utf8.RuneCountInString(p.text)
		ok := n >= min && (max == 0 || n <= max)
		return ok, fmt.Sprintf("%s has %d characters, want %s", p.where, n, strings.TrimPrefix(name, "length ")), float64(n)
	})
}

// MaxQuestions passes when the text asks at most max questions. A question
// is a run of question marks ("?", "？"), so "really??" counts once.
func MaxQuestions(max int, scope Scope) (judge.Judge, error) {
	if max < 0 {
		return nil, fmt.Errorf("max_questions: %d is negative", max)
	}
	return measuredRule(fmt.Sprintf("max_questions %d", max), scope, atMost("questions", float64(max), ""), func(p passage) (bool, string, float64) {
		n := len(questionRuns.FindAllStringIndex(p.text, -1))
		return n <= max, fmt.Sprintf("%s asks %d question(s), at most %d allowed", p.where, n, max), float64(n)
	})
}

var questionRuns = regexp.MustCompile(`[?？]+`)

// MaxBubbles passes when the text has at most max message bubbles:
// paragraphs separated by blank lines, as a chat app would send them.
func MaxBubbles(max int, scope Scope) (judge.Judge, error) {
	if max < 1 {
		return nil, fmt.Errorf("max_bubbles: %d: want at least 1", max)
	}
	return measuredRule(fmt.Sprintf("max_bubbles %d", max), scope, atMost("bubbles", float64(max), ""), func(p passage) (bool, string, float64) {
		n := countBubbles(p.text)
		return n <= max, fmt.Sprintf("%s has %d bubble(s), at most %d allowed", p.where, n, max), float64(n)
	})
}

var blankLines = regexp.MustCompile(`\n[ \t\r]*\n`)

func countBubbles(text string) int {
	n := 0
	for _, para := range blankLines.Split(text, -1) {
		if strings.TrimSpace(para) != "" {
			n++
		}
	}
	return n
}

// ForbiddenPhrases fails when the text contains any of phrases. Matching
// ignores case and treats typographic apostrophes and quotes as plain ones,
// so "I’m sorry" is caught by "i'm sorry".
func ForbiddenPhrases(phrases []string, scope Scope) (judge.Judge, error) {
	if err := checkValues(phrases); err != nil {
		return nil, fmt.Errorf("forbidden_phrases: %w", err)
	}
	norm := make([]string, len(phrases))
	for i, p := range phrases {
		norm[i] = normalizePhrase(p)
	}
	return passageRule("forbidden_phrases", scope, func(p passage) (bool, string) {
		text := normalizePhrase(p.text)
		var found []string
		for i, phrase := range norm {
			if strings.Contains(text, phrase) {
				found = append(found, phrases[i])
			}
		}
		if len(found) > 0 {
			return false, fmt.Sprintf("%s uses forbidden phrasing %s", p.where, quoteAll(found))
		}
		return true, fmt.Sprintf("%s uses no forbidden phrasing", p.where)
	})
}

var typographic = strings.NewReplacer("’", "'", "‘", "'", "“", `"`, "”", `"`)

func normalizePhrase(s string) string { return strings.ToLower(typographic.Replace(s)) }

// LowercaseOnly fails when the text has an upper-case letter, as a persona
// that texts in lower case must not.
func LowercaseOnly(scope Scope) (judge.Judge, error) {
	return passageRule("lowercase_only", scope, func(p passage) (bool, string) {
		for _, word := range strings.Fields(p.text) {
			if strings.IndexFunc(word, unicode.IsUpper) >= 0 {
				return false, fmt.Sprintf("%s has upper case in %s", p.where, excerpt(word, 40))
			}
		}
		return true, fmt.Sprintf("%s is all lower case", p.where)
	})
}

// NoEmDash fails when the text has an em-dash (—), the tell-tale of
// machine-written prose that many style guides forbid.
func NoEmDash(scope Scope) (judge.Judge, error) {
	return passageRule("no_em_dash", scope, func(p passage) (bool, string) {
		if i := strings.Index(p.text, "—"); i >= 0 {
			return false, fmt.Sprintf("%s has an em-dash near %s", p.where, excerpt(around(p.text, i), 60))
		}
		return true, fmt.Sprintf("%s has no em-dash", p.where)
	})
}

// NoPlaceholders fails when the text leaks a template placeholder:
// {name}, {{ var }}, [PLACEHOLDER] or <TODO> (upper case in brackets).
func NoPlaceholders(scope Scope) (judge.Judge, error) {
	return passageRule("no_placeholders", scope, func(p passage) (bool, string) {
		if found := placeholders.FindAllString(p.text, 5); len(found) > 0 {
			return false, fmt.Sprintf("%s leaks placeholder(s) %s", p.where, quoteAll(found))
		}
		return true, fmt.Sprintf("%s leaks no placeholder", p.where)
	})
}

var placeholders = regexp.MustCompile(`\{\{\s*[^{}\s][^{}]*\}\}|\{[A-Za-z_][A-Za-z0-9_.]*\}|\[[A-Z][A-Z0-9_ ]+\]|<[A-Z][A-Z0-9_ ]+>`)

// around returns up to 20 runes either side of byte offset i in s.
func around(s string, i int) string {
	start, end := i, i
	for n := 0; n < 20 && start > 0; n++ {
		_, size := utf8.DecodeLastRuneInString(s[:start])
		start -= size
	}
	for n := 0; n < 21 && end < len(s); n++ {
		_, size := utf8.DecodeRuneInString(s[end:])
		end += size
	}
	return s[start:end]
}
