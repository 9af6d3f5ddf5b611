package report

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/jury"
)

// A Node is one judgment of a verdict's tree as it reads to someone who
// is not an engineer: what it is in words, and the technical name an
// engineer knows it by (the suite format's kind) beside it, not in its
// place. "tiered" reads "The rules first, then the model judges"; "all",
// "All of these must pass".
type Node struct {
	// Words names the judgment: its judge's name ("tone"), or, for a
	// composite that has no name of its own, what it does ("All of these
	// must pass"). A part of a tiered judgment says which tier it is ("The
	// rules: all of these must pass").
	Words string
	// Kind says what made the judgment when Words does not: "a rule", "a
	// model judge", "a jury of 3: the majority of the jurors decides", or
	// how a named composite decides ("all of these must pass"); "" when
	// Words says it all.
	Kind string
	// Note says more that a reader needs: which tier stopped a tiered
	// judgment ("tier 1 did not pass, so the tiers after it did not
	// run"); "" most of the time.
	Note string
	// Technical is the composite's name in the suite format, with what
	// decided it ("tiered", "all", "jury, majority (tie: fail)", "tier 2"),
	// for those who know it; "" for a judge.
	Technical string
}

// Describe says what a judgment of a verdict's tree is; DescribeParts
// says it of its parts, which for a tiered judgment are tiers.
func Describe(j judge.Judgment) Node {
	name := oneLine(j.Name)
	if name == "" {
		name = "verdict"
	}
	round, bare := splitRound(name)
	rule, technical := composition(j)
	if rule == "" { // a judge, not a composite
		return Node{Words: name, Kind: kindOf(j)}
	}
	out := Node{Technical: technical}
	if bare == technical || (technical == "not" && strings.HasPrefix(bare, "not ")) { // no name of its own
		out.Words = round + capitalize(rule)
	} else {
		out.Words, out.Kind = name, rule
	}
	if isJury(j) {
		out.Kind = fmt.Sprintf("a jury of %d: %s", len(j.Parts), rule)
	}
	if n, ok := stoppedAt(j); ok {
		out.Note = fmt.Sprintf("tier %d did not pass, so the tiers after it did not run", n)
	}
	return out
}

// DescribeParts says what each part of j is, as Describe does, and for
// the parts of a tiered judgment which tier each is and what it holds.
func DescribeParts(j judge.Judgment) []Node {
	out := make([]Node, len(j.Parts))
	for i, p := range j.Parts {
		out[i] = Describe(p)
		if !isTiered(j) {
			continue
		}
		tier := fmt.Sprintf("tier %d", i+1)
		what := tierWords(p)
		switch {
		case what == "":
		case out[i].Technical != "" && out[i].Kind == "": // a composite under its kind's name: say what it holds
			out[i].Words = capitalize(what) + ": " + strings.ToLower(out[i].Words[:1]) + out[i].Words[1:]
		default:
			tier += ", " + what
		}
		out[i].Technical = strings.TrimPrefix(out[i].Technical+" · "+tier, " · ")
	}
	return out
}

// composition says how a composite's parts make its outcome, and the
// suite format's name for it; "", "" for a judgment that is no
// composite (a judge, a judge's own parts included: a criteria judge's
// axes).
func composition(j judge.Judgment) (rule, technical string) {
	switch {
	case len(j.Parts) == 0 || j.Prompt != "" || len(j.ToolCalls) > 0:
		return "", ""
	case isJury(j):
		strategy, _, _ := strings.Cut(j.DecidedBy, " ")
		return juryWords[jury.Strategy(strategy)], "jury, " + oneLine(j.DecidedBy)
	case isTiered(j):
		var tiers []string
		for i, p := range j.Parts {
			if w := tierWords(p); w != "" {
				tiers = append(tiers, w)
			} else {
				tiers = append(tiers, fmt.Sprintf("tier %d", i+1))
			}
		}
		if n, stopped := stoppedAt(j); stopped && n == len(j.Parts) {
			tiers = append(tiers, "the later tiers")
		}
		if len(tiers) == 1 {
			return tiers[0], "tiered"
		}
		return tiers[0] + " first, then " + strings.Join(tiers[1:], ", then ") + ", each only when the one before it passed", "tiered"
	}
	_, bare := splitRound(oneLine(j.Name))
	switch compositeRule(j) {
	case judge.CompositeAll:
		if bare == "each turn" {
			return "every turn must pass", "each turn"
		}
		return "all of these must pass", "all"
	case judge.CompositeAny:
		return "any one of these passing is enough", "any"
	case judge.CompositeNot:
		return "passes when the judge below fails", "not"
	case judge.CompositeSoft:
		return "a soft check: its failure is noted for the judges after it, and fails nothing", "soft"
	}
	if bare == "weighted" || j.Threshold != nil {
		return "the weighted mean of these scores must reach its threshold", "weighted"
	}
	return "", ""
}

