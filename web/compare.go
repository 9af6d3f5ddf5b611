package web

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/report"
	"github.com/gavelhq/gavel/store"
)

// compareRuns reads the runs a and b of the query and compares b (the
// head) with a (the base). a may also be baseline or previous: the run
// that finds against b (resolveBase).
func (s *Server) compareRuns(ctx context.Context, a, b string) (base, head *store.StoredRun, c gavel.Comparison, err error) {
	if a == "" || b == "" {
		return nil, nil, c, errorf(http.StatusBadRequest, "a and b: name the two runs to compare, as in ?a=BASE_RUN&b=HEAD_RUN (a may be baseline or previous)")
	}
	if a, err = s.resolveBase(ctx, a, b); err != nil {
		return nil, nil, c, err
	}
	// Whole runs: the replies are in the transcripts.
	if base, err = s.loadRun(ctx, a); err != nil {
		return nil, nil, c, err
	}
	if head, err = s.loadRun(ctx, b); err != nil {
		return nil, nil, c, err
	}
	c = gavel.Compare(base.Run, head.Run)
	c.Replies = gavel.Replies(base.Run, head.Run)
	return base, head, c, nil
}

// apiCompare compares two runs: GET /api/compare?a=BASE&b=HEAD answers
// the JSON comparison (report.JSONComparison).
func (s *Server) apiCompare(r *http.Request) (any, error) {
	q := r.URL.Query()
	base, head, c, err := s.compareRuns(r.Context(), q.Get("a"), q.Get("b"))
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	opts := report.ComparisonOptions{BaseLabel: base.Info.Caption(), HeadLabel: head.Info.Caption(), Version: s.cfg.Version,
		AllReplies: q.Get("replies") == "all"}
	if err := report.WriteComparison(&b, report.JSON, c, opts); err != nil {
		return nil, err
	}
	return rawJSON(b.Bytes()), nil
}

// compareData is compare.tmpl's data.
type compareData struct {
	// A and B are the runs asked for; Recent are the latest runs, to
	// offer as the head, and BaseChoices the base: the head's baseline,
	// the run before it, or any of Recent.
	A, B        string
	Recent      []runOption
	BaseChoices []runOption
	Compared    bool
	// WithBaselineHref and WithPreviousHref compare the head with its
	// baseline and with the run before it.
	WithBaselineHref, WithPreviousHref string

	Base, Head runOption
	Verdict    string
	Regressed  bool
	// Test says how the difference was tested, a line each.
	Test           []string
	PassRate, Cost string
	Counts         string
	// First are the regressions and the fixes; the score deltas come
	// after them, then Rest: the other cases that changed.
	First, Rest []compareSection
	Criteria    []criterionDelta
	JSONHref    string

	// Replies are the cases whose replies or tool calls differ (every
	// case both runs have with ?replies=all), side by side; SameReplies
	// counts the cases whose replies are the same.
	Replies        []replyView
	SameReplies    int
	AllReplies     bool
	AllRepliesHref string
}

// runOption is a run to compare, as the form offers it and the page
// names it.
type runOption struct {
	// Label is what the form's option says, or the run's Caption on the
	// page; Name and ByID are as runRow's.
	ID, Name, Label, Href string
	ByID, Selected        bool
}

// newRunOption is a run as the comparison names it.
func newRunOption(info store.RunInfo) runOption {
	return runOption{ID: oneLine(info.ID), Name: oneLine(info.Name()), ByID: info.NamedByID(),
		Label: oneLine(info.Caption()), Href: runHref(info.ID)}
}

// newRunChoice is a run as a picker offers it: its name, suite, status
// and start.
func newRunChoice(info store.RunInfo, selected string) runOption {
	o := newRunOption(info)
	o.Label = oneLine(info.Name() + " · " + info.Suite + " · " + string(info.Status) + " · " + stamp(info.Started))
	o.Selected = info.ID == selected
	return o
}

// compareSection is a group of cases of a comparison.
type compareSection struct {
	Key, Title, About, ReasonHeader string
	Cases                           []compareCase
}

// compareCase is a case of a group.
type compareCase struct {
	ID, Name, Reason string
	Base, Head       sideView
}

// sideView is how a case came out in one run, linked to its result there;
// Outcome is "" when the run does not have the case.
type sideView struct {
	Outcome, Class, Trials, Href string
}

