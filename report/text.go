package report

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
)

// responseLength is how many characters of an agent's reply the text and
// Markdown reports show, unless verbose.
const responseLength = 300

// writeText writes the text report: a table of the cases, a summary of
// the run, then what went wrong in each case that did not pass, and the
// cases that were skipped.
func writeText(b *bytes.Buffer, run *gavel.Run, opts Options) error {
	facts := make([]caseFacts, len(run.Cases))
	for i := range run.Cases {
		facts[i] = factsOf(&run.Cases[i])
	}

	fmt.Fprintf(b, "Suite %s: %d cases", oneLine(suiteName(run)), len(run.Cases))
	if !run.Started.IsZero() {
		fmt.Fprintf(b, ", started %s", run.Started.UTC().Format("2006-01-02 15:04:05 MST"))
	}
	fmt.Fprintf(b, ", took %s\n\n", elapsed(run.Duration))
	if opts.Brief {
		writeTextSummary(b, run, facts, opts)
		writeNotPassed(b, facts)
		return nil
	}

	rows := [][]string{tableHeader}
	for _, f := range facts {
		rows = append(rows, textRow(f).cells())
	}
	writeTable(b, rows)
	b.WriteString("\n")
	writeTextSummary(b, run, facts, opts)

	for i := range run.Cases {
		cr, f := &run.Cases[i], facts[i]
		heading := "Failure detail"
		switch {
		case needsDetail(cr.Outcome):
		case opts.Verbose && f.Ran > 0:
			heading = "Detail"
		default:
			continue
		}
		fmt.Fprintf(b, "\n%s (%s, %s)", heading, oneLine(f.ID), cr.Outcome)
		if f.Name != "" {
			fmt.Fprintf(b, ": %s", oneLine(f.Name))
		}
		b.WriteString("\n")
		writeCaseDetail(b, "  ", cr, opts.Verbose)
	}

	var skipped []int
	for i := range run.Cases {
		if run.Cases[i].Outcome == gavel.Skipped {
			skipped = append(skipped, i)
		}
	}
	if len(skipped) > 0 {
		b.WriteString("\nSkipped:\n")
		for _, i := range skipped {
			fmt.Fprintf(b, "  %s: %s\n", oneLine(facts[i].ID), skipReason(&run.Cases[i]))
		}
	}
	return nil
}

// A tableRow is a case's row of the table, its cells formatted.
type tableRow struct {
	ID, Tools, Response, Outcome, Trials, Score, Cost string
}

// tableHeader heads the text table, a cell per field of tableRow.
var tableHeader = []string{"case", "tools", "response", "overall", "trials", "score", "cost"}

func (r tableRow) cells() []string {
	return []string{r.ID, r.Tools, r.Response, r.Outcome, r.Trials, r.Score, r.Cost}
}

// textRow is a case's row of the table.
func textRow(f caseFacts) tableRow {
	r := tableRow{ID: oneLine(f.ID), Outcome: string(f.Outcome), Tools: "-", Response: "-", Trials: "-", Score: "-", Cost: "-"}
	if f.Ran == 0 {
		return r
	}
	g := f.Aspects
	r.Tools, r.Response = grade(g.toolsRan, g.toolsPassed), grade(g.responseRan, g.responsePassed)
	r.Trials = trialsCell(f)
	if f.Scored {
		r.Score = score(f.Score)
	}
	r.Cost = cost(f.Usage.Total())
	return r
}

// trialsCell says how many of a case's judged trials passed: "2/3";
// "not judged" when none was (imported without verdicts), and how many
// were not when some were: "1/1 (1 not judged)".
func trialsCell(f caseFacts) string {
	if f.Judged == 0 {
		return "not judged"
	}
	s := fmt.Sprintf("%d/%d", f.Passed, f.Judged)
	if f.Judged < f.Ran {
		s += fmt.Sprintf(" (%d not judged)", f.Ran-f.Judged)
	}
	return s
}

