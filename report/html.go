package report

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"maps"
	"slices"
	"strings"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
)

// htmlSource is the page's template. html/template escapes every value
// for where it lands (text, attribute, URL), so agent text cannot add
// markup; the page also forbids scripts in its Content-Security-Policy.
//
//go:embed html.tmpl
var htmlSource string

var htmlTemplate = template.Must(template.New("report").Parse(htmlSource))

// writeHTML writes the HTML report: one self-contained page (inline CSS,
// no scripts, no external assets) with the summary, the table of cases,
// and per case every trial's conversation and judgment tree, folded in
// <details> blocks that open by themselves where something went wrong.
func writeHTML(b *bytes.Buffer, run *gavel.Run, opts Options) error {
	return htmlTemplate.Execute(b, newHTMLPage(run, opts))
}

// The page's data is formatted in Go, so that the template only places
// strings. Every string from outside Gavel has been through clean.

// htmlPage is the whole page: the run's summary and its cases.
type htmlPage struct {
	Suite, Description, File, Models string
	Version                          string
	Passed                           bool
	Verdict                          string
	PassRate, Threshold              string
	// Interval follows the pass rate: ", 95% interval 62.3–98.4%
	// (Wilson, over cases)" (rateInterval); Corrected is the pass rate
	// corrected for the judge's errors (correctedLine); Gate says why the
	// gate did not decide, or which critical cases failed it (gateNote).
	Interval, Corrected, Gate string
	Quarantined               []string
	// NotJudged says why there is no pass rate, "" when there is one.
	NotJudged                   string
	Started, Duration           string
	Cases, Trials               int
	Tokens, Calls, Cost, ByRole string
	PassAtK, PassHatK           string
	Replayed                    string // how many tool calls were replayed, "" for none
	Unstable                    []string
	Unpriced                    string // which models have no price, and how to give it
	Outcomes, Flaky             string
	// Incomplete says why an incomplete run is; Unjudged that a
	// complete run in which nothing was judged does not pass.
	Incomplete, Unjudged string
	Rows                 []htmlCase
	Breakdowns           []htmlBreakdown
}

// htmlBreakdown is a small table under the table of cases: the
// criteria's scores, or what each model spent.
type htmlBreakdown struct {
	Header []string
	Rows   [][]string
}

// htmlCase is one case: a row of the table and a section of the page.
type htmlCase struct {
	// Anchor is the section's id ("case-3"): numbered, not the case's
	// id, so that it is a safe fragment whatever the id holds.
	Anchor                        string
	ID, Name, Description         string
	Input, Expected, Tags         string
	Tools, Response               string
	Outcome, Class                string
	Trials, Score, Cost, Duration string
	SkipReason                    string
	Open                          bool
	Runs                          []htmlTrial
}

// htmlTrial is one trial: its conversation and its verdict.
type htmlTrial struct {
	Title, Class string
	Open         bool
	Error        string
	Turns        []htmlTurn
	Final        string
	Verdict      htmlJudgment
}

// htmlTurn is one turn of a conversation. Revival says how the session
// was revived just before it, if it was.
type htmlTurn struct {
	Revival       string
	Speaker, Role string
	Content       string
	Calls         []htmlCall
	FollowUp      string // the check of whether the reply asked for clarification
}

// htmlCall is one tool call, "name(arguments)", and its result.
type htmlCall struct {
	Call, Result string
	Failed       bool
	// Replayed says where a replayed call's result came from; "" for a
	// call answered live.
	Replayed string
}

// htmlJudgment is one node of a verdict's tree. Name, Kind, Note and
// Technical say what it is in words (Describe); Score is its ScoreNote
// (a composite's mean is none); Decision, on the verdict alone, says in
// words what decided it.
type htmlJudgment struct {
	Name, Kind, Note, Technical string
	Status, Class               string
	Score, DecidedBy, Reasoning string
	Decision                    string
	Open                        bool
	Checks                      []htmlCheck
	Findings                    []string
	Parts                       []htmlJudgment
}

