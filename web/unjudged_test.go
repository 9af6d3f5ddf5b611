package web

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/store"
)

// importUnjudged stores, after the fixture's runs, a run of support-desk
// imported without verdicts and with a threshold of its own (0.5), as
// gavel import stores one, and returns its id.
func (f *fixture) importUnjudged() string {
	f.t.Helper()
	c := testCase("case_001", "Where is order 12345?")
	tr := passing("case_001", 1, 5)
	tr.Verdict = judge.Judgment{Name: "not judged", Status: judge.StatusAbstain, Reasoning: "imported from chats.jsonl without a verdict"}
	tr.Usage = gavel.RoleUsage{Agent: judge.Usage{Unreported: true}} // the chat log recorded none
	started := base.Add(5 * time.Hour)
	run := &gavel.Run{Suite: &gavel.Suite{Name: "support-desk", Threshold: 0.5}, Started: started,
		Cases:   []gavel.CaseResult{{Case: c, Trials: []gavel.Trial{tr}, Outcome: gavel.Skipped, SkipReason: "not judged yet: imported without a verdict"}},
		Stopped: gavel.StopNotJudged, StopReason: "imported from chats.jsonl without verdicts: gavel rejudge judges it"}
	info := store.RunInfo{Suite: "support-desk", StartedBy: "ada", Threshold: 0.5, Started: started,
		Settings: map[string]string{store.SettingImported: "chats.jsonl (openai)"}}
	stored, err := f.store.ImportRun(context.Background(), info, store.RunEnd{Status: store.Incomplete, Ended: started, Run: run})
	if err != nil {
		f.t.Fatal(err)
	}
	return stored.ID
}

// A run in which nothing was judged shows no pass rate anywhere in the
// web app: not on its page, not in the list of runs, not in the API, and
// it is no 0% point of its suite's trend. Each point of a trend carries
// its own run's threshold, not the latest run's. What nobody reported
// spending is unreported, not 0 tokens and $0.0000.
func TestUnjudgedRunHasNoPassRate(t *testing.T) {
	f := newFixture(t, Config{})
	id := f.importUnjudged()

	t.Run("trend", func(t *testing.T) {
		var tr struct {
			Points []map[string]json.RawMessage `json:"points"`
		}
		_, body := f.get("/api/trends?suite=support-desk")
		if json.Unmarshal([]byte(body), &tr) != nil || len(tr.Points) != 4 {
			t.Fatalf("%d points, want 4:\n%s", len(tr.Points), body)
		}
		for i, want := range []struct{ rate, threshold string }{{"0.8", "0.8"}, {"0.8", "0.8"}, {"0.375", "0.8"}, {"null", "0.5"}} {
			p := tr.Points[i]
			if string(p["pass_rate"]) != want.rate || string(p["threshold"]) != want.threshold {
				t.Errorf("point %d: pass_rate %s, threshold %s; want %s, %s", i+1, p["pass_rate"], p["threshold"], want.rate, want.threshold)
			}
		}
		if string(tr.Points[3]["cost_unreported"]) != "true" {
			t.Errorf("the import's point: cost_unreported %s, want true", tr.Points[3]["cost_unreported"])
		}
		_, page := f.get("/trends?suite=support-desk")
		if !strings.Contains(page, `title="run `+id+`">`+id+` · by ada</a></td><td><time`) || strings.Contains(page, `<td class="num">0%</td>`) {
			t.Errorf("the trends page shows the import at 0%% or not at all:\n%s", page)
		}
	})

	t.Run("run page", func(t *testing.T) {
		_, page := f.get("/runs/" + id)
		if !strings.Contains(page, "Pass rate unknown</strong> (no trial was judged)") || strings.Contains(page, "Pass rate 0%") {
			t.Errorf("the run's page lacks an unknown pass rate:\n%s", page)
		}
		if !strings.Contains(page, `<td class="num">not judged</td>`) || strings.Contains(page, ">0/1<") {
			t.Errorf("the case's row says its trial passed or failed:\n%s", page)
		}
		if !strings.Contains(page, "· unreported tokens") || !strings.Contains(page, `<td class="num">unreported</td>`) ||
			strings.Contains(page, "$0.0000") || strings.Contains(page, " 0 tokens") {
			t.Errorf("the run's page shows what nobody reported as 0:\n%s", page)
		}
		_, page = f.get("/runs/" + id + "/cases/case_001")
		if !strings.Contains(page, "unreported") || strings.Contains(page, "$0.0000") {
			t.Errorf("the case's page shows what nobody reported as 0:\n%s", page)
		}
	})

	t.Run("runs", func(t *testing.T) {
		_, page := f.get("/runs")
		row := page[strings.Index(page, id):]
		row = row[:strings.Index(row, "</tr>")]
		if !strings.Contains(row, ">unknown</span> / 50%") || !strings.Contains(row, `<td class="num">unreported</td>`) {
			t.Errorf("the run's row lacks an unknown pass rate against its threshold:\n%s", row)
		}
		var list struct {
			Runs []map[string]json.RawMessage `json:"runs"`
		}
		if _, body := f.get("/api/runs?suite=support-desk"); json.Unmarshal([]byte(body), &list) != nil {
			t.Fatalf("GET /api/runs:\n%s", body)
		}
		for _, r := range list.Runs {
			if string(r["id"]) != `"`+id+`"` {
				continue
			}
			var stats map[string]json.RawMessage
			json.Unmarshal(r["stats"], &stats)
			if string(r["pass_rate"]) != "null" || string(stats["pass_rate"]) != "null" || string(r["cost_unreported"]) != "true" {
				t.Errorf("GET /api/runs: pass_rate %s, stats.pass_rate %s, cost_unreported %s; want null, null, true", r["pass_rate"], stats["pass_rate"], r["cost_unreported"])
			}
		}
	})
}

// rateOf is a pass rate to compare, NaN when there is none: unequal to
// every rate a test wants.
func rateOf(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}
