package report

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
)

// ComparisonOptions change what a comparison report shows.
type ComparisonOptions struct {
	// BaseLabel and HeadLabel name the two runs, as the reader knows
	// them: "main@abc1234", "run 20261121-093000". Default to "base" and
	// "head".
	BaseLabel, HeadLabel string

	// Verbose makes the Markdown report's details of each regression show
	// every trial that did not pass instead of the first, and agent
	// replies in full instead of cut short. Defaults to false.
	Verbose bool

	// AllReplies shows the replies of every case both runs have
	// (gavel.Comparison.Replies), not only those that differ. Defaults to
	// false.
	AllReplies bool

	// Version is Gavel's version, written in the JSON and HTML reports.
	// Defaults to empty: no version is written.
	Version string
}

// labels returns the runs' labels, defaults filled in.
func (o ComparisonOptions) labels() (base, head string) {
	base, head = o.BaseLabel, o.HeadLabel
	if base == "" {
		base = "base"
	}
	if head == "" {
		head = "head"
	}
	return base, head
}

// comparisonWriters maps each format that can report a comparison to the
// function that writes it, in the order errors list them.
var comparisonWriters = []struct {
	format Format
	write  func(b *bytes.Buffer, c gavel.Comparison, opts ComparisonOptions) error
}{
	{Text, writeComparisonText},
	{JSON, writeComparisonJSON},
	{Markdown, writeComparisonMarkdown},
	{HTML, writeComparisonHTML},
}

// WriteComparison writes c, a comparison of two runs, to w as a report in
// format f: Text, JSON, Markdown or HTML (JUnit reports runs only). Like
// Write, it builds the report in memory first, so w receives either the
// whole report or nothing.
//
// Every format puts the regressions first, then the fixes, then the
// criteria's scores side by side, then the other cases that changed:
// those that passed in neither run but came out differently, those the
// head could not judge, those that could not be compared, and those
// added and removed (see gavel.Comparison). A table of cases shows each
// case's outcome and trials passed in both runs and a reason: the head's
// first reason for not passing, or, for a fix, the base's; the Markdown
// report adds each regression's account (its conversation and the
// judges' reasons) folded in a <details> block. The JSON report is
// versioned (ComparisonSchemaVersion) and decodes into JSONComparison.
//
// Names and reasons come from suite files and judges, and the labels from
// whoever calls: they are untrusted, and escaped as in Write.
func WriteComparison(w io.Writer, f Format, c gavel.Comparison, opts ComparisonOptions) error {
	for _, wr := range comparisonWriters {
		if wr.format != f {
			continue
		}
		var buf bytes.Buffer
		if err := wr.write(&buf, c, opts); err != nil {
			return fmt.Errorf("write %s comparison: %w", f, err)
		}
		if _, err := w.Write(buf.Bytes()); err != nil {
			return fmt.Errorf("write %s comparison: %w", f, err)
		}
		return nil
	}
	names := make([]string, len(comparisonWriters))
	for i, wr := range comparisonWriters {
		names[i] = string(wr.format)
	}
	return fmt.Errorf("write comparison: no comparison report in format %q: want one of %s", f, strings.Join(names, ", "))
}

// A comparisonSection is a group of cases of a comparison, as every
// format shows it, in the order they show them.
type comparisonSection struct {
	// key names the section, in code and as its CSS class in HTML.
	key string
	// title heads the section; about says what its cases are ("passed
	// in BASE, did not pass in HEAD."), the runs' labels to go in place
	// of BASE and HEAD (see aboutWith).
	title, about string
	// icon marks the section in Markdown.
	icon  string
	cases []gavel.CaseChange
	// reasonHeader heads the column of reasons; reason returns the
	// reason a case shows, uncleaned.
	reasonHeader string
	reason       func(gavel.CaseChange) string
}

// comparisonSections returns c's groups of cases in the order reports
// show them, empty ones included. The table of scores goes between the
// first scoresAfter (regressions and fixes) and the others.
func comparisonSections(c gavel.Comparison) []comparisonSection {
	head := func(cc gavel.CaseChange) string { return cc.Head.Reason }
	base := func(cc gavel.CaseChange) string { return cc.Base.Reason }
	return []comparisonSection{
		{key: "regressions", title: "Regressions", icon: "❌", about: "passed in BASE, did not pass in HEAD.",
			cases: c.Regressions, reasonHeader: "reason", reason: head},
		{key: "fixes", title: "Fixes", icon: "✅", about: "did not pass in BASE, pass in HEAD.",
			cases: c.Fixes, reasonHeader: "reason it failed in base", reason: base},
		{key: "changed", title: "Changed", icon: "↕️", about: "passed in neither run, but came out differently.",
			cases: c.Changed, reasonHeader: "reason", reason: head},
		{key: "errored", title: "Errored", icon: "💥", about: "could not be judged in HEAD (not counted as regressions).",
			cases: c.Errored, reasonHeader: "error", reason: head},
		{key: "not_compared", title: "Not compared", icon: "⏭️", about: "skipped in either run, or could not be judged in BASE.",
			cases: c.NotCompared, reasonHeader: "why", reason: gavel.CaseChange.WhyNotCompared},
		{key: "redefined", title: "Redefined", icon: "✏️", about: "defined differently in BASE and HEAD: not comparable, left out of the test.",
			cases: c.Redefined, reasonHeader: "reason", reason: head},
		{key: "added", title: "Added", icon: "➕", about: "in HEAD only.",
			cases: c.Added, reasonHeader: "reason", reason: head},
		{key: "removed", title: "Removed", icon: "➖", about: "in BASE only.",
			cases: c.Removed, reasonHeader: "reason", reason: base},
	}
}

