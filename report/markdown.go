package report

import (
	"bytes"
	"fmt"
	"html"
	"strings"

	"github.com/gavelhq/gavel"
)

// writeMarkdown writes the Markdown report, for $GITHUB_STEP_SUMMARY or a
// pull request comment (GitHub-flavoured Markdown): a heading with the
// verdict, the numbers, a table of the cases, then each case that did not
// pass in a <details> block with its conversation and the judges'
// reasons. Untrusted text goes through mdText, mdCode or html.EscapeString,
// so that an agent's reply cannot add markup, break the table, or run
// anything; so do amounts of money, since GitHub reads $…$ as math.
func writeMarkdown(b *bytes.Buffer, run *gavel.Run, opts Options) error {
	stats := run.Stats()
	icon := "❌"
	switch {
	case !run.Complete():
		icon = "⚠️"
	case opts.Shard != nil:
		icon = "🧩"
	case run.Gate().Decision == gavel.DecisionPass:
		icon = "✅"
	case run.Gate().Decision == gavel.DecisionInconclusive:
		icon = "❔"
	}
	fmt.Fprintf(b, "## %s %s: %s\n\n", icon, mdText(suiteName(run)), verdictOf(run, opts))

	total := stats.Usage.Total()
	rate := "**" + passRate(stats.PassRate) + "**" + rateInterval(stats.PassRateInterval)
	if stats.PassRate == nil {
		rate += " (" + notJudged + ")"
	}
	fmt.Fprintf(b, "Pass rate %s against a threshold of **%s** · %d cases · %d trials · %s tokens%s · %s\n\n",
		rate, percent(threshold(run)), len(run.Cases), stats.Trials, mdText(tokens(total)), inParens(calls(total)), mdText(cost(total)))
	if line := correctedLine(stats); line != "" {
		fmt.Fprintf(b, "%s\n\n", mdText(line))
	}
	if line := replayedLine(run); line != "" {
		fmt.Fprintf(b, "🔁 %s\n\n", mdText(line))
	}
	if note := gateNote(run); note != "" && opts.Shard == nil {
		icon := "❔"
		if run.Gate().Decision == gavel.DecisionFail {
			icon = "❌"
		}
		fmt.Fprintf(b, "%s %s\n\n", icon, mdText(note))
	}
	for _, q := range quarantinedCases(run) {
		fmt.Fprintf(b, "🔒 Quarantined: %s\n\n", mdText(q))
	}
	if roles := byRole(stats.Usage, costAndTokens); roles != "" {
		fmt.Fprintf(b, "Cost by role: %s\n\n", mdText(roles))
	}
	for _, note := range []string{unpricedNote(stats), unreportedNote(stats)} {
		if note != "" {
			fmt.Fprintf(b, "⚠️ %s\n\n", mdText(note))
		}
	}
	if k := passAtK(stats); k != "" {
		fmt.Fprintf(b, "pass@k: %s\n\n", k)
	}
	if k := passHatK(stats); k != "" {
		fmt.Fprintf(b, "pass^k: %s\n\n", k)
	}
	for _, u := range unstableJudges(run) {
		fmt.Fprintf(b, "⚠️ Unstable judge: %s\n\n", mdText(u))
	}
	facts := make([]caseFacts, len(run.Cases))
	for i := range run.Cases {
		facts[i] = factsOf(&run.Cases[i])
	}
	if flaky := flakyCases(facts); len(flaky) > 0 {
		fmt.Fprintf(b, "⚠️ Flaky: %s\n\n", mdText(strings.Join(flaky, ", ")))
	}
	for _, line := range []string{incomplete(run), unjudged(run, stats)} {
		if line != "" {
			b.WriteString("⚠️ " + mdText(line) + "\n\n")
		}
	}

	b.WriteString("| Case | Name | Tools | Response | Overall | Trials passed | Score | Cost |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|\n")
	for _, f := range facts {
		row := textRow(f)
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s %s | %s | %s | %s |\n",
			mdText(f.ID), mdText(f.Name), row.Tools, row.Response, outcomeIcon(f.Outcome), f.Outcome, row.Trials, row.Score, mdText(row.Cost))
	}
	for _, bd := range breakdowns(stats) {
		writeMarkdownBreakdown(b, bd)
	}

	heading := false
	for i := range run.Cases {
		cr := &run.Cases[i]
		if !needsDetail(cr.Outcome) && !(opts.Verbose && len(cr.Trials) > 0) {
			continue
		}
		if !heading {
			if opts.Verbose {
				b.WriteString("\n### Cases\n")
			} else {
				b.WriteString("\n### Cases that did not pass\n")
			}
			heading = true
		}
		writeMarkdownCase(b, cr, opts.Verbose)
	}

	var skipped []string
	for i := range run.Cases {
		if cr := &run.Cases[i]; cr.Outcome == gavel.Skipped {
			skipped = append(skipped, fmt.Sprintf("- %s: %s\n", mdText(factsOf(cr).ID), mdText(skipReason(cr))))
		}
	}
	if len(skipped) > 0 {
		b.WriteString("\n### Skipped\n\n" + strings.Join(skipped, ""))
	}
	return nil
}