// compositeRule is the rule by which a composite's status was computed from its
// parts (j.Composite); for a judgment stored before composites recorded
// it, the one its judge's name gives ("all", "tiered", "not tone").
func compositeRule(j judge.Judgment) judge.Composite {
	if j.Composite != "" || len(j.Parts) == 0 {
		return j.Composite
	}
	_, bare := splitRound(oneLine(j.Name))
	_, stopped := stoppedAt(j)
	switch {
	case bare == "all" || bare == "tiered" || bare == "each turn" || stopped:
		return judge.CompositeAll
	case bare == "any":
		return judge.CompositeAny
	case strings.HasPrefix(bare, "not ") && len(j.Parts) == 1:
		return judge.CompositeNot
	}
	return ""
}

// juryWords says how a jury's strategy turns its jurors' votes into one
// verdict.
var juryWords = map[jury.Strategy]string{
	jury.Majority:        "the majority of the jurors decides",
	jury.Consensus:       "every juror must pass it",
	jury.Average:         "the jurors' average score must reach its threshold",
	jury.WeightedAverage: "the jurors' weighted average score must reach its threshold",
	jury.Median:          "the jurors' median score must reach its threshold",
}

// isTiered reports whether j is judge.Tiered's: All's rule under the
// name "tiered", or with the tier that stopped it in DecidedBy.
func isTiered(j judge.Judgment) bool {
	_, bare := splitRound(oneLine(j.Name))
	_, stopped := stoppedAt(j)
	return compositeRule(j) == judge.CompositeAll && (bare == "tiered" || stopped)
}

// stoppedAt returns the tier that stopped a tiered judgment (its
// DecidedBy, "tier 2").
func stoppedAt(j judge.Judgment) (int, bool) {
	var n int
	if _, err := fmt.Sscanf(j.DecidedBy, "tier %d", &n); err != nil || j.DecidedBy != fmt.Sprintf("tier %d", n) {
		return 0, false
	}
	return n, true
}

// tierWords says what a tier holds, judged by what its judges did: "the
// rules" when none of them asked a model, "the model judges" when every
// one did, "" when it holds both or a judge that could not judge without
// saying which it was.
func tierWords(tier judge.Judgment) string {
	var rules, models, unknown int
	var walk func(j judge.Judgment)
	walk = func(j judge.Judgment) {
		rule, _ := composition(j)
		if rule != "" && !isJury(j) {
			for _, p := range j.Parts {
				walk(p)
			}
			return
		}
		switch {
		case isJury(j) || j.Prompt != "" || len(j.ToolCalls) > 0 || j.Usage.Tokens() > 0 || j.Usage.CostUSD > 0:
			models++
		case j.Status == judge.StatusError:
			unknown++
		default:
			rules++
		}
	}
	walk(tier)
	switch {
	case unknown > 0:
		return ""
	case models == 0:
		return "the rules"
	case rules == 0:
		return "the model judges"
	}
	return ""
}

// roundPrefix matches the name judge.InRound gives a judgment: "round 2:
// all".
var roundPrefix = regexp.MustCompile(`^round [0-9]+: `)

// splitRound splits a judgment's name into its round ("round 2: ") and
// the rest.
func splitRound(name string) (round, rest string) {
	if m := roundPrefix.FindString(name); m != "" {
		return capitalize(m), name[len(m):]
	}
	return "", name
}

// capitalize makes s's first letter upper case.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
