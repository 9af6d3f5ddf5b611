package web

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/gavelhq/gavel/report"
	"github.com/gavelhq/gavel/store"
)

// The cases pages: the list of every case the store knows, and a case's
// versions with their definitions. The form that creates and edits cases
// is in caseform.go.

// caseFilter is a cases list's filter: suite, tag and text (in the id,
// the name or the definition, case-insensitive).
type caseFilter struct {
	Suite, Tag, Text string
}

func newCaseFilter(q url.Values) caseFilter {
	return caseFilter{Suite: q.Get("suite"), Tag: q.Get("tag"), Text: q.Get("q")}
}

// match reports whether a case passes the filter (its suite is filtered
// by the store).
func (f caseFilter) match(c store.CaseVersion) bool {
	if f.Tag != "" && !slices.Contains(c.Tags, f.Tag) {
		return false
	}
	if f.Text == "" {
		return true
	}
	text := strings.ToLower(f.Text)
	return strings.Contains(strings.ToLower(c.ID), text) || strings.Contains(strings.ToLower(c.Name), text) ||
		strings.Contains(strings.ToLower(string(c.Definition)), text)
}

// A CaseSummary is a case's latest version, as GET /api/cases lists it.
type CaseSummary struct {
	Suite   string    `json:"suite"`
	ID      string    `json:"id"`
	Name    string    `json:"name"`
	Tags    []string  `json:"tags"`
	Version int       `json:"version"`
	Created time.Time `json:"created"`
	// Source is where the case is written ("cases.yaml:12"), "" for a
	// case written in the web app.
	Source string `json:"source"`
}

// A CaseList is the answer of GET /api/cases.
type CaseList struct {
	Cases []CaseSummary `json:"cases"`
}

// A CaseVersion is one version of a case, with its definition in the
// suite format (YAML), as GET /api/cases/{suite}/{case} lists them.
type CaseVersion struct {
	CaseSummary
	Definition string `json:"definition"`
}

// A CaseHistory is the answer of GET /api/cases/{suite}/{case}: every
// version of a case, oldest first.
type CaseHistory struct {
	Versions []CaseVersion `json:"versions"`
}

func newCaseSummary(c store.CaseVersion) CaseSummary {
	return CaseSummary{Suite: c.Suite, ID: c.ID, Name: c.Name, Tags: append([]string{}, c.Tags...),
		Version: c.Version, Created: c.Created, Source: c.Source}
}

// listCases returns the latest version of the cases that pass a filter.
func (s *Server) listCases(r *http.Request, f caseFilter) ([]store.CaseVersion, error) {
	all, err := s.store.Cases(r.Context(), f.Suite)
	if err != nil {
		return nil, err
	}
	var out []store.CaseVersion
	for _, c := range all {
		if f.match(c) {
			out = append(out, c)
		}
	}
	return out, nil
}

// apiCases lists cases: GET /api/cases?suite=&tag=&q=.
func (s *Server) apiCases(r *http.Request) (any, error) {
	cases, err := s.listCases(r, newCaseFilter(r.URL.Query()))
	if err != nil {
		return nil, err
	}
	out := CaseList{Cases: make([]CaseSummary, len(cases))}
	for i, c := range cases {
		out.Cases[i] = newCaseSummary(c)
	}
	return out, nil
}

// caseHistory reads every version of a case; a case the store does not
// know is a 404.
func (s *Server) caseHistory(r *http.Request) ([]store.CaseVersion, error) {
	suite, id := r.PathValue("suite"), r.PathValue("case")
	versions, err := s.store.CaseHistory(r.Context(), suite, id)
	if err == nil && len(versions) == 0 {
		err = store.ErrNotFound
	}
	if err != nil {
		return nil, notFound(err, "suite %s has no case %s", suite, id)
	}
	return versions, nil
}

// apiCase returns a case's versions: GET /api/cases/{suite}/{case}.
func (s *Server) apiCase(r *http.Request) (any, error) {
	versions, err := s.caseHistory(r)
	if err != nil {
		return nil, err
	}
	out := CaseHistory{Versions: make([]CaseVersion, len(versions))}
	for i, v := range versions {
		out.Versions[i] = CaseVersion{CaseSummary: newCaseSummary(v), Definition: string(v.Definition)}
	}
	return out, nil
}

// casesData is cases.tmpl's data.
type casesData struct {
	Suite, Tag, Text string
	Rows             []caseListRow
	// CanEdit shows the link to a new case.
	CanEdit bool
}

// caseListRow is a case in the list.
type caseListRow struct {
	Suite, ID, Href, Name, Tags, Source string
	Version                             int
	Created                             string
}