// writeMarkdownBreakdown writes a breakdown of the summary as a table
// after a blank line, every cell escaped.
func writeMarkdownBreakdown(b *bytes.Buffer, bd breakdown) {
	header := make([]string, len(bd.header))
	for i, h := range bd.header {
		header[i] = title(h)
	}
	fmt.Fprintf(b, "\n| %s |\n|%s\n", strings.Join(header, " | "), strings.Repeat("---|", len(header)))
	for _, row := range bd.rows {
		cells := make([]string, len(row))
		for i, cell := range row {
			cells[i] = mdText(oneLine(cell))
		}
		fmt.Fprintf(b, "| %s |\n", strings.Join(cells, " | "))
	}
}

// outcomeIcon marks an outcome for the eye.
func outcomeIcon(o gavel.Outcome) string {
	switch o {
	case gavel.Passed:
		return "✅"
	case gavel.Failed:
		return "❌"
	case gavel.Errored:
		return "💥"
	case gavel.Flaky:
		return "⚠️"
	}
	return "⏭️"
}

// writeMarkdownCase writes a case that did not pass as a <details> block.
func writeMarkdownCase(b *bytes.Buffer, cr *gavel.CaseResult, verbose bool) {
	f := factsOf(cr)
	// The summary is HTML, where Markdown is not read: escape it as HTML.
	fmt.Fprintf(b, "\n<details><summary>%s %s — %s</summary>\n\n",
		outcomeIcon(f.Outcome), html.EscapeString(oneLine(f.title())), f.Outcome)
	if f.Input != "" {
		fmt.Fprintf(b, "**Input:** %s\n\n", mdText(f.Input))
	}
	if f.Expected != "" {
		fmt.Fprintf(b, "**Expected:** %s\n\n", mdText(f.Expected))
	}
	shown, more := trialsToShow(cr.Trials, verbose)
	for _, t := range shown {
		if len(cr.Trials) > 1 {
			fmt.Fprintf(b, "#### Trial %d of %d: %s\n\n", t.N, len(cr.Trials), t.Verdict.Status)
		}
		writeMarkdownTrial(b, t, verbose)
	}
	if more > 0 {
		fmt.Fprintf(b, "*%d more trial(s) did not pass; the HTML and JSON reports have every one.*\n\n", more)
	}
	b.WriteString("</details>\n")
}

