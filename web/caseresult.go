package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/report"
	"github.com/gavelhq/gavel/store"
)

// loadCase reads one case of a run (store.Store.RunCase reads that
// case's trials only), its run's model references redacted; an unknown
// run, or a case the run does not have, is a 404.
func (s *Server) loadCase(ctx context.Context, runID, caseID string) (*store.StoredCase, error) {
	sc, err := s.store.RunCase(ctx, runID, caseID)
	if errors.Is(err, store.ErrNotFound) {
		// The store says "not found" of both; the message tells which.
		if _, infoErr := s.store.RunInfo(ctx, runID); infoErr != nil {
			return nil, notFound(infoErr, "no run %s", runID)
		}
		return nil, notFound(err, "run %s has no case %s", runID, caseID)
	}
	if err != nil {
		return nil, err
	}
	sc.Info = redactInfo(sc.Info)
	return sc, nil
}

// caseResultData is case_result.tmpl's data.
type caseResultData struct {
	RunID, RunHref, Suite string
	// RunName names the run (store.RunInfo.Name).
	RunName               string
	ID, Name, Description string
	Tags, Source, Input   string
	Expected, SkipReason  string
	Outcome, Class        string
	Trials                []trialView
	PrevHref, PrevID      string
	NextHref, NextID      string
	JSONHref              string
	// LabelAction is where a trial's label form posts, when the visitor
	// may label; CSRF goes with it.
	LabelAction, CSRF string
}

// trialView is one trial of a case: its conversation and its verdict.
type trialView struct {
	Anchor, Title            string
	Status, Class            string
	Open                     bool
	Duration, Cost           string
	Tokens, Calls, SessionID string
	TraceID, TraceHref       string
	Usage                    []usageRow
	Error                    string
	Turns                    []turnView
	Final                    string
	Verdict                  judgmentView
	N                        int
	Labels                   []labelView
	// Label is the trial's label form, on its verdict; Judges, the forms
	// of the judgments below it, shown on demand. Both nil when the
	// visitor may not label.
	Label  *labelForm
	Judges []labelForm
}

// turnView is one turn of a conversation, marked when the case did not
// write it (an automatic follow-up, a simulated user). Revival says how the
// session was revived just before it, if it was.
type turnView struct {
	Revival          string
	Speaker, Role    string
	Marked           bool
	Content, Latency string
	Calls            []callView
	// FollowUp is the check of whether the reply asked for
	// clarification (see report.FollowUpNote).
	FollowUp string
}

// callView is one tool call: name, arguments (indented when JSON), and
// result.
type callView struct {
	Name, Arguments, Summary string
	Result, Duration         string
	Failed                   bool
}

// judgmentView is one node of a verdict's tree, the branches that failed
// or errored open.
type judgmentView struct {
	Name, Status, Class string
	// Node says what the judgment is in words (report.Describe), with
	// its technical name beside them: its summary line shows Node, not
	// Name, which its label form names.
	Node             report.Node
	Score, Reasoning string
	// Score is the judgment's number against its own threshold ("scored
	// 0.55, below its threshold 0.7"), or a judge's own score, as
	// report.ScoreNote says it: a composite shows none, its mean over its
	// parts, rules included, is no score to read. Words, on the verdict
	// alone, says in words which judges decided it (report.Decision), as
	// every report does.
	Words    string
	Cost     string
	Open     bool
	Checks   []checkView
	Findings []string
	Parts    []judgmentView
	// Path is the judgment's path in the verdict's tree, as labels name
	// it ("" for the verdict); Categories, what a label may put it in
	// (gavel.LabelCategories: pass, fail, and its score's categories or
	// whole numbers).
	Path       string
	Categories []string
	// Labels are the current labels on this judgment.
	Labels []labelView
}

// labelForm is a label form of one judgment of a trial: the verdict's
// (Path ""), or a judge's below it. It offers the judgment's categories
// as radio buttons, none chosen: the person chooses.
type labelForm struct {
	Action, CSRF string
	Trial        int
	// Path is the judgment's path in the verdict's tree; Name, Status and
	// Class say which judgment it is, and Depth how deep in the tree.
	Path, Name    string
	Status, Class string
	Depth         int
	Categories    []string
	// Mine is the visitor's current label on it, if any: what they said.
	Mine string
}

// checkView is one check of a judgment.
type checkView struct {
	Name, Message string
	Passed        bool
}

