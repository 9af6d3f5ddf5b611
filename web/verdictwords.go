package web

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/gavelhq/gavel/judge"
)

// A verdict's tree is read by people who are not engineers: the verdict
// says in words which judges decided it, of what kind each is, and a
// model judge's score against its own threshold; a composite's score (a
// mean over its parts, rules included) is not shown as if it were one to
// read.

// maxDeciders is how many deciding judges a verdict's words name; the
// rest are counted.
const maxDeciders = 3

// verdictWords says in words what decided a judgment: "FAIL: decided by
// forbidden_tools (a rule): called cancel_order".
func verdictWords(j judge.Judgment) string {
	ds := deciders(j)
	var parts []string
	for i, d := range ds {
		if i == maxDeciders {
			parts = append(parts, fmt.Sprintf("and %d more", len(ds)-maxDeciders))
			break
		}
		parts = append(parts, deciderWords(d))
	}
	verb := "decided by"
	switch j.Status {
	case judge.StatusPass:
		verb = "passed by"
	case judge.StatusError:
		verb = "could not be judged by"
	case judge.StatusAbstain:
		return "ABSTAIN: no judge had anything to say"
	}
	return fmt.Sprintf("%s: %s %s", j.Status, verb, strings.Join(parts, "; "))
}

// deciders are the judges of a tree that decided its outcome: the leaves
// (or juries) whose outcome is the tree's, through every composite that
// has it too.
func deciders(j judge.Judgment) []judge.Judgment {
	if len(j.Parts) == 0 || isJury(j) {
		return []judge.Judgment{j}
	}
	var out []judge.Judgment
	for _, p := range j.Parts {
		if p.Status == j.Status {
			out = append(out, deciders(p)...)
		}
	}
	if len(out) == 0 { // a not, or a composite that decided by itself
		return []judge.Judgment{j}
	}
	return out
}

// isJury reports whether j is a jury's verdict: a strategy decided it,
// not a tier.
func isJury(j judge.Judgment) bool {
	return len(j.Parts) > 0 && j.DecidedBy != "" && !strings.HasPrefix(j.DecidedBy, "tier ")
}

// deciderWords names a deciding judge, its kind, and why:
// "rubric (a model judge): 0.55 below its threshold 0.7".
func deciderWords(d judge.Judgment) string {
	name := oneLine(d.Name)
	if name == "" {
		name = "the verdict"
	}
	why := firstLine(d.Reasoning)
	if score, against := thresholdWords(d); against != "" {
		why = score + " " + against
	}
	out := name
	if kind := kindOf(d); kind != "" {
		out += " (" + kind + ")"
	}
	if why != "" {
		out += ": " + why
	}
	return out
}

// kindOf says what kind of judge made a judgment: a rule (no model
// asked), a model judge, a jury; "" for a composite.
func kindOf(j judge.Judgment) string {
	switch {
	case isJury(j):
		return "a jury, by " + oneLine(j.DecidedBy)
	case len(j.Parts) > 0:
		return ""
	case j.Prompt != "" || j.Usage.InputTokens+j.Usage.OutputTokens > 0 || j.Usage.CostUSD > 0:
		return "a model judge"
	}
	return "a rule"
}

// modelScore reads a model judge's score and threshold from the start
// of its reasoning, as llmjudge writes it: "score 0.55 < 0.7: ..." or
// "mean score of 3 samples 0.8 ≥ 0.7 (range ...)".
var modelScore = regexp.MustCompile(`^(?:score|\w+ score of \d+ samples) (-?[0-9.]+) (<|≥) (-?[0-9.]+)\b`)

// thresholdWords returns a model judge's score and its place against its
// own threshold ("below its threshold 0.7"), or "" for a judgment that
// records none.
func thresholdWords(j judge.Judgment) (score, against string) {
	if len(j.Parts) > 0 || (j.Status != judge.StatusPass && j.Status != judge.StatusFail) {
		return "", ""
	}
	m := modelScore.FindStringSubmatch(j.Reasoning)
	if m == nil {
		return "", ""
	}
	if m[2] == "<" {
		return m[1], "below its threshold " + m[3]
	}
	return m[1], "meets its threshold " + m[3]
}

// firstLine is the first line of a text, shortened for a sentence.
func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return shorten(oneLine(s), 160)
}