// writeMarkdownTrial writes a trial's conversation turn by turn, its
// error and the judges' reasons.
func writeMarkdownTrial(b *bytes.Buffer, t gavel.Trial, verbose bool) {
	if tr := t.Transcript; tr != nil {
		if !completed(tr) {
			msg := string(tr.Status)
			if tr.Error != "" {
				msg += ": " + tr.Error
			}
			fmt.Fprintf(b, "**Error:** %s\n\n", mdText(msg))
		}
		if len(tr.Turns) > 0 {
			b.WriteString("**Conversation:**\n\n")
			revivals := revived(tr)
			for i, turn := range tr.Turns {
				if how, ok := revivals[i]; ok {
					b.WriteString("- 🔄 *" + mdText(how) + "*\n")
				}
				label := mdText(speaker(turn))
				if turn.Round > 0 {
					label = fmt.Sprintf("round %d · %s", turn.Round, label)
				}
				content := oneLineKeepBreaks(turn.Content)
				if !verbose {
					content = shorten(content, responseLength)
				}
				fmt.Fprintf(b, "- **%s:** %s\n", label, mdText(content))
				for _, c := range turn.ToolCalls {
					fmt.Fprintf(b, "  - 🔧 %s", mdCode(call(c)))
					if note := replayedNote(c); note != "" {
						b.WriteString(" (" + note + ")")
					}
					if c.IsError {
						fmt.Fprintf(b, " — failed: %s", mdText(shorten(oneLine(c.Result), 120)))
					}
					b.WriteString("\n")
				}
				if note := followUpNote(turn.FollowUp); note != "" {
					fmt.Fprintf(b, "  - ❔ *%s*\n", mdText(note))
				}
			}
			b.WriteString("\n")
		}
	}
	fails := failures(t.Verdict)
	if verbose {
		fails = everyJudgment(t.Verdict)
	}
	if len(fails) == 0 {
		return
	}
	b.WriteString("**Verdict:** " + mdText(Decision(t.Verdict)) + "\n\n")
	b.WriteString("**Judges:**\n\n")
	for _, fl := range fails {
		j := fl.Judgment
		line := strings.Repeat("  ", fl.Depth) + "- " + string(j.Status)
		if j.Name != "" {
			line += " **" + mdText(j.Name) + "**"
		}
		if !fl.Leaf && j.DecidedBy != "" {
			line += " (decided by " + mdText(j.DecidedBy) + ")"
		}
		note := Against(j)
		if fl.Leaf {
			note = ScoreNote(j)
		}
		if note != "" {
			line += " (" + mdText(note) + ")"
		}
		if fl.Leaf && j.Reasoning != "" {
			line += ": " + mdText(j.Reasoning)
		}
		b.WriteString(line + "\n")
		if !fl.Leaf {
			continue
		}
		for _, c := range j.Checks {
			if !c.Passed {
				fmt.Fprintf(b, "%s  - ✗ %s: %s\n", strings.Repeat("  ", fl.Depth), mdText(c.Name), mdText(c.Message))
			}
		}
	}
	b.WriteString("\n")
}

// oneLineKeepBreaks cleans s and drops its blank lines, keeping its other
// line breaks for mdText to turn into <br>.
func oneLineKeepBreaks(s string) string {
	var lines []string
	for l := range strings.SplitSeq(clean(s), "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, strings.TrimSpace(l))
		}
	}
	return strings.Join(lines, "\n")
}

// mdEscaper escapes text for Markdown: the HTML specials become entities
// (so no tag survives), and the punctuation that starts Markdown inline
// is backslash-escaped (so no emphasis, link, image, code span,
// strikethrough, math or table cell starts). Line breaks become <br>,
// keeping a value on one line of Markdown: in a list item or a table
// cell, a real line break would end it, and since a value never starts a
// line, the marks that work only there (a list's "-", a heading's "#")
// need no escaping; "#" is escaped anyway, for the heading.
var mdEscaper = func() *strings.Replacer {
	pairs := []string{"&", "&amp;", "<", "&lt;", ">", "&gt;", "\n", "<br>"}
	for _, c := range "\\`*_[]|~$#" {
		pairs = append(pairs, string(c), "\\"+string(c))
	}
	return strings.NewReplacer(pairs...)
}()

// mdText makes untrusted text safe as Markdown text: cleaned, then
// escaped (see mdEscaper).
func mdText(s string) string {
	return mdEscaper.Replace(clean(s))
}

// mdCode makes untrusted text a Markdown code span, in which nothing is
// markup: the fence is one backtick longer than the longest run of
// backticks in s. Not for table cells, where a pipe would still split
// the cell.
func mdCode(s string) string {
	s = oneLine(s)
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}