// writeTable writes rows as columns separated by " | ", the first row a
// header underlined with dashes.
func writeTable(b *bytes.Buffer, rows [][]string) {
	widths := make([]int, len(rows[0]))
	for _, row := range rows {
		for i, cell := range row {
			widths[i] = max(widths[i], utf8.RuneCountInString(cell))
		}
	}
	line := func(row []string) {
		var l strings.Builder
		for i, cell := range row {
			if i > 0 {
				l.WriteString(" | ")
			}
			l.WriteString(cell + strings.Repeat(" ", widths[i]-utf8.RuneCountInString(cell)))
		}
		b.WriteString(strings.TrimRight(l.String(), " ") + "\n")
	}
	line(rows[0])
	total := 3 * (len(widths) - 1)
	for _, w := range widths {
		total += w
	}
	b.WriteString(strings.Repeat("-", total) + "\n")
	for _, row := range rows[1:] {
		line(row)
	}
}

// writeNotPassed names the cases that did not pass, by outcome, one line
// for each outcome: what a brief report says of the cases.
func writeNotPassed(b *bytes.Buffer, facts []caseFacts) {
	byOutcome := map[gavel.Outcome][]string{}
	for _, f := range facts {
		if f.Outcome != gavel.Passed && f.Outcome != gavel.Skipped {
			byOutcome[f.Outcome] = append(byOutcome[f.Outcome], oneLine(f.ID))
		}
	}
	for _, o := range []gavel.Outcome{gavel.Failed, gavel.Errored, gavel.Flaky} {
		if ids := byOutcome[o]; len(ids) > 0 {
			fmt.Fprintf(b, "%s: %s\n", o, strings.Join(ids, ", "))
		}
	}
}

// writeTextSummary writes the run's numbers and its verdict against the
// threshold.
func writeTextSummary(b *bytes.Buffer, run *gavel.Run, facts []caseFacts, opts Options) {
	stats := run.Stats()
	judged, skipped := 0, stats.Cases[gavel.Skipped]
	for i, f := range facts {
		if f.Judged > 0 && run.Cases[i].Quarantined == "" {
			judged++
		}
	}
	if stats.PassRate == nil {
		fmt.Fprintf(b, "Pass rate: unknown: %s", notJudged)
	} else {
		fmt.Fprintf(b, "Pass rate: %s over %d cases", percent(*stats.PassRate), judged)
	}
	if skipped > 0 {
		fmt.Fprintf(b, " (%d skipped)", skipped)
	}
	if n := len(stats.Quarantined); n > 0 {
		fmt.Fprintf(b, " (%d quarantined, left out)", n)
	}
	b.WriteString(rateInterval(stats.PassRateInterval))
	if line := correctedLine(stats); line != "" {
		b.WriteString("\n" + line)
	}
	fmt.Fprintf(b, "\nThreshold: %s -> overall %s\n", percent(threshold(run)), verdictOf(run, opts))
	fmt.Fprintf(b, "Trials: %d\n", stats.Trials)
	if line := replayedLine(run); line != "" {
		b.WriteString(line + "\n")
	}
	tokens, spent := usageLines(stats.Usage)
	fmt.Fprintf(b, "Tokens: %s\nCost: %s\n", tokens, spent)
	for _, note := range []string{unpricedNote(stats), unreportedNote(stats)} {
		if note != "" {
			b.WriteString(note + "\n")
		}
	}
	if k := passAtK(stats); k != "" {
		fmt.Fprintf(b, "pass@k: %s\n", k)
	}
	if k := passHatK(stats); k != "" {
		fmt.Fprintf(b, "pass^k: %s\n", k)
	}
	for _, f := range flakyCases(facts) {
		fmt.Fprintf(b, "Flaky: %s\n", oneLine(f))
	}
	for _, q := range quarantinedCases(run) {
		fmt.Fprintf(b, "Quarantined: %s\n", q)
	}
	for _, u := range unstableJudges(run) {
		fmt.Fprintf(b, "Unstable judge: %s\n", u)
	}
	for _, line := range []string{gateNote(run), incomplete(run), unjudged(run, stats)} {
		if line != "" {
			b.WriteString(line + "\n")
		}
	}
	for _, bd := range breakdowns(stats) {
		table := [][]string{bd.header}
		for _, row := range bd.rows {
			table = append(table, append([]string{oneLine(row[0])}, row[1:]...))
		}
		b.WriteString("\n")
		writeTable(b, table)
	}
}