// caseResultPage is a case of a run: each trial's conversation turn by
// turn and its verdict's whole tree.
func (s *Server) caseResultPage(r *http.Request) (view, error) {
	sc, err := s.loadCase(r.Context(), r.PathValue("id"), r.PathValue("case"))
	if err != nil {
		return view{}, err
	}
	info, cr := sc.Info, &sc.Result
	id := cr.ID()
	d := caseResultData{
		RunID: oneLine(info.ID), RunHref: runHref(info.ID), Suite: oneLine(info.Suite), RunName: oneLine(info.Name()),
		ID: oneLine(id), Outcome: string(cr.Outcome), Class: statusClass(string(cr.Outcome)),
		JSONHref: "/api" + caseResultHref(info.ID, id),
	}
	if c := cr.Case; c != nil {
		d.Name, d.Description, d.Source = oneLine(c.Name), clean(c.Description), oneLine(c.Source)
		d.Tags, d.Input, d.Expected = oneLine(strings.Join(c.Tags, ", ")), clean(c.Input()), clean(c.Expected)
	}
	if cr.Outcome == gavel.Skipped {
		d.SkipReason = clean(orNoReason(cr.SkipReason))
	}
	if sc.Prev != "" {
		d.PrevID, d.PrevHref = oneLine(sc.Prev), caseResultHref(info.ID, sc.Prev)
	}
	if sc.Next != "" {
		d.NextID, d.NextHref = oneLine(sc.Next), caseResultHref(info.ID, sc.Next)
	}
	labels, err := s.labelsOf(r, info.ID, id)
	if err != nil {
		return view{}, err
	}
	if canEdit(r) {
		d.LabelAction, d.CSRF = caseResultHref(info.ID, id)+"/labels", csrfOf(r)
	}
	for _, t := range cr.Trials {
		tv := newTrialView(t, len(cr.Trials))
		tv.N, tv.Labels = t.N, labels[t.N]
		tv.TraceID, tv.TraceHref = oneLine(t.TraceID), s.traceHref(t.TraceID)
		tv.Verdict.withLabels(tv.Labels)
		if d.LabelAction != "" {
			forms := labelForms(tv.Verdict, labelForm{Action: d.LabelAction, CSRF: d.CSRF, Trial: t.N}, visitorName(r))
			tv.Label, tv.Judges = &forms[0], forms[1:]
		}
		d.Trials = append(d.Trials, tv)
	}
	return view{template: "case_result.tmpl", title: d.ID + " in " + d.RunName, nav: "runs", data: d}, nil
}

// newTrialView formats one trial of n.
func newTrialView(t gavel.Trial, n int) trialView {
	total := t.Usage.Total()
	out := trialView{
		Anchor:   fmt.Sprintf("trial-%d", t.N),
		Title:    fmt.Sprintf("Trial %d of %d", t.N, n),
		Status:   string(t.Verdict.Status),
		Class:    statusClass(string(t.Verdict.Status)),
		Open:     !t.Verdict.Passed(),
		Duration: elapsed(t.Duration),
		Cost:     cost(total),
		Tokens:   tokens(total),
		Calls:    report.Calls(total),
		Verdict:  newJudgmentView(t.Verdict, "", report.Describe(t.Verdict)),
	}
	for _, role := range t.Usage.Roles() {
		if role.Usage != (judge.Usage{}) {
			out.Usage = append(out.Usage, newUsageRow(role.Role, role.Usage))
		}
	}
	tr := t.Transcript
	if tr == nil {
		return out
	}
	out.SessionID = oneLine(tr.SessionID)
	if tr.Status != "" && tr.Status != judge.ExecSuccess {
		out.Error = clean(strings.TrimSuffix(string(tr.Status)+": "+tr.Error, ": "))
	}
	revived := map[int]string{}
	for _, rv := range tr.Revivals {
		revived[rv.BeforeTurn] = oneLine(rv.Description())
	}
	for i, turn := range tr.Turns {
		tv := turnView{
			Revival:  revived[i],
			Speaker:  speaker(turn),
			Role:     roleClass(turn.Role),
			Marked:   turn.Origin != "",
			Content:  clean(turn.Content),
			FollowUp: report.FollowUpNote(turn.FollowUp),
		}
		if turn.Latency > 0 {
			tv.Latency = elapsed(turn.Latency)
		}
		for _, c := range turn.ToolCalls {
			tv.Calls = append(tv.Calls, newCallView(c))
		}
		out.Turns = append(out.Turns, tv)
	}
	out.Final = clean(tr.FinalResponse)
	return out
}

// speaker says who spoke a turn, as the reports do, and in which round:
// "round 2 · user (automatic follow-up)".
func speaker(t judge.Turn) string {
	if t.Round > 0 {
		return fmt.Sprintf("round %d · %s", t.Round, report.Speaker(t))
	}
	return report.Speaker(t)
}

// roleClass maps a turn's role to its CSS class.
func roleClass(r judge.Role) string {
	switch r {
	case judge.RoleUser, judge.RoleAgent, judge.RoleSystem, judge.RoleEvent:
		return string(r)
	}
	return "other"
}

// callSummaryLength is how many characters of a call's arguments its
// one-line summary shows.
const callSummaryLength = 120

// newCallView formats a tool call.
func newCallView(c judge.ToolCall) callView {
	out := callView{Name: oneLine(c.Name), Result: clean(c.Result), Failed: c.IsError}
	if c.Duration > 0 {
		out.Duration = elapsed(c.Duration)
	}
	var compact, indented bytes.Buffer
	if json.Compact(&compact, c.Arguments) == nil && json.Indent(&indented, c.Arguments, "", "  ") == nil {
		out.Summary, out.Arguments = oneLine(unescapeHTML(compact.String())), clean(unescapeHTML(indented.String()))
	} else {
		out.Summary, out.Arguments = oneLine(string(c.Arguments)), clean(string(c.Arguments))
	}
	out.Summary = shorten(out.Summary, callSummaryLength)
	return out
}

