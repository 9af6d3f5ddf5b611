package report

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/jury"
)

// A verdict's tree is read by people who are not engineers: every report
// and the web app say in words which judges decided a verdict, of what
// kind each is, and each one's number against its own threshold (the
// judgment's recorded judge.Threshold). A composite's score, a mean over
// its parts with rules included, is never shown as if it were a score to
// read: a FAIL whose parts mostly passed would read as a pass.

// maxDeciders is how many deciding judges Decision names; the rest are
// counted.
const maxDeciders = 3

// Decision says in words what decided a verdict: "FAIL: decided by
// forbidden_tools (a rule): called cancel_order", "FAIL: decided by tone
// (a model judge): scored 0.55, below its threshold 0.7", "FAIL: decided
// by panel (a jury of 3, by majority): 1 PASS, 2 FAIL". The deciders are
// the judges whose outcome is the verdict's: the failing parts of an
// all, a jury as a whole, a judge that compared its own number with its
// own threshold.
func Decision(v judge.Judgment) string {
	if v.Status == judge.StatusAbstain {
		return "ABSTAIN: no judge had anything to say"
	}
	ds := deciders(v, "", "")
	var parts []string
	for i, d := range ds {
		if i == maxDeciders {
			parts = append(parts, fmt.Sprintf("and %d more", len(ds)-maxDeciders))
			break
		}
		parts = append(parts, d.words())
	}
	verb := "decided by"
	switch v.Status {
	case judge.StatusPass:
		verb = "passed by"
	case judge.StatusError:
		verb = "could not be judged by"
	}
	return fmt.Sprintf("%s: %s %s", v.Status, verb, strings.Join(parts, "; "))
}

// ScoreNote is what a report shows beside a judgment of a verdict's tree
// in place of a bare score: its number against its threshold when it
// recorded one ("scored 0.55, below its threshold 0.7"), else its own
// score when it is a judge's and says more than its status ("score 3
// (1..5)"), else "": a composite's mean is no score to read.
func ScoreNote(j judge.Judgment) string {
	if against := Against(j); against != "" {
		return against
	}
	if j.ShowsScore() && len(j.Parts) == 0 {
		return "score " + oneLine(j.Score.String())
	}
	return ""
}

// Against says a judgment's number against its own threshold: "scored
// 0.55, below its threshold 0.7", "scored 1 on 1..3, below its threshold
// 2", "mean 6.2, below its threshold 6.5", "bubbles 4, above its limit
// 2". It is "" for a judgment that recorded no threshold (a judge that
// compares no number, a judgment stored before thresholds were recorded)
// and for one that did not judge (ERROR, ABSTAIN).
func Against(j judge.Judgment) string {
	th := j.Threshold
	if th == nil || (j.Status != judge.StatusPass && j.Status != judge.StatusFail) || th.Validate() != nil {
		return ""
	}
	num := func(v float64) string { return formatMeasure(v, th.Unit) }
	what := oneLine(th.Of) + " " + num(th.Value)
	if th.Of == "" {
		what = "scored " + scoreValue(j.Score, th.Value)
		if s := j.Score; s.Kind == judge.Numerical && (s.Min != 0 || s.Max != 1) {
			what += " on " + formatMeasure(s.Min, "") + ".." + formatMeasure(s.Max, "")
		}
		if th.Unit == "" {
			num = func(v float64) string { return scoreValue(j.Score, v) }
		}
	}
	var rel string
	switch {
	case th.Min != nil && th.Max != nil:
		switch {
		case th.Below():
			rel = "below its minimum " + num(*th.Min)
		case th.Above():
			rel = "above its maximum " + num(*th.Max)
		default:
			rel = "within its bounds " + num(*th.Min) + ".." + num(*th.Max)
		}
	case th.Max != nil:
		rel = "within its limit " + num(*th.Max)
		if th.Above() {
			rel = "above its limit " + num(*th.Max)
		}
	default:
		switch {
		case th.Below():
			rel = "below its threshold " + num(*th.Min)
		case judge.CompareToThreshold(th.Value, *th.Min) > 0:
			rel = "above its threshold " + num(*th.Min)
		default:
			rel = "at its threshold " + num(*th.Min)
		}
	}
	return what + ", " + rel
}

// scoreValue formats v, a value on s's scale: a categorical score's label
// when one has that value ("loss"), a number otherwise.
func scoreValue(s judge.Score, v float64) string {
	if s.Kind == judge.Categorical {
		for _, l := range s.Labels {
			if judge.CompareToThreshold(v, l.Value) == 0 {
				return oneLine(l.Name)
			}
		}
	}
	return formatMeasure(v, "")
}

// formatMeasure writes v in its unit: "4s", "$0.042", "0.55" (at most
// three decimals; dollars to four significant digits).
func formatMeasure(v float64, unit string) string {
	if unit == "USD" {
		return "$" + strconv.FormatFloat(v, 'g', 4, 64)
	}
	return strconv.FormatFloat(math.Round(v*1000)/1000, 'f', -1, 64) + oneLine(unit)
}