// replayedLine counts the tool calls of a run that replayed a recorded
// run's (agent.replay_tools): those answered from it, and those refused
// because it made no such call; "" when none was.
func replayedLine(run *gavel.Run) string {
	calls, replayed, refused := 0, 0, 0
	for _, cr := range run.Cases {
		for _, t := range cr.Trials {
			if t.Transcript == nil {
				continue
			}
			for _, c := range t.Transcript.ToolCalls() {
				calls++
				switch c.Replayed {
				case judge.ReplayRecorded:
					replayed++
				case judge.ReplayUnmatched:
					refused++
				}
			}
		}
	}
	if replayed+refused == 0 {
		return ""
	}
	line := fmt.Sprintf("Tool calls replayed from the recorded run: %d of %d", replayed, calls)
	if refused > 0 {
		line += fmt.Sprintf(" (%d not in it, refused)", refused)
	}
	return line
}

// replayedNote says of a call whether a replay answered it (replayed)
// or refused it (not in the recorded run); "" for a call made live.
func replayedNote(c judge.ToolCall) string {
	switch c.Replayed {
	case judge.ReplayRecorded:
		return "replayed"
	case judge.ReplayUnmatched:
		return "not in the recorded run"
	}
	return ""
}

// runVerdict is the run's verdict: the gate's PASS, FAIL or INCONCLUSIVE
// (gavel.Run.Gate), or INCOMPLETE for a run that did not run every
// selected trial, whatever its pass rate.
func runVerdict(run *gavel.Run) string {
	if !run.Complete() {
		return "INCOMPLETE"
	}
	return string(run.Gate().Decision)
}

// incomplete says why a run is incomplete, and what that means, on one
// line; "" for a complete run.
func incomplete(run *gavel.Run) string {
	if run.Complete() {
		return ""
	}
	why := oneLine(run.StopReason)
	if why == "" {
		why = string(run.Stopped)
	}
	return "Incomplete: " + why + ". Not every selected trial ran, so the run does not pass, whatever its pass rate."
}

// unjudged says that a complete run in which nothing was judged does not
// pass, whatever its threshold, on one line; "" for any other run (an
// incomplete one says why it is incomplete instead, and a run of no case
// selected nothing to judge).
func unjudged(run *gavel.Run, stats gavel.Stats) string {
	if !run.Complete() || stats.PassRate != nil || len(run.Cases) == 0 {
		return ""
	}
	return "Nothing was judged: a run without a pass rate does not pass."
}

// byRole formats usage role by role, "agent 1,200, judge 800", leaving
// out the roles that spent nothing; "" when none did.
func byRole(u gavel.RoleUsage, format func(judge.Usage) string) string {
	var parts []string
	for _, r := range u.Roles() {
		if r.Usage != (judge.Usage{}) {
			parts = append(parts, r.Role+" "+format(r.Usage))
		}
	}
	return strings.Join(parts, ", ")
}

// usageLines formats what u spent, in tokens ("4,971 (agent 1,786, judge
// 2,389; 34 calls)") and in dollars ("$0.0123 (agent $0.0100, judge
// $0.0023)"), role by role.
func usageLines(u gavel.RoleUsage) (inTokens, dollars string) {
	total := u.Total()
	roles := byRole(u, tokens)
	return tokens(total) + inParens(joinNonEmpty("; ", roles, calls(total))), cost(total) + inParens(byRole(u, cost))
}

// joinNonEmpty joins the parts that are not "" with sep.
func joinNonEmpty(sep string, parts ...string) string {
	return strings.Join(slices.DeleteFunc(parts, func(s string) bool { return s == "" }), sep)
}