// criterionDelta is a criterion's mean score in both runs.
type criterionDelta struct {
	Name, Base, Head, Delta, Class string
}

// recentRuns is how many of the latest runs the comparison's form offers.
const recentRuns = 50

// comparePage sets two runs side by side: regressions first, then fixes,
// then score deltas, then the other changes. Without both runs, it is a
// form to pick them.
func (s *Server) comparePage(r *http.Request) (view, error) {
	ctx := r.Context()
	q := r.URL.Query()
	d := compareData{A: q.Get("a"), B: q.Get("b")}
	if d.A == "" || d.B == "" {
		recent, err := s.store.Runs(ctx, store.RunFilter{Limit: recentRuns})
		if err != nil {
			return view{}, err
		}
		for _, info := range recent {
			d.Recent = append(d.Recent, newRunChoice(info, d.B))
		}
		d.BaseChoices = []runOption{
			{ID: compareBaseline, Label: "its baseline (the newest finished run on its --baseline, else on main)", Selected: d.A == compareBaseline || d.A == ""},
			{ID: comparePrevious, Label: "the run before it", Selected: d.A == comparePrevious},
		}
		for _, info := range recent {
			d.BaseChoices = append(d.BaseChoices, newRunChoice(info, d.A))
		}
		d.A, d.B = oneLine(d.A), oneLine(d.B)
		return view{template: "compare.tmpl", title: "Compare runs", nav: "compare", data: d}, nil
	}
	base, head, c, err := s.compareRuns(ctx, d.A, d.B)
	if err != nil {
		return view{}, err
	}
	d = newCompareData(base, head, c, q.Get("replies") == "all")
	return view{template: "compare.tmpl", title: "Compare " + d.Base.Name + " → " + d.Head.Name, nav: "compare", data: d}, nil
}

