package sqlstore

import (
	"context"
	"testing"
	"time"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/store"
)

// TestMigrateLabelVersions: labels given several times by one person on
// one judgment before schema 7 keep their newest current, the others in
// the history, replaced when the next was given.
func TestMigrateLabelVersions(t *testing.T) {
	for _, d := range []Dialect{SQLite, Postgres} {
		t.Run(d.String(), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
			defer cancel()
			s, err := New(freshDB(t, d), d)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			all := s.migrations
			s.migrations = all[:6] // a Gavel that knows schema 6
			if err := s.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
			// The run's row as schema 6 has it (CreateRun writes today's).
			info := store.RunInfo{ID: "old-run"}
			if _, err := s.sql.ExecContext(ctx, s.q(`INSERT INTO runs (id, suite, suite_file, started_by, host, git_commit, git_branch,
				filters, models, settings, threshold, status, started_us, heartbeat_us)
				VALUES ('old-run', 'support-desk', 'gavel.yaml', 'ada', 'ci-7', '', '', '[]', '{}', '{}', 0.8, 'running', ?, ?)`),
				time.Now().UnixMicro(), time.Now().UnixMicro()); err != nil {
				t.Fatal(err)
			}
			// And the trial's (SaveTrial writes today's columns).
			verdict, err := compress(judge.Verdict(true, "fine"))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.sql.ExecContext(ctx, s.q("INSERT INTO run_cases (run_id, case_id) VALUES ('old-run', 'case_001')")); err != nil {
				t.Fatal(err)
			}
			if _, err := s.sql.ExecContext(ctx, s.q(`INSERT INTO trials (run_id, case_id, n, status, exec_status, duration_ns,
				agent_input_tokens, agent_output_tokens, agent_cached_tokens, agent_cost_usd,
				judge_input_tokens, judge_output_tokens, judge_cached_tokens, judge_cost_usd,
				user_input_tokens, user_output_tokens, user_cached_tokens, user_cost_usd, verdict, saved_us)
				VALUES ('old-run', 'case_001', 1, 'PASS', 'SUCCESS', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, ?, ?)`),
				verdict, time.Now().UnixMicro()); err != nil {
				t.Fatal(err)
			}
			for _, l := range []struct {
				author  string
				at      int64
				verdict string
			}{{"ada", 100, "wrong"}, {"ada", 300, "correct"}, {"grace", 200, "wrong"}, {"ada", 200, "wrong"}} {
				if _, err := s.sql.ExecContext(ctx, s.q(`INSERT INTO labels (run_id, case_id, trial, judgment, verdict, comment, author, created_us)
					VALUES (?, 'case_001', 1, '', ?, '', ?, ?)`), info.ID, l.verdict, l.author, l.at); err != nil {
					t.Fatal(err)
				}
			}
			s.migrations = all
			if err := s.Migrate(ctx); err != nil {
				t.Fatalf("Migrate to schema 7: %v", err)
			}
			current, err := s.Labels(ctx, info.ID)
			if err != nil {
				t.Fatal(err)
			}
			if len(current) != 2 || current[0].Author != "grace" || current[1].Author != "ada" || current[1].Verdict != "correct" {
				t.Errorf("current labels after the upgrade: %+v; want grace's, and ada's newest", current)
			}
			history, err := s.LabelHistory(ctx, info.ID)
			if err != nil {
				t.Fatal(err)
			}
			replaced := map[int64]int64{} // created → replaced, ada's
			for _, l := range history {
				if l.Author == "ada" {
					replaced[l.Created.UnixMicro()] = 0
					if !l.Replaced.IsZero() {
						replaced[l.Created.UnixMicro()] = l.Replaced.UnixMicro()
					}
				}
			}
			if replaced[100] != 200 || replaced[200] != 300 || replaced[300] != 0 || len(history) != 4 {
				t.Errorf("ada's labels, created → replaced: %v (of %d); want 100 → 200, 200 → 300, 300 current", replaced, len(history))
			}
		})
	}
}
