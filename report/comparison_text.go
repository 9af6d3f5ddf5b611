package report

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/gavelhq/gavel"
)

// writeComparisonText writes the text report of a comparison: the
// verdict, the pass rates and costs side by side, how many cases changed
// which way, then a table for each group of cases that has some,
// regressions first, with the criteria's scores after the fixes.
func writeComparisonText(b *bytes.Buffer, c gavel.Comparison, opts ComparisonOptions) error {
	base, head := opts.labels()
	base, head = oneLine(base), oneLine(head)
	fmt.Fprintf(b, "Compare %s -> %s: %s\n\n", base, head, comparisonVerdict(c))
	for i, line := range append(testLines(c.Test), criterionTestLines(c.Test)...) {
		fmt.Fprintf(b, "%-11s%s\n", map[bool]string{true: "Test:"}[i == 0], line)
	}
	fmt.Fprintf(b, "Pass rate: %s\n", passRateChange(c.PassRate, "->"))
	fmt.Fprintf(b, "Cost:      %s\n", costChange(c.CostUSD, c.CostUnpriced, "->"))
	fmt.Fprintf(b, "Cases:     %s\n", strings.Join(comparisonCounts(c), ", "))
	if c.Pairwise != nil {
		fmt.Fprintf(b, "Pairwise:  %s (%s, by %s)\n", pairwiseTallyWords(c.Pairwise, base, head), shorten(oneLine(c.Pairwise.Criteria), 100), oneLine(c.Pairwise.Model))
	}

	sections := comparisonSections(c)
	for _, s := range sections[:scoresAfter] {
		writeTextSection(b, s, base, head)
	}
	if len(c.Criteria) > 0 {
		b.WriteString("\nScores (mean per criterion):\n")
		rows := [][]string{criteriaHeader}
		for _, d := range c.Criteria {
			cells := criterionCells(d)
			cells[0] = oneLine(cells[0])
			rows = append(rows, cells)
		}
		writeTable(b, rows)
	}
	for _, s := range sections[scoresAfter:] {
		writeTextSection(b, s, base, head)
	}
	writeRepliesText(b, c, opts, base, head)
	return nil
}

// writeTextSection writes a group of cases as a table under its title,
// or nothing when it has no cases.
func writeTextSection(b *bytes.Buffer, s comparisonSection, base, head string) {
	if len(s.cases) == 0 {
		return
	}
	fmt.Fprintf(b, "\n%s: %s\n", s.title, s.aboutWith(base, head))
	rows := [][]string{comparisonCaseHeader(s)}
	for _, cc := range s.cases {
		rows = append(rows, comparisonCells(s, cc))
	}
	writeTable(b, rows)
}