// newCompareData formats a comparison for its page.
func newCompareData(base, head *store.StoredRun, c gavel.Comparison, allReplies bool) compareData {
	d := compareData{
		A: oneLine(base.Info.ID), B: oneLine(head.Info.ID), Compared: true,
		Base:             newRunOption(base.Info),
		Head:             newRunOption(head.Info),
		WithBaselineHref: compareHref(compareBaseline, head.Info.ID),
		WithPreviousHref: compareHref(comparePrevious, head.Info.ID),
		Regressed:        c.Failed(),
		Verdict:          report.ComparisonVerdict(c),
		PassRate:         report.PassRateChange(c.PassRate, "→"),
		Cost:             report.CostChange(c.CostUSD, c.CostUnpriced, "→"),
		JSONHref:         "/api" + compareHref(base.Info.ID, head.Info.ID),
	}
	for _, line := range report.ComparisonTest(c.Test) {
		d.Test = append(d.Test, strings.ReplaceAll(line, "->", "→"))
	}
	headReason := func(cc gavel.CaseChange) string { return cc.Head.Reason }
	baseReason := func(cc gavel.CaseChange) string { return cc.Base.Reason }
	sections := []struct {
		key, title, about, reasonHeader string
		cases                           []gavel.CaseChange
		reason                          func(gavel.CaseChange) string
	}{
		{"regressions", "Regressions", "Cases that passed in the base and did not pass in the head.", "Reason", c.Regressions, headReason},
		{"fixes", "Fixes", "Cases that did not pass in the base and pass in the head.", "Reason it failed in the base", c.Fixes, baseReason},
		{"changed", "Changed", "Cases that passed in neither run, but came out differently.", "Reason", c.Changed, headReason},
		{"errored", "Errored", "Cases the head could not judge (not counted as regressions).", "Error", c.Errored, headReason},
		{"not_compared", "Not compared", "Cases skipped in either run, or that the base could not judge.", "Why", c.NotCompared, gavel.CaseChange.WhyNotCompared},
		{"redefined", "Redefined", "Cases defined differently in the two runs: not comparable, left out of the test.", "Reason", c.Redefined, headReason},
		{"added", "Added", "Cases in the head only.", "Reason", c.Added, headReason},
		{"removed", "Removed", "Cases in the base only.", "Reason", c.Removed, baseReason},
	}
	var counts []string
	for i, sec := range sections {
		if len(sec.cases) > 0 || i == 0 {
			counts = append(counts, fmt.Sprintf("%d %s", len(sec.cases), strings.ToLower(sec.title)))
		}
		cs := compareSection{Key: sec.key, Title: sec.title, About: sec.about, ReasonHeader: sec.reasonHeader}
		for _, cc := range sec.cases {
			row := compareCase{
				ID: oneLine(cc.ID), Name: oneLine(cc.Name), Reason: shorten(oneLine(sec.reason(cc)), reasonLength),
				Base: newSideView(cc.Base), Head: newSideView(cc.Head),
			}
			if cc.Base.Result != nil {
				row.Base.Href = caseResultHref(base.Info.ID, cc.ID)
			}
			if cc.Head.Result != nil {
				row.Head.Href = caseResultHref(head.Info.ID, cc.ID)
			}
			cs.Cases = append(cs.Cases, row)
		}
		switch {
		case i < 2:
			d.First = append(d.First, cs) // shown even when empty: "no regressions" is news
		case len(cs.Cases) > 0:
			d.Rest = append(d.Rest, cs)
		}
	}
	if c.Unchanged > 0 {
		counts = append(counts, fmt.Sprintf("%d unchanged", c.Unchanged))
	}
	d.Counts = strings.Join(counts, " · ")
	for _, cd := range c.Criteria {
		row := criterionDelta{Name: oneLine(cd.Name), Base: "-", Head: "-"}
		if cd.Base.Count > 0 {
			row.Base = score(cd.Base.Mean)
		}
		if cd.Head.Count > 0 {
			row.Head = score(cd.Head.Mean)
		}
		diff, ok := cd.Diff()
		switch {
		case ok:
			row.Delta = score(diff)
			switch {
			case row.Delta == "0.00" || row.Delta == "-0.00":
				row.Delta = "0.00"
			case diff > 0:
				row.Delta, row.Class = "+"+row.Delta, "up"
			default:
				row.Class = "down"
			}
		case cd.Head.Count > 0:
			row.Delta = "new"
		default:
			row.Delta = "gone"
		}
		d.Criteria = append(d.Criteria, row)
	}
	d.AllReplies, d.AllRepliesHref = allReplies, compareHref(base.Info.ID, head.Info.ID)
	if !allReplies {
		d.AllRepliesHref += "&replies=all"
	}
	for _, p := range c.Replies {
		if !p.Differs {
			d.SameReplies++
			if !allReplies {
				continue
			}
		}
		rd := report.DiffReplies(p)
		v := replyView{ID: oneLine(p.ID), Name: oneLine(p.Name), BaseTrial: p.BaseTrial, HeadTrial: p.HeadTrial,
			BaseMissing: rd.BaseMissing, HeadMissing: rd.HeadMissing, SameReply: rd.SameReply, SameCalls: rd.SameCalls}
		v.BaseReply, v.HeadReply = sidesOf(rd.Reply)
		v.BaseCalls, v.HeadCalls = sidesOf(rd.Calls)
		d.Replies = append(d.Replies, v)
	}
	return d
}

// A replyView is one case's replies in both runs, for the two columns of
// the comparison page: each column's pieces, those only in that run
// marked Changed.
type replyView struct {
	ID, Name                 string
	BaseTrial, HeadTrial     int
	BaseMissing, HeadMissing bool
	SameReply, SameCalls     bool
	BaseReply, HeadReply     []diffPiece
	BaseCalls, HeadCalls     []diffPiece
}

// A diffPiece is a piece of one side of a diff: Changed when it is in
// that side only.
type diffPiece struct {
	Text    string
	Changed bool
}

// sidesOf splits a diff into its two sides: the base's (kept and
// deleted pieces) and the head's (kept and inserted).
func sidesOf(edits []report.Edit) (base, head []diffPiece) {
	for _, e := range edits {
		switch e.Op {
		case report.Delete:
			base = append(base, diffPiece{e.Text, true})
		case report.Insert:
			head = append(head, diffPiece{e.Text, true})
		default:
			base = append(base, diffPiece{e.Text, false})
			head = append(head, diffPiece{e.Text, false})
		}
	}
	return base, head
}

// newSideView formats how a case came out in one run: "FLAKY", "2/3".
func newSideView(s gavel.CaseSide) sideView {
	if s.Outcome == "" {
		return sideView{}
	}
	out := sideView{Outcome: string(s.Outcome), Class: statusClass(string(s.Outcome))}
	if s.Trials > 0 {
		out.Trials = fmt.Sprintf("%d/%d", s.Passed, s.Trials)
	}
	return out
}