// casesPage lists the latest version of every case, filtered.
func (s *Server) casesPage(r *http.Request) (view, error) {
	f := newCaseFilter(r.URL.Query())
	cases, err := s.listCases(r, f)
	if err != nil {
		return view{}, err
	}
	d := casesData{Suite: oneLine(f.Suite), Tag: oneLine(f.Tag), Text: oneLine(f.Text), CanEdit: canEdit(r)}
	for _, c := range cases {
		d.Rows = append(d.Rows, caseListRow{
			Suite: oneLine(c.Suite), ID: oneLine(c.ID), Href: caseHref(c.Suite, c.ID), Name: oneLine(c.Name),
			Tags: oneLine(strings.Join(c.Tags, ", ")), Source: oneLine(c.Source), Version: c.Version, Created: stamp(c.Created),
		})
	}
	return view{template: "cases.tmpl", title: "Cases", nav: "cases", data: d}, nil
}

// caseHref is the URL of a case's page.
func caseHref(suite, id string) string {
	return "/cases/" + url.PathEscape(suite) + "/" + url.PathEscape(id)
}

// caseData is case.tmpl's data: a case's versions, newest first.
type caseData struct {
	Suite, ID, Name, JSONHref string
	// EditHref is the form's URL, when the case may be edited there and
	// the visitor may edit; ReadOnly says why the case cannot be.
	EditHref, ReadOnly string
	Versions           []caseVersionView
}

// caseVersionView is one version of a case.
type caseVersionView struct {
	Version             int
	Name, Tags, Source  string
	Created, Definition string
	Latest              bool
	// Previous is the version before, 0 for the first; Changes its
	// definition's lines against that one's, the changed ones marked,
	// and Removed and Added how many lines were.
	Previous       int
	Changes        []diffLine
	Removed, Added int
}

// A diffLine is a line of the difference between two versions of a
// case: Op is report.Keep, Delete or Insert, as a string ("=", "-",
// "+"); a run of unchanged lines far from any change is one line, Skip,
// that says how many it stands for.
type diffLine struct {
	Op, Text string
	Skip     int
}

// diffContext is how many unchanged lines a version's difference shows
// around each change.
const diffContext = 3

// versionDiff returns the lines of cur against prev, the changed ones
// marked (report.DiffLines), and how many lines were removed and added.
func versionDiff(prev, cur string) (lines []diffLine, removed, added int) {
	split := func(s string) []string {
		if s = strings.TrimSuffix(s, "\n"); s == "" {
			return nil
		}
		return strings.Split(s, "\n")
	}
	edits := report.DiffLines(split(prev), split(cur))
	near := make([]bool, len(edits)) // within diffContext lines of a change
	for i, e := range edits {
		if e.Op == report.Keep {
			continue
		}
		for j := max(0, i-diffContext); j <= min(len(edits)-1, i+diffContext); j++ {
			near[j] = true
		}
	}
	for i := 0; i < len(edits); i++ {
		e := edits[i]
		switch {
		case e.Op == report.Delete:
			removed++
		case e.Op == report.Insert:
			added++
		case !near[i]:
			n := 0
			for i+n < len(edits) && !near[i+n] {
				n++
			}
			lines = append(lines, diffLine{Op: string(report.Keep), Skip: n})
			i += n - 1
			continue
		}
		lines = append(lines, diffLine{Op: string(e.Op), Text: e.Text})
	}
	return lines, removed, added
}

// casePage shows a case's versions with their definitions, newest first.
// A case from a suite file names its file: that is where it is edited.
func (s *Server) casePage(r *http.Request) (view, error) {
	versions, err := s.caseHistory(r)
	if err != nil {
		return view{}, err
	}
	latest := versions[len(versions)-1]
	d := caseData{Suite: oneLine(latest.Suite), ID: oneLine(latest.ID), Name: oneLine(latest.Name),
		JSONHref: "/api" + caseHref(latest.Suite, latest.ID), ReadOnly: clean(readOnly(latest))}
	if d.ReadOnly == "" && canEdit(r) {
		d.EditHref = caseHref(latest.Suite, latest.ID) + "/edit"
	}
	for i := len(versions) - 1; i >= 0; i-- {
		v := versions[i]
		vv := caseVersionView{
			Version: v.Version, Name: oneLine(v.Name), Tags: oneLine(strings.Join(v.Tags, ", ")), Source: oneLine(v.Source),
			Created: stamp(v.Created), Definition: clean(string(v.Definition)), Latest: i == len(versions)-1,
		}
		if i > 0 {
			vv.Previous = versions[i-1].Version
			vv.Changes, vv.Removed, vv.Added = versionDiff(clean(string(versions[i-1].Definition)), vv.Definition)
		}
		d.Versions = append(d.Versions, vv)
	}
	return view{template: "case.tmpl", title: d.ID + " of " + d.Suite, nav: "cases", data: d}, nil
}
