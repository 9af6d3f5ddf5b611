package report

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/gavelhq/gavel"
)

// writeComparisonMarkdown writes the Markdown report of a comparison, for
// $GITHUB_STEP_SUMMARY or a pull request comment: a heading with the
// verdict, the runs' numbers side by side, then the regressions (a table,
// and each case's account in a <details> block), the fixes, the
// criteria's scores, and the other groups of cases, each folded in a
// <details> block. Untrusted text is escaped as in writeMarkdown.
func writeComparisonMarkdown(b *bytes.Buffer, c gavel.Comparison, opts ComparisonOptions) error {
	base, head := opts.labels()
	icon := "✅"
	if c.Failed() {
		icon = "❌"
	}
	fmt.Fprintf(b, "## %s Compare: %s\n\n", icon, mdText(comparisonVerdict(c)))
	fmt.Fprintf(b, "**%s** → **%s**\n\n", mdText(oneLine(base)), mdText(oneLine(head)))
	for _, line := range append(testLines(c.Test), criterionTestLines(c.Test)...) {
		fmt.Fprintf(b, "- %s\n", mdText(strings.ReplaceAll(line, "->", "→")))
	}
	b.WriteString("\n")
	fmt.Fprintf(b, "Pass rate %s · cost %s\n\n", mdText(passRateChange(c.PassRate, "→")), mdText(costChange(c.CostUSD, c.CostUnpriced, "→")))
	fmt.Fprintf(b, "%s\n", strings.Join(comparisonCounts(c), " · "))
	if c.Pairwise != nil {
		fmt.Fprintf(b, "\nPairwise (%s): %s\n", mdText(shorten(oneLine(c.Pairwise.Criteria), 100)), mdText(pairwiseTallyWords(c.Pairwise, oneLine(base), oneLine(head))))
	}

	sections := comparisonSections(c)
	for _, s := range sections[:scoresAfter] {
		if len(s.cases) == 0 {
			continue
		}
		fmt.Fprintf(b, "\n### %s %s\n\n%s\n\n", s.icon, s.title, mdText(title(s.aboutWith(oneLine(base), oneLine(head)))))
		writeMarkdownCaseTable(b, s)
		if s.key != "regressions" {
			continue
		}
		for _, cc := range s.cases {
			if cc.Head.Result != nil {
				writeMarkdownCase(b, cc.Head.Result, opts.Verbose)
			}
		}
	}
	if len(c.Criteria) > 0 {
		b.WriteString("\n### Score deltas\n\nThe mean score of each criterion, 0 to 1.\n\n")
		header := make([]string, len(criteriaHeader))
		for i, h := range criteriaHeader {
			header[i] = title(h)
		}
		fmt.Fprintf(b, "| %s |\n|%s\n", strings.Join(header, " | "), strings.Repeat("---|", len(header)))
		for _, d := range c.Criteria {
			cells := criterionCells(d)
			cells[0] = mdText(oneLine(cells[0]))
			fmt.Fprintf(b, "| %s |\n", strings.Join(cells, " | "))
		}
	}
	for _, s := range sections[scoresAfter:] {
		if len(s.cases) == 0 {
			continue
		}
		fmt.Fprintf(b, "\n<details><summary>%s %s (%d)</summary>\n\n%s\n\n", s.icon, s.title, len(s.cases),
			mdText(title(s.aboutWith(oneLine(base), oneLine(head)))))
		writeMarkdownCaseTable(b, s)
		b.WriteString("\n</details>\n")
	}
	writeMarkdownReplies(b, c, opts, oneLine(base), oneLine(head))
	return nil
}

// writeMarkdownCaseTable writes a group of cases as a table, every cell
// escaped.
func writeMarkdownCaseTable(b *bytes.Buffer, s comparisonSection) {
	header := comparisonCaseHeader(s)
	for i, h := range header {
		header[i] = title(h)
	}
	fmt.Fprintf(b, "| %s |\n|%s\n", strings.Join(header, " | "), strings.Repeat("---|", len(header)))
	for _, cc := range s.cases {
		cells := comparisonCells(s, cc)
		for i, cell := range cells {
			cells[i] = mdText(cell)
		}
		cells[2] = markdownSide(cc.Base, cells[2])
		cells[3] = markdownSide(cc.Head, cells[3])
		fmt.Fprintf(b, "| %s |\n", strings.Join(cells, " | "))
	}
}

// markdownSide marks a side's cell with its outcome's icon, when the run
// has the case.
func markdownSide(s gavel.CaseSide, cell string) string {
	if s.Outcome == "" {
		return cell
	}
	return outcomeIcon(s.Outcome) + " " + cell
}

// writeMarkdownReplies writes the replies of the cases shown (see
// shownReplies), each folded in a <details> block holding a diff: the
// base's reply and calls as "-" lines, the head's as "+" lines, what
// both have as " " lines.
func writeMarkdownReplies(b *bytes.Buffer, c gavel.Comparison, opts ComparisonOptions, base, head string) {
	shown := shownReplies(c, opts)
	if len(shown) == 0 {
		return
	}
	fmt.Fprintf(b, "\n### Replies\n\nWhat the agent said in %s (-) and %s (+), for the %d cases shown.\n", mdText(base), mdText(head), len(shown))
	fence := func(s string) string { return strings.ReplaceAll(s, "`", "'") } // no fence closes early
	for _, p := range shown {
		d := DiffReplies(p)
		fmt.Fprintf(b, "\n<details><summary><code>%s</code> %s", mdText(oneLine(p.ID)), mdText(oneLine(p.Name)))
		if v := p.Pairwise; v != nil {
			fmt.Fprintf(b, ": %s", mdText(PairwiseWords(v, base, head)))
		}
		b.WriteString("</summary>\n\n```diff\n")
		if d.SameReply {
			fmt.Fprintf(b, "  %s\n", fence(replyText(gavel.AgentSaid(p.Head))))
		} else {
			if !d.BaseMissing {
				fmt.Fprintf(b, "- %s\n", fence(replyText(gavel.AgentSaid(p.Base))))
			}
			if !d.HeadMissing {
				fmt.Fprintf(b, "+ %s\n", fence(replyText(gavel.AgentSaid(p.Head))))
			}
		}
		for _, e := range d.Calls {
			op := " "
			if e.Op != Keep {
				op = string(e.Op)
			}
			fmt.Fprintf(b, "%s   %s\n", op, fence(e.Text))
		}
		b.WriteString("```\n\n</details>\n")
	}
}
