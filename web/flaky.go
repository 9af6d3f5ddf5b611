package web

import (
	"net/http"
	"strconv"

	"github.com/gavelhq/gavel/store"
)

// flakyData is flaky.tmpl's data: the cases that flipped over their
// suites' recent runs, the most unstable first.
type flakyData struct {
	Runs  int
	Cases []flakyRow
}

// flakyRow is a case of the flaky page.
type flakyRow struct {
	Suite, SuiteHref, ID, Href string
	FlipRate                   string
	Outcomes                   []sideView // oldest first
	Quarantined                string
}

// flakyPage lists the cases that were unstable in their suite's last
// runs (store.Flaky): ?runs=N reads N (default store.DefaultFlakyRuns).
func (s *Server) flakyPage(r *http.Request) (view, error) {
	runs := store.DefaultFlakyRuns
	if v := r.URL.Query().Get("runs"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 2 || n > 100 {
			return view{}, errorf(http.StatusBadRequest, "runs %q: want a number of runs from 2 to 100", v)
		}
		runs = n
	}
	list, err := store.Flaky(r.Context(), s.store, "", runs)
	if err != nil {
		return view{}, err
	}
	d := flakyData{Runs: runs}
	for _, c := range list {
		d.Cases = append(d.Cases, newFlakyRow(c))
	}
	return view{template: "flaky.tmpl", title: "Flaky cases", nav: "flaky", data: d}, nil
}
