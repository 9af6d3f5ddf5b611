package sqlstore

import (
	"context"
	"testing"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/store"
)

// TestLabelsOffTheScaleRecordedEarlier: a label a Gavel recorded before
// labels off their judgment's scale were refused (maybe on a pass/fail
// verdict) is read back, and counts nowhere: not in the agreement, not
// in the kappa, not between people.
func TestLabelsOffTheScaleRecordedEarlier(t *testing.T) {
	for _, d := range []Dialect{SQLite, Postgres} {
		t.Run(d.String(), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
			defer cancel()
			s, err := New(freshDB(t, d), d)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if err := s.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
			info, err := s.CreateRun(ctx, store.RunInfo{Suite: "desk", Started: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)})
			if err != nil {
				t.Fatal(err)
			}
			verdict := judge.Verdict(true, "fine")
			verdict.Usage = judge.Usage{InputTokens: 100, OutputTokens: 10, Calls: 1}
			if err := s.SaveTrial(ctx, info.ID, store.TrialRecord{Trial: gavel.Trial{CaseID: "c", N: 1, Verdict: verdict,
				Transcript: &judge.Transcript{CaseID: "c", Trial: 1}}}); err != nil {
				t.Fatal(err)
			}
			for _, l := range []struct{ author, category string }{{"ada", "pass"}, {"grace", "maybe"}, {"bob", "7"}} {
				if _, err := s.sql.ExecContext(ctx, s.q(`INSERT INTO labels (run_id, case_id, trial, judgment, category, verdict, comment, author, created_us)
					VALUES (?, 'c', 1, '', ?, '', '', ?, 100)`), info.ID, l.category, l.author); err != nil {
					t.Fatal(err)
				}
			}
			checks, err := s.LabelChecks(ctx, store.LabelFilter{})
			if err != nil {
				t.Fatal(err)
			}
			var off []string
			for _, c := range checks {
				if c.OffScale {
					off = append(off, c.HumanCategory)
				}
			}
			if len(checks) != 3 || len(off) != 2 {
				t.Errorf("label checks: %d, off the scale %v; want 3, [maybe 7]", len(checks), off)
			}
			if c := gavel.Calibrate(checks); c.Labels != 3 || c.Counted != 1 || len(c.Table.Categories) != 1 || len(c.Raters) != 0 {
				t.Errorf("Calibrate: %d labels, %d counted, categories %v, %d pairs of people; want 3, 1, [pass], 0", c.Labels, c.Counted, c.Table.Categories, len(c.Raters))
			}
		})
	}
}