// unescapeHTML turns back the escapes Go's JSON encoder writes for <, >
// and & (\u003c, \u003e, \u0026) in valid JSON, so that arguments read as
// the agent sent them; the page escapes them for HTML anyway.
func unescapeHTML(js string) string {
	if !strings.Contains(js, `\u00`) {
		return js
	}
	var b strings.Builder
	for i := 0; i < len(js); i++ {
		if js[i] != '\\' || i+1 == len(js) {
			b.WriteByte(js[i])
			continue
		}
		switch seq := js[i:min(i+6, len(js))]; seq {
		case `\u003c`:
			b.WriteByte('<')
		case `\u003e`:
			b.WriteByte('>')
		case `\u0026`:
			b.WriteByte('&')
		default:
			b.WriteString(js[i : i+2]) // any other escape, \\ included, stays
			i++
			continue
		}
		i += 5
	}
	return b.String()
}

// newJudgmentView formats a judgment at path in its verdict's tree, and
// its parts; node says what it is (report.Describe, or for a part
// report.DescribeParts).
func newJudgmentView(j judge.Judgment, path string, node report.Node) judgmentView {
	out := judgmentView{
		Name:      oneLine(j.Name),
		Status:    string(j.Status),
		Class:     statusClass(string(j.Status)),
		Node:      node,
		Reasoning: clean(j.Reasoning),
		Open:      j.Status == judge.StatusFail || j.Status == judge.StatusError,
	}
	if out.Name == "" {
		out.Name = "verdict"
	}
	if path == "" {
		out.Words = report.Decision(j)
	}
	out.Score = report.ScoreNote(j)
	if j.Usage.CostUSD > 0 || j.Usage.Unpriced {
		out.Cost = cost(j.Usage)
	}
	for _, c := range j.Checks {
		out.Checks = append(out.Checks, checkView{Name: oneLine(c.Name), Message: clean(c.Message), Passed: c.Passed})
	}
	for _, f := range j.Findings {
		out.Findings = append(out.Findings, clean(f.String()))
	}
	nodes := report.DescribeParts(j)
	for i, p := range j.Parts {
		out.Parts = append(out.Parts, newJudgmentView(p, gavel.JudgmentPath(path, j.Name, p.Name), nodes[i]))
	}
	out.Path, out.Categories = path, gavel.LabelCategories(j)
	return out
}

// withLabels gives each judgment of a tree its labels.
func (v *judgmentView) withLabels(labels []labelView) {
	for _, l := range labels {
		if l.Judgment == v.Path {
			v.Labels = append(v.Labels, l)
		}
	}
	for i := range v.Parts {
		v.Parts[i].withLabels(labels)
	}
}

// labelForms returns a label form for each judgment of a verdict's tree
// (given its labels), the verdict's first, then its parts' depth first,
// each like form with its judgment's path, name and categories, and
// what person said of it.
func labelForms(v judgmentView, form labelForm, person string) []labelForm {
	var out []labelForm
	var walk func(j judgmentView, depth int)
	walk = func(j judgmentView, depth int) {
		f := form
		f.Path, f.Name, f.Status, f.Class, f.Depth, f.Categories = j.Path, j.Name, j.Status, j.Class, depth, j.Categories
		if j.Node.Words != "" { // the judge in words, as the tree above says it
			f.Name = j.Node.Words
		}
		for _, l := range j.Labels {
			if l.Author == person {
				f.Mine = l.What()
			}
		}
		out = append(out, f)
		for _, p := range j.Parts {
			walk(p, depth+1)
		}
	}
	walk(v, 0)
	return out
}

// apiCaseResult returns a case of a run as the JSON report has it
// (report.JSONCase): GET /api/runs/{id}/cases/{case}.
func (s *Server) apiCaseResult(r *http.Request) (any, error) {
	sc, err := s.loadCase(r.Context(), r.PathValue("id"), r.PathValue("case"))
	if err != nil {
		return nil, err
	}
	// The report of a run of this one case holds the case as every JSON
	// report does (a case's part of the report owes nothing to the rest of
	// the run); it is taken from there, so that it stays the same.
	var b bytes.Buffer
	one := &gavel.Run{Cases: []gavel.CaseResult{sc.Result}}
	if err := report.Write(&b, report.JSON, one, report.Options{}); err != nil {
		return nil, err
	}
	var rep struct {
		Cases []json.RawMessage `json:"cases"`
	}
	if err := json.Unmarshal(b.Bytes(), &rep); err != nil || len(rep.Cases) != 1 {
		return nil, fmt.Errorf("case %s of run %s: reading its report back: %v", sc.Result.ID(), sc.Info.ID, err)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, rep.Cases[0], "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return rawJSON(out.Bytes()), nil
}