// inParens returns " (s)", or "" when s is.
func inParens(s string) string {
	if s == "" {
		return ""
	}
	return " (" + s + ")"
}

// passHatK formats pass^k for k from 2 up, "k=2 44.4%, k=3 33.3%", or ""
// when no case ran more than one trial (pass^1 is the pass rate).
func passHatK(s gavel.Stats) string { return perK(s.PassHatK, s.PassHatKInterval) }

// skipReason says why a case did not run.
func skipReason(cr *gavel.CaseResult) string {
	if cr.SkipReason == "" {
		return "no reason given"
	}
	return oneLine(cr.SkipReason)
}

// writeCaseDetail writes what a case asked and expected and, for the
// first trial that did not pass (every trial when verbose), the tool calls,
// the reply, the error and the judges' failures. Each line starts with
// indent. The JUnit report uses it as the body of a failure.
func writeCaseDetail(b *bytes.Buffer, indent string, cr *gavel.CaseResult, verbose bool) {
	f := factsOf(cr)
	if f.Input != "" {
		field(b, indent, "Input:", f.Input)
	}
	if f.Expected != "" {
		field(b, indent, "Expected:", f.Expected)
	}
	shown, more := trialsToShow(cr.Trials, verbose)
	for _, t := range shown {
		if len(cr.Trials) > 1 {
			fmt.Fprintf(b, "%sTrial %d of %d: %s\n", indent, t.N, len(cr.Trials), t.Verdict.Status)
		}
		writeTrialDetail(b, indent, t, verbose)
	}
	if more > 0 {
		fmt.Fprintf(b, "%s(%d more trial(s) did not pass; a verbose report shows every one)\n", indent, more)
	}
}

// writeTrialDetail writes one trial's tool calls, reply (the whole
// conversation when verbose), error and failed judgments (every judgment
// when verbose).
func writeTrialDetail(b *bytes.Buffer, indent string, t gavel.Trial, verbose bool) {
	tr := t.Transcript
	if tr != nil {
		writeToolCalls(b, indent, tr, verbose)
		if verbose {
			writeConversation(b, indent, tr)
		} else {
			response := oneLine(tr.Response())
			if response == "" {
				response = "(none)"
			}
			field(b, indent, "Response:", shorten(response, responseLength))
		}
		if !completed(tr) {
			msg := string(tr.Status)
			if tr.Error != "" {
				msg += ": " + tr.Error
			}
			field(b, indent, "Error:", msg)
		}
	}
	fails := failures(t.Verdict)
	if verbose {
		fails = everyJudgment(t.Verdict)
	}
	if len(fails) == 0 {
		return
	}
	field(b, indent, "Verdict:", Decision(t.Verdict))
	fmt.Fprintf(b, "%sJudges:\n", indent)
	for _, fl := range fails {
		writeFailure(b, indent+"  "+strings.Repeat("  ", fl.Depth), fl)
	}
}

// writeToolCalls writes every tool call, round by round, marking failed
// calls and revivals; verbose, with what each call returned.
func writeToolCalls(b *bytes.Buffer, indent string, tr *judge.Transcript, verbose bool) {
	rounds := tr.RoundCount()
	if len(tr.ToolCalls()) == 0 && rounds <= 1 {
		fmt.Fprintf(b, "%sTool calls: none\n", indent)
		return
	}
	fmt.Fprintf(b, "%sTool calls:\n", indent)
	revivals := revived(tr)
	for _, g := range byRound(tr) {
		prefix := indent + "  "
		if g.round > 0 {
			prefix += fmt.Sprintf("round %d: ", g.round)
		}
		calls := 0
		for _, i := range g.turns {
			if how, ok := revivals[i]; ok {
				b.WriteString(prefix + "(" + how + ")\n")
			}
			for _, c := range tr.Turns[i].ToolCalls {
				calls++
				b.WriteString(prefix + call(c))
				if c.Injected != "" {
					b.WriteString("  [injected: " + oneLine(c.Injected) + "]")
				}
				if note := replayedNote(c); note != "" {
					b.WriteString("  [" + note + "]")
				}
				switch {
				case c.IsError:
					b.WriteString("  [failed: " + shorten(oneLine(c.Result), 120) + "]")
				case verbose && c.Result != "":
					b.WriteString(" -> " + shorten(oneLine(c.Result), responseLength))
				}
				b.WriteString("\n")
			}
		}
		if calls == 0 {
			b.WriteString(prefix + "no tool calls\n")
		}
	}
}