// scoresAfter is how many sections come before the table of scores.
const scoresAfter = 2

// aboutWith returns what a section is about with the runs' labels in
// place of BASE and HEAD.
func (s comparisonSection) aboutWith(base, head string) string {
	return strings.NewReplacer("BASE", base, "HEAD", head).Replace(s.about)
}

// tableReasonLength is how many characters of a reason the text and
// Markdown tables show.
const tableReasonLength = 120

// comparisonCells are a case's cells in a table of a comparison,
// formatted and cleaned but not escaped for Markdown: id, name, base,
// head, reason.
func comparisonCells(s comparisonSection, cc gavel.CaseChange) []string {
	reason := shorten(oneLine(s.reason(cc)), tableReasonLength)
	if reason == "" {
		reason = "-"
	}
	id := oneLine(cc.ID)
	if id == "" {
		id = "(unnamed case)"
	}
	name := oneLine(cc.Name)
	if name == "" {
		name = "-"
	}
	return []string{id, name, sideCell(cc.Base), sideCell(cc.Head), reason}
}

// sideCell formats how a case came out in a run: "FLAKY 2/3" (of its
// judged trials), "SKIPPED", "SKIPPED not judged" (trials imported
// without verdicts), or "-" when the run has no such case.
func sideCell(s gavel.CaseSide) string {
	switch {
	case s.Outcome == "":
		return "-"
	case s.Trials == 0:
		return string(s.Outcome)
	case s.Judged == 0:
		return string(s.Outcome) + " not judged"
	}
	return fmt.Sprintf("%s %d/%d", s.Outcome, s.Passed, s.Judged)
}

// comparisonCounts says how many cases each section holds, leaving out
// empty sections but the regressions: "2 regressions, 1 fix, 3
// unchanged".
func comparisonCounts(c gavel.Comparison) []string {
	plurals := map[string][2]string{
		"regressions":  {"regression", "regressions"},
		"fixes":        {"fix", "fixes"},
		"changed":      {"changed", "changed"},
		"errored":      {"errored", "errored"},
		"not_compared": {"not compared", "not compared"},
		"redefined":    {"redefined", "redefined"},
		"added":        {"added", "added"},
		"removed":      {"removed", "removed"},
	}
	var out []string
	for _, s := range comparisonSections(c) {
		if len(s.cases) == 0 && s.key != "regressions" {
			continue
		}
		word := plurals[s.key][1]
		if len(s.cases) == 1 {
			word = plurals[s.key][0]
		}
		out = append(out, fmt.Sprintf("%d %s", len(s.cases), word))
	}
	if c.Unchanged > 0 {
		out = append(out, fmt.Sprintf("%d unchanged", c.Unchanged))
	}
	return out
}

// comparisonVerdict is the comparison's verdict, the test's (REGRESSED,
// IMPROVED or NO SIGNIFICANT CHANGE), and the critical cases that failed
// in the head: "NO SIGNIFICANT CHANGE, but critical case refund_never
// failed".
func comparisonVerdict(c gavel.Comparison) string {
	v := string(c.Test.Verdict)
	if len(c.Critical) == 0 {
		return v
	}
	ids := make([]string, len(c.Critical))
	for i, cc := range c.Critical {
		ids[i] = oneLine(cc.ID)
	}
	word := "case"
	if len(ids) > 1 {
		word = "cases"
	}
	return fmt.Sprintf("%s, but critical %s %s failed", v, word, strings.Join(ids, ", "))
}

// testLines say how the comparison was tested: the method, the cases and
// which way they moved, the p-value; then the difference with its
// interval, and what counts as a change.
func testLines(t gavel.Significance) []string {
	if t.Cases == 0 {
		return []string{"nothing to test: no case both runs judged with the same definition"}
	}
	method := "Wilcoxon signed-rank test on the cases' pass shares"
	if t.Method == gavel.MethodMcNemar {
		method = "exact McNemar test"
	}
	diff := signedPoints(t.Diff)
	if t.Interval != nil {
		lo, hi := signedPoints(t.Interval.Lo), signedPoints(t.Interval.Hi)
		diff += fmt.Sprintf(" (%s interval %s to %s)", percent(t.Interval.Level), strings.TrimSuffix(lo, " points"), strings.TrimSuffix(hi, " points"))
	}
	return []string{
		fmt.Sprintf("%s, %d cases both runs judged alike: %d worse, %d better, p = %s", method, t.Cases, t.Worse, t.Better, pValue(t.P)),
		fmt.Sprintf("pass rate %s -> %s on them: %s; a change counts at p < %s and %s or more",
			percent(t.Base), percent(t.Head), diff, decimal(t.Alpha), strings.TrimPrefix(signedPoints(t.MinEffect), "+")),
	}
}

