package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"time"

	"github.com/gavelhq/gavel/store"
	"github.com/gavelhq/gavel/store/sqlstore"
	"github.com/gavelhq/gavel/web"
)

// The web app's pages over the seeded store (issue 7): the app of gavel
// serve, web.New(store, web.Config{}), served in this process, each page
// timed from the start of ServeHTTP to its end (server time: no network,
// no browser), on an httptest.ResponseRecorder.

// pageTarget is issue 7's target for the runs list, a run's page and the
// trends page.
const pageTarget = 200 * time.Millisecond

// minPage is the least a page's body may weigh to count as rendered: the
// layout alone is more.
const minPage = 1000

// A pageOp is a request to the app, timed. Path returns the path to get
// and a text the body must hold.
type pageOp struct {
	Name string
	// Target is true for the pages issue 7 sets pageTarget for; the others
	// are for reference.
	Target bool
	Path   func(rng *rand.Rand) (path, want string)
}

// pageOps returns the pages to time on a store holding the history h
// (newest last).
func pageOps(h []seededRun) []pageOp {
	// Runs that finished and judged their trials: a run page shows them
	// whole (errored runs have no verdicts, interrupted ones may lack
	// trials).
	var judged []seededRun
	for _, r := range h {
		if r.Status == store.Passed || r.Status == store.Failed {
			judged = append(judged, r)
		}
	}
	if len(judged) == 0 {
		judged = h
	}
	random := func(rng *rand.Rand) seededRun { return judged[rng.IntN(len(judged))] }
	fixed := func(path, want string) func(*rand.Rand) (string, string) {
		return func(*rand.Rand) (string, string) { return path, want }
	}
	big, small := benchSuites[0].Name, benchSuites[len(benchSuites)-1].Name
	newest := h[len(h)-1]
	return []pageOp{
		{Name: "/runs", Target: true, Path: fixed("/runs", newest.ID)},
		{Name: "/runs?suite=" + big, Target: true, Path: fixed("/runs?suite="+big, big)},
		{Name: "/runs?suite=" + small + "&status=failed", Target: true, Path: fixed("/runs?suite="+small+"&status=failed", small)},
		{Name: "/runs/{id}", Target: true, Path: func(rng *rand.Rand) (string, string) {
			r := random(rng)
			return "/runs/" + url.PathEscape(r.ID), r.ID
		}},
		{Name: "/runs/{id}/cases/{case}", Target: true, Path: func(rng *rand.Rand) (string, string) {
			r := random(rng)
			c := benchCase(r.Suite, 0)
			return "/runs/" + url.PathEscape(r.ID) + "/cases/" + url.PathEscape(c.ID), c.Name
		}},
		{Name: "/trends?suite=" + big, Target: true, Path: fixed("/trends?suite="+big, big)},
		{Name: "/trends?suite=" + small, Target: true, Path: fixed("/trends?suite="+small, small)},
		{Name: "/api/runs", Target: true, Path: fixed("/api/runs", newest.ID)},
		{Name: "/api/runs/{id} (JSON report)", Path: func(rng *rand.Rand) (string, string) {
			r := random(rng)
			return "/api/runs/" + url.PathEscape(r.ID), "case_001"
		}},
		{Name: "/api/trends?suite=" + big, Path: fixed("/api/trends?suite="+big, big)},
	}
}

// A pageResult is a page's timings.
type pageResult struct {
	Op    pageOp
	Bytes int // of the last answer
	// Cold are first requests to an app over a store just opened; Warm
	// the requests after them to the same app. Both sorted.
	Cold, Warm []time.Duration
}

// slowest returns the longest of the page's requests, cold or warm.
func (r pageResult) slowest() time.Duration { return max(last(r.Cold), last(r.Warm)) }

// timePages times each page: cold times, each the first request to an app
// over a store just opened, then warm more requests to the last one. Every
// answer must be a 200 with a body of some size that holds what the page
// should show.
func timePages(ctx context.Context, db *benchDB, ops []pageOp, cold, warm int) ([]pageResult, error) {
	rng := rand.New(rand.NewPCG(3, 4))
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	var out []pageResult
	for _, op := range ops {
		r := pageResult{Op: op}
		var err error
		r.Cold, r.Warm, err = timeColdWarm(ctx, db, cold, warm, func(s *sqlstore.DB) (time.Duration, error) {
			app := web.New(s, web.Config{Logger: quiet})
			path, want := op.Path(rng)
			req := httptest.NewRequestWithContext(ctx, http.MethodGet, path, nil)
			rec := httptest.NewRecorder()
			t0 := time.Now()
			app.ServeHTTP(rec, req)
			d := time.Since(t0)
			body := rec.Body.String()
			if rec.Code != http.StatusOK || len(body) < minPage || !strings.Contains(body, want) {
				return 0, fmt.Errorf("GET %s: %d, %d bytes, holding %q: %t; want 200, at least %d bytes, holding it:\n%.500s",
					path, rec.Code, len(body), want, strings.Contains(body, want), minPage, body)
			}
			r.Bytes = len(body)
			return d, nil
		})
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// printPages writes the table of the pages.
func (r *storeReport) printPages(w io.Writer) error {
	fmt.Fprintln(w)
	tw := newTable(w)
	fmt.Fprintf(tw, "  %s page (web.New, ServeHTTP)\tbytes\tcold median\tcold max\twarm median\twarm max\ttarget\t\n", r.Kind)
	for _, p := range r.Pages {
		target := "(reference)"
		if p.Op.Target {
			target = verdictText(p.slowest() < pageTarget, "≥ "+ms(pageTarget))
		}
		fmt.Fprintf(tw, "  GET %s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", p.Op.Name, kb(p.Bytes),
			ms(median(p.Cold)), ms(last(p.Cold)), ms(median(p.Warm)), ms(last(p.Warm)), target)
	}
	return tw.Flush()
}

// kb formats a size in bytes as kilobytes.
func kb(n int) string {
	if n < 10<<10 {
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%.0f KB", float64(n)/(1<<10))
}