// htmlCheck is one check of a judgment.
type htmlCheck struct {
	Name, Message string
	Passed        bool
}

// newHTMLPage formats a run for the template.
func newHTMLPage(run *gavel.Run, opts Options) htmlPage {
	stats := run.Stats()
	total := stats.Usage.Total()
	p := htmlPage{
		Suite:       clean(suiteName(run)),
		Version:     clean(opts.Version),
		Passed:      run.Passed(),
		Verdict:     runVerdict(run),
		PassRate:    passRate(stats.PassRate),
		Interval:    rateInterval(stats.PassRateInterval),
		Corrected:   correctedLine(stats),
		Gate:        clean(gateNote(run)),
		Quarantined: quarantinedCases(run),
		Threshold:   percent(threshold(run)),
		Duration:    elapsed(run.Duration),
		Cases:       len(run.Cases),
		Trials:      stats.Trials,
		Tokens:      tokens(total),
		Calls:       inParens(calls(total)),
		Cost:        cost(total),
		Unpriced:    clean(joinNonEmpty(" ", unpricedNote(stats), unreportedNote(stats))),
		ByRole:      inParens(byRole(stats.Usage, costAndTokens)),
		PassAtK:     passAtK(stats),
		PassHatK:    passHatK(stats),
		Replayed:    replayedLine(run),
		Unstable:    unstableJudges(run),
		Incomplete:  clean(incomplete(run)),
		Unjudged:    unjudged(run, stats),
	}
	if stats.PassRate == nil {
		p.NotJudged = " (" + notJudged + ")"
	}
	if !run.Started.IsZero() {
		p.Started = run.Started.UTC().Format("2006-01-02 15:04:05 MST")
	}
	if s := run.Suite; s != nil {
		p.Description, p.File = clean(s.Description), clean(s.File)
		var models []string
		for _, role := range slices.Sorted(maps.Keys(s.Models)) {
			models = append(models, role+" "+s.Models[role])
		}
		p.Models = clean(strings.Join(models, ", "))
	}
	var outcomes []string
	for _, o := range []gavel.Outcome{gavel.Passed, gavel.Failed, gavel.Flaky, gavel.Errored, gavel.Skipped} {
		if n := stats.Cases[o]; n > 0 {
			outcomes = append(outcomes, fmt.Sprintf("%d %s", n, o))
		}
	}
	p.Outcomes = strings.Join(outcomes, " · ")
	facts := make([]caseFacts, len(run.Cases))
	for i := range run.Cases {
		facts[i] = factsOf(&run.Cases[i])
		p.Rows = append(p.Rows, newHTMLCase(i, &run.Cases[i]))
	}
	p.Flaky = clean(strings.Join(flakyCases(facts), ", "))
	for _, bd := range breakdowns(stats) {
		hb := htmlBreakdown{}
		for _, h := range bd.header {
			hb.Header = append(hb.Header, title(h))
		}
		for _, row := range bd.rows {
			hb.Rows = append(hb.Rows, append([]string{clean(row[0])}, row[1:]...))
		}
		p.Breakdowns = append(p.Breakdowns, hb)
	}
	return p
}

// newHTMLCase formats a case, the i-th of the run.
func newHTMLCase(i int, cr *gavel.CaseResult) htmlCase {
	f := factsOf(cr)
	row := textRow(f)
	c := htmlCase{
		Anchor:      fmt.Sprintf("case-%d", i+1),
		ID:          clean(f.ID),
		Name:        clean(f.Name),
		Description: clean(f.Description),
		Input:       clean(f.Input),
		Expected:    clean(f.Expected),
		Outcome:     string(cr.Outcome),
		Class:       statusClass(string(cr.Outcome)),
		Tools:       row.Tools,
		Response:    row.Response,
		Trials:      row.Trials,
		Score:       row.Score,
		Cost:        row.Cost,
		Duration:    elapsed(f.Duration),
		Open:        needsDetail(cr.Outcome),
	}
	if cr.Outcome == gavel.Skipped {
		c.SkipReason = skipReason(cr)
	}
	if cr.Case != nil {
		c.Tags = clean(strings.Join(cr.Case.Tags, ", "))
	}
	for _, t := range cr.Trials {
		c.Runs = append(c.Runs, newHTMLTrial(t, len(cr.Trials)))
	}
	return c
}