// criterionTestLines say, of each criterion whose test found a change,
// what it found: "politeness: REGRESSED, -30 points of its 0–1 scale
// over 12 cases, p = 0.00053 (0.0011 after Holm)".
func criterionTestLines(t gavel.Significance) []string {
	var out []string
	for _, c := range t.Criteria {
		if c.Verdict == gavel.ChangeNone {
			continue
		}
		out = append(out, fmt.Sprintf("%s: %s, %s of its 0–1 scale over %d cases, p = %s (%s after Holm)",
			oneLine(c.Name), c.Verdict, signedPoints(c.Diff), c.Cases, pValue(c.P), pValue(c.Adjusted)))
	}
	return out
}

// signedPoints formats a difference of rates in percentage points:
// "+2.5 points", "-13.3 points", "0 points".
func signedPoints(d float64) string {
	p := strconv.FormatFloat(d*100, 'f', 1, 64)
	p = strings.TrimSuffix(p, ".0")
	switch {
	case p == "0" || p == "-0":
		return "0 points"
	case !strings.HasPrefix(p, "-"):
		p = "+" + p
	}
	return p + " points"
}

// pValue formats a p-value with two significant digits: "0.0034", "1".
func pValue(p float64) string {
	return strconv.FormatFloat(p, 'g', 2, 64)
}

// passRateChange formats the pass rates of both runs and the change in
// points: "80% -> 66.7% (-13.3 points)". arrow separates the two. A run
// in which nothing was judged has no pass rate, and the change is
// unknown: "unknown -> 66.7% (change unknown)".
func passRateChange(d gavel.RateDelta, arrow string) string {
	diff, ok := d.Diff()
	if !ok {
		return fmt.Sprintf("%s %s %s (change unknown)", passRate(d.Base), arrow, passRate(d.Head))
	}
	points := strconv.FormatFloat(diff*100, 'f', 1, 64)
	points = strings.TrimSuffix(points, ".0")
	change := "no change"
	if points != "0" && points != "-0" {
		if !strings.HasPrefix(points, "-") {
			points = "+" + points
		}
		change = points + " points"
	}
	return fmt.Sprintf("%s %s %s (%s)", passRate(d.Base), arrow, passRate(d.Head), change)
}

// costChange formats what both runs cost and the difference: "$0.0424
// -> $0.0530 (+$0.0106)". When a run's cost leaves out a model without a
// price, the difference is unknown: "$0.0424 -> $0.0530 + unpriced
// (change unknown)".
func costChange(d gavel.Delta, unpriced gavel.Unpriced, arrow string) string {
	base, head := cost(judge.Usage{CostUSD: d.Base, Unpriced: unpriced.Base}), cost(judge.Usage{CostUSD: d.Head, Unpriced: unpriced.Head})
	if unpriced.Base || unpriced.Head {
		return fmt.Sprintf("%s %s %s (change unknown)", base, arrow, head)
	}
	diff := usd(d.Diff())
	change := "no change"
	switch {
	case diff == "$0.0000" || diff == "$-0.0000":
	case strings.HasPrefix(diff, "$-"):
		change = "-$" + diff[2:]
	default:
		change = "+" + diff
	}
	return fmt.Sprintf("%s %s %s (%s)", base, arrow, head, change)
}

// criterionCells are a criterion's cells in the table of scores: name,
// base mean, head mean, delta ("+0.20", "new", "gone"). The name is not
// cleaned.
func criterionCells(d gavel.CriterionDelta) []string {
	mean := func(s gavel.CriterionStat) string {
		if s.Count == 0 {
			return "-"
		}
		return score(s.Mean)
	}
	return []string{d.Name, mean(d.Base), mean(d.Head), scoreChange(d)}
}

// scoreChange formats the change of a criterion's mean: "+0.20", "-0.05",
// "0.00"; "new" when only the head scored it, "gone" when only the base
// did.
func scoreChange(d gavel.CriterionDelta) string {
	diff, ok := d.Diff()
	switch {
	case ok:
		s := score(diff)
		switch {
		case s == "0.00" || s == "-0.00":
			return "0.00"
		case strings.HasPrefix(s, "-"):
			return s
		}
		return "+" + s
	case d.Head.Count > 0:
		return "new"
	}
	return "gone"
}

// criteriaHeader heads the table of scores.
var criteriaHeader = []string{"criterion", "base", "head", "delta"}

// comparisonCaseHeader heads a table of cases, with the section's header
// for reasons last.
func comparisonCaseHeader(s comparisonSection) []string {
	return []string{"case", "name", "base", "head", s.reasonHeader}
}