// A decider is a judgment that decided a verdict, with the name and kind
// reports give it.
type decider struct {
	j    judge.Judgment
	name string // the judgment's name, within its judge's when it is a part of one ("criteria › style")
	kind string // "a rule", "a model judge", a jury's; "" for a composite
}

// deciders returns the judgments of a tree that decided its outcome: the
// leaves, juries and judges that compared their own number with their
// own threshold, whose outcome is the tree's, through every composite
// that has it too. name and kind are given for the parts of a judge that
// scored (a criteria judge's axes), which are its own, not judges.
func deciders(j judge.Judgment, name, kind string) []decider {
	if name == "" {
		name = oneLine(j.Name)
	}
	if kind == "" {
		kind = kindOf(j)
	}
	if len(j.Parts) == 0 || isJury(j) || decidedAlone(j) {
		return []decider{{j: j, name: name, kind: kind}}
	}
	var out []decider
	for _, p := range j.Parts {
		if p.Status != j.Status {
			continue
		}
		switch {
		case j.Threshold != nil && kind != "": // a judge's own parts: a criteria judge's axes
			out = append(out, deciders(p, joinName(name, oneLine(p.Name)), kind)...)
		case eachTurn.MatchString(p.Name): // "turn 2" says which judge only with its judge's name
			out = append(out, deciders(p, joinName(name, oneLine(p.Name)), "")...)
		default:
			out = append(out, deciders(p, "", "")...)
		}
	}
	if len(out) == 0 { // a not, or a composite that decided by itself
		return []decider{{j: j, name: name, kind: kind}}
	}
	return out
}

// eachTurn matches the name judge.EachTurn gives each turn's judgment.
var eachTurn = regexp.MustCompile(`^turn [0-9]+$`)

// joinName names a part within its judge: "criteria › style".
func joinName(parent, part string) string {
	switch {
	case parent == "":
		return part
	case part == "":
		return parent
	}
	return parent + " › " + part
}

// decidedAlone reports whether j's own threshold gave its outcome: a
// weighted mean below its threshold failed, whatever its parts did. A
// criteria judge whose mean passed but one axis failed did not: its axis
// did.
func decidedAlone(j judge.Judgment) bool {
	if j.Threshold == nil || j.Threshold.Validate() != nil {
		return false
	}
	switch j.Status {
	case judge.StatusPass:
		return j.Threshold.Met()
	case judge.StatusFail:
		return !j.Threshold.Met()
	}
	return false
}

// words names a decider, its kind, and why: "tone (a model judge):
// scored 0.55, below its threshold 0.7".
func (d decider) words() string {
	name := d.name
	if name == "" {
		name = "the verdict"
	}
	if d.kind != "" {
		name += " (" + d.kind + ")"
	}
	why := Against(d.j)
	if why == "" && isJury(d.j) && (d.j.Status == judge.StatusPass || d.j.Status == judge.StatusFail) {
		why = votes(d.j.Parts)
	}
	if why == "" {
		why = shorten(oneLine(firstLine(d.j.Reasoning)), 160)
	}
	if why == "" {
		return name
	}
	return name + ": " + why
}

// kindOf says what kind of judge made a judgment: a rule (no model
// asked), a model judge, an agent judge, a jury; "" for a composite.
func kindOf(j judge.Judgment) string {
	switch {
	case isJury(j):
		return fmt.Sprintf("a jury of %d, by %s", len(j.Parts), oneLine(j.DecidedBy))
	case len(j.ToolCalls) > 0:
		return "an agent judge"
	case j.Prompt != "":
		return "a model judge"
	case len(j.Parts) > 0: // a composite's usage is its parts'
		return ""
	case j.Usage.Tokens() > 0 || j.Usage.CostUSD > 0:
		return "a model judge"
	case j.Status == judge.StatusPass || j.Status == judge.StatusFail:
		return "a rule"
	}
	return "" // what could not judge, a conversation that did not complete included, is no rule
}

// isJury reports whether j is a jury's verdict: its DecidedBy names a
// jury's strategy ("majority", "average (errors: error)"), not a tier.
func isJury(j judge.Judgment) bool {
	strategy, _, _ := strings.Cut(j.DecidedBy, " ")
	return len(j.Parts) > 0 && jury.Strategy(strategy).Known()
}

// votes counts a jury's votes by status: "1 PASS, 2 FAIL".
func votes(parts []judge.Judgment) string {
	n := map[judge.Status]int{}
	for _, p := range parts {
		n[p.Status]++
	}
	var out []string
	for _, s := range []judge.Status{judge.StatusPass, judge.StatusFail, judge.StatusAbstain, judge.StatusError} {
		if n[s] > 0 {
			out = append(out, fmt.Sprintf("%d %s", n[s], s))
		}
	}
	return strings.Join(out, ", ")
}