// newHTMLTrial formats one trial of n.
func newHTMLTrial(t gavel.Trial, n int) htmlTrial {
	out := htmlTrial{
		Title:   fmt.Sprintf("Trial %d of %d · %s · %s", t.N, n, elapsed(t.Duration), cost(t.Usage.Total())),
		Class:   statusClass(string(t.Verdict.Status)),
		Open:    !t.Verdict.Passed(),
		Verdict: newHTMLVerdict(t.Verdict),
	}
	tr := t.Transcript
	if tr == nil {
		return out
	}
	if !completed(tr) {
		out.Error = clean(strings.TrimSuffix(string(tr.Status)+": "+tr.Error, ": "))
	}
	revivals := revived(tr)
	for i, turn := range tr.Turns {
		ht := htmlTurn{Revival: revivals[i], Speaker: speaker(turn), Role: roleClass(turn.Role), Content: clean(turn.Content), FollowUp: followUpNote(turn.FollowUp)}
		if turn.Round > 0 {
			ht.Speaker = fmt.Sprintf("round %d · %s", turn.Round, ht.Speaker)
		}
		for _, c := range turn.ToolCalls {
			ht.Calls = append(ht.Calls, htmlCall{Call: call(c), Result: clean(c.Result), Failed: c.IsError, Replayed: replayedNote(c)})
		}
		out.Turns = append(out.Turns, ht)
	}
	out.Final = clean(tr.FinalResponse)
	return out
}

// newHTMLVerdict formats a verdict's tree, with its decision in words.
func newHTMLVerdict(v judge.Judgment) htmlJudgment {
	out := newHTMLJudgment(v, Describe(v))
	out.Decision = clean(Decision(v))
	return out
}

// newHTMLJudgment formats a judgment and its parts, node saying what it
// is (Describe, or for a part DescribeParts); the branches that failed or
// errored start open.
func newHTMLJudgment(j judge.Judgment, node Node) htmlJudgment {
	out := htmlJudgment{
		Name:      clean(node.Words),
		Kind:      clean(node.Kind),
		Note:      clean(node.Note),
		Technical: clean(node.Technical),
		Status:    string(j.Status),
		Class:     statusClass(string(j.Status)),
		DecidedBy: clean(j.DecidedBy),
		Reasoning: clean(j.Reasoning),
		Open:      failed(j),
	}
	out.Score = clean(ScoreNote(j))
	for _, c := range j.Checks {
		out.Checks = append(out.Checks, htmlCheck{Name: clean(c.Name), Message: clean(c.Message), Passed: c.Passed})
	}
	for _, f := range j.Findings {
		out.Findings = append(out.Findings, clean(f.String()))
	}
	nodes := DescribeParts(j)
	for i, p := range j.Parts {
		out.Parts = append(out.Parts, newHTMLJudgment(p, nodes[i]))
	}
	return out
}

// statusClass maps an outcome or a judgment status to its CSS class.
func statusClass(status string) string {
	switch status {
	case "PASS", "FAIL", "ERROR", "FLAKY", "SKIPPED", "ABSTAIN":
		return strings.ToLower(status)
	}
	return "unknown"
}

// roleClass maps a turn's role to its CSS class.
func roleClass(r judge.Role) string {
	switch r {
	case judge.RoleUser, judge.RoleAgent, judge.RoleSystem, judge.RoleEvent:
		return string(r)
	}
	return "other"
}
