package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/report"
	"github.com/gavelhq/gavel/store"
)

// findCase returns the result of the case of a run with the given id,
// and its index; a case the run does not have is a 404.
func findCase(sr *store.StoredRun, caseID string) (*gavel.CaseResult, int, error) {
	for i := range sr.Run.Cases {
		if sr.Run.Cases[i].ID() == caseID {
			return &sr.Run.Cases[i], i, nil
		}
	}
	return nil, 0, errorf(http.StatusNotFound, "run %s has no case %s", sr.Info.ID, caseID)
}

// caseResultData is case_result.tmpl's data.
type caseResultData struct {
	RunID, RunHref, Suite string
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
	Anchor, Title     string
	Status, Class     string
	Open              bool
	Duration, Cost    string
	Tokens, SessionID string
	Usage             []usageRow
	Error             string
	Turns             []turnView
	Final             string
	Verdict           judgmentView
	N                 int
	Labels            []labelView
}

// turnView is one turn of a conversation, marked when the session was
// revived just before it, or when the case did not write it (an
// automatic follow-up, a simulated user).
type turnView struct {
	Revived          bool
	Speaker, Role    string
	Marked           bool
	Content, Latency string
	Calls            []callView
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
	Name, Status, Class         string
	Score, DecidedBy, Reasoning string
	Cost                        string
	Open                        bool
	Checks                      []checkView
	Findings                    []string
	Parts                       []judgmentView
}

// checkView is one check of a judgment.
type checkView struct {
	Name, Message string
	Passed        bool
}

// caseResultPage is a case of a run: each trial's conversation turn by
// turn and its verdict's whole tree.
func (s *Server) caseResultPage(r *http.Request) (view, error) {
	sr, err := s.loadRun(r.Context(), r.PathValue("id"))
	if err != nil {
		return view{}, err
	}
	cr, i, err := findCase(sr, r.PathValue("case"))
	if err != nil {
		return view{}, err
	}
	id := cr.ID()
	d := caseResultData{
		RunID: oneLine(sr.Info.ID), RunHref: runHref(sr.Info.ID), Suite: oneLine(sr.Info.Suite),
		ID: oneLine(id), Outcome: string(cr.Outcome), Class: statusClass(string(cr.Outcome)),
		JSONHref: "/api" + caseResultHref(sr.Info.ID, id),
	}
	if c := cr.Case; c != nil {
		d.Name, d.Description, d.Source = oneLine(c.Name), clean(c.Description), oneLine(c.Source)
		d.Tags, d.Input, d.Expected = oneLine(strings.Join(c.Tags, ", ")), clean(c.Input()), clean(c.Expected)
	}
	if cr.Outcome == gavel.Skipped {
		d.SkipReason = clean(orNoReason(cr.SkipReason))
	}
	if i > 0 {
		prev := sr.Run.Cases[i-1].ID()
		d.PrevID, d.PrevHref = oneLine(prev), caseResultHref(sr.Info.ID, prev)
	}
	if i+1 < len(sr.Run.Cases) {
		next := sr.Run.Cases[i+1].ID()
		d.NextID, d.NextHref = oneLine(next), caseResultHref(sr.Info.ID, next)
	}
	labels, err := s.labelsOf(r, sr.Info.ID, id)
	if err != nil {
		return view{}, err
	}
	if canEdit(r) {
		d.LabelAction, d.CSRF = caseResultHref(sr.Info.ID, id)+"/labels", csrfOf(r)
	}
	for _, t := range cr.Trials {
		tv := newTrialView(t, len(cr.Trials))
		tv.N, tv.Labels = t.N, labels[t.N]
		d.Trials = append(d.Trials, tv)
	}
	return view{template: "case_result.tmpl", title: d.ID + " in run " + d.RunID, nav: "runs", data: d}, nil
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
		Cost:     cost(total.CostUSD),
		Tokens:   count(total.Tokens()),
		Verdict:  newJudgmentView(t.Verdict),
	}
	for _, role := range []struct {
		name  string
		usage judge.Usage
	}{{"agent", t.Usage.Agent}, {"judge", t.Usage.Judge}, {"simulated user", t.Usage.SimulatedUser}} {
		if role.usage != (judge.Usage{}) {
			out.Usage = append(out.Usage, newUsageRow(role.name, role.usage))
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
	revived := map[int]bool{}
	for _, rv := range tr.Revivals {
		revived[rv.BeforeTurn] = true
	}
	for i, turn := range tr.Turns {
		tv := turnView{
			Revived: revived[i],
			Speaker: speaker(turn),
			Role:    roleClass(turn.Role),
			Marked:  turn.Origin != "",
			Content: clean(turn.Content),
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

// newJudgmentView formats a judgment and its parts.
func newJudgmentView(j judge.Judgment) judgmentView {
	out := judgmentView{
		Name:      oneLine(j.Name),
		Status:    string(j.Status),
		Class:     statusClass(string(j.Status)),
		DecidedBy: oneLine(j.DecidedBy),
		Reasoning: clean(j.Reasoning),
		Open:      j.Status == judge.StatusFail || j.Status == judge.StatusError,
	}
	if out.Name == "" {
		out.Name = "verdict"
	}
	if !j.Score.IsZero() && j.Score.Kind != judge.Boolean { // a boolean says no more than the status
		out.Score = oneLine(j.Score.String())
	}
	if j.Usage.CostUSD > 0 {
		out.Cost = cost(j.Usage.CostUSD)
	}
	for _, c := range j.Checks {
		out.Checks = append(out.Checks, checkView{Name: oneLine(c.Name), Message: clean(c.Message), Passed: c.Passed})
	}
	for _, f := range j.Findings {
		out.Findings = append(out.Findings, clean(f.String()))
	}
	for _, p := range j.Parts {
		out.Parts = append(out.Parts, newJudgmentView(p))
	}
	return out
}

// apiCaseResult returns a case of a run as the JSON report has it
// (report.JSONCase): GET /api/runs/{id}/cases/{case}.
func (s *Server) apiCaseResult(r *http.Request) (any, error) {
	sr, err := s.loadRun(r.Context(), r.PathValue("id"))
	if err != nil {
		return nil, err
	}
	cr, _, err := findCase(sr, r.PathValue("case"))
	if err != nil {
		return nil, err
	}
	// The report of a run of this one case holds the case as every JSON
	// report does; it is taken from there, so that it stays the same.
	var b bytes.Buffer
	one := &gavel.Run{Suite: sr.Run.Suite, Cases: []gavel.CaseResult{*cr}}
	if err := report.Write(&b, report.JSON, one, report.Options{}); err != nil {
		return nil, err
	}
	var rep struct {
		Cases []json.RawMessage `json:"cases"`
	}
	if err := json.Unmarshal(b.Bytes(), &rep); err != nil || len(rep.Cases) != 1 {
		return nil, fmt.Errorf("case %s of run %s: reading its report back: %v", cr.ID(), sr.Info.ID, err)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, rep.Cases[0], "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return rawJSON(out.Bytes()), nil
}