// roundTurns are the indexes of a round's turns.
type roundTurns struct {
	round int
	turns []int
}

// byRound groups a transcript's turns by round, in the order the rounds
// first appear.
func byRound(tr *judge.Transcript) []roundTurns {
	var out []roundTurns
	for i, turn := range tr.Turns {
		if n := len(out); n == 0 || out[n-1].round != turn.Round {
			out = append(out, roundTurns{round: turn.Round})
		}
		out[len(out)-1].turns = append(out[len(out)-1].turns, i)
	}
	return out
}

// writeConversation writes every turn, for verbose reports.
func writeConversation(b *bytes.Buffer, indent string, tr *judge.Transcript) {
	fmt.Fprintf(b, "%sConversation:\n", indent)
	revivals := revived(tr)
	for i, turn := range tr.Turns {
		if how, ok := revivals[i]; ok {
			fmt.Fprintf(b, "%s  (%s)\n", indent, how)
		}
		label := speaker(turn) + ":"
		if turn.Round > 0 {
			label = fmt.Sprintf("round %d, %s", turn.Round, label)
		}
		content := clean(turn.Content)
		if content == "" {
			content = "(empty)"
		}
		fmt.Fprintf(b, "%s  %s\n", indent, label)
		for line := range strings.SplitSeq(content, "\n") {
			fmt.Fprintf(b, "%s    %s\n", indent, line)
		}
		if note := followUpNote(turn.FollowUp); note != "" {
			fmt.Fprintf(b, "%s    [%s]\n", indent, note)
		}
	}
	if tr.FinalResponse != "" {
		fmt.Fprintf(b, "%s  final response:\n", indent)
		for line := range strings.SplitSeq(clean(tr.FinalResponse), "\n") {
			fmt.Fprintf(b, "%s    %s\n", indent, line)
		}
	}
}

// writeFailure writes one judgment of a verdict's tree, usually a failed
// one: a composite as its name, a leaf with its reasoning and failed
// checks.
func writeFailure(b *bytes.Buffer, indent string, fl failure) {
	j := fl.Judgment
	head := string(j.Status)
	if j.Name != "" {
		head += " " + oneLine(j.Name)
	}
	if !fl.Leaf {
		if j.DecidedBy != "" {
			head += " (decided by " + oneLine(j.DecidedBy) + ")"
		}
		if against := Against(j); against != "" {
			head += " (" + against + ")"
		}
		b.WriteString(indent + head + "\n")
		return
	}
	if note := ScoreNote(j); note != "" {
		head += " (" + note + ")"
	}
	lines := strings.Split(clean(j.Reasoning), "\n")
	if lines[0] != "" {
		head += ": " + lines[0]
	}
	b.WriteString(indent + head + "\n")
	for _, l := range lines[1:] {
		b.WriteString(indent + "  " + l + "\n")
	}
	for _, c := range j.Checks {
		if c.Passed {
			continue
		}
		line := "- " + oneLine(c.Name)
		if c.Message != "" {
			line += ": " + oneLine(c.Message)
		}
		b.WriteString(indent + "  " + line + "\n")
	}
}

// field writes "label value" with the value's later lines aligned under
// its first.
func field(b *bytes.Buffer, indent, label, value string) {
	const width = 10
	pad := strings.Repeat(" ", max(1, width-len(label)))
	lines := strings.Split(clean(value), "\n")
	b.WriteString(indent + label + pad + lines[0] + "\n")
	cont := indent + strings.Repeat(" ", len(label)+len(pad))
	for _, l := range lines[1:] {
		b.WriteString(cont + l + "\n")
	}
}
