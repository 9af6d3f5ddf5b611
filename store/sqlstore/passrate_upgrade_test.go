package sqlstore

import (
	"context"
	"testing"
	"time"

	"github.com/gavelhq/gavel/judge"
)

// TestMigrateUnknownPassRates: a run finished before schema 11 in which
// every case was skipped (imported without verdicts, say) stored a pass
// rate of 0; after the upgrade it has none, in its info and in its
// suite's trend, while a run that judged cases keeps its rate.
func TestMigrateUnknownPassRates(t *testing.T) {
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
			s.migrations = all[:10] // a Gavel that knows schema 10
			if err := s.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
			for i, r := range []struct {
				id, stats       string
				rate            float64
				passed, skipped int
			}{
				{"unjudged", `{"cases":{"SKIPPED":2},"trials":2,"pass_rate":0,"usage":{}}`, 0, 0, 2},
				{"judged", `{"cases":{"PASS":1,"SKIPPED":1},"trials":1,"pass_rate":1,"pass_at_k":[1],"pass_hat_k":[1],"usage":{}}`, 1, 1, 1},
			} {
				started := time.Date(2026, 3, 9, 10, i, 0, 0, time.UTC).UnixMicro()
				if _, err := s.sql.ExecContext(ctx, s.q(`INSERT INTO runs (id, suite, suite_file, started_by, host, git_commit, git_branch,
					filters, models, settings, threshold, status, started_us, ended_us, heartbeat_us, pass_rate, cases_pass, cases_skipped, stats)
					VALUES (?, 'support-desk', 'gavel.yaml', 'ada', 'ci-7', '', '', '[]', '{}', '{}', 0.8, 'incomplete', ?, ?, ?, ?, ?, ?, ?)`),
					r.id, started, started, started, r.rate, r.passed, r.skipped, r.stats); err != nil {
					t.Fatal(err)
				}
			}
			s.migrations = all
			if err := s.Migrate(ctx); err != nil {
				t.Fatalf("Migrate to the latest schema: %v", err)
			}
			info, err := s.RunInfo(ctx, "unjudged")
			if err != nil {
				t.Fatal(err)
			}
			if info.Stats.PassRate != nil {
				t.Errorf("the run that judged nothing has a pass rate of %v, want none", *info.Stats.PassRate)
			}
			if info, err := s.RunInfo(ctx, "judged"); err != nil || info.Stats.PassRate == nil || *info.Stats.PassRate != 1 {
				t.Errorf("the judged run's pass rate: %v, %v; want 1", info.Stats.PassRate, err)
			}
			points, err := s.Trend(ctx, "support-desk", 10)
			if err != nil {
				t.Fatal(err)
			}
			if len(points) != 2 || points[0].PassRate != nil || points[1].PassRate == nil || *points[1].PassRate != 1 {
				t.Errorf("trend: %+v; want the unjudged run without a pass rate, then the judged one's", points)
			}
		})
	}
}

// TestMigrateUnreportedUsage: a conversation imported before schema 12
// without usage stored 0 tokens and $0 for its agent; after the upgrade
// that usage is unreported, in the trial and in the run's trend, while a
// run Gavel ran keeps its zeros (an agent that reported 0).
func TestMigrateUnreportedUsage(t *testing.T) {
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
			s.migrations = all[:11] // a Gavel that knows schema 11
			if err := s.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
			verdict, err := compress(judge.Verdict(true, "fine"))
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range []struct{ id, settings string }{
				{"imported", `{"imported":"chats.jsonl (openai)"}`},
				{"ran", `{"trials":"1"}`},
			} {
				started := time.Date(2026, 3, 9, 10, i, 0, 0, time.UTC).UnixMicro()
				if _, err := s.sql.ExecContext(ctx, s.q(`INSERT INTO runs (id, suite, suite_file, started_by, host, git_commit, git_branch,
					filters, models, settings, threshold, status, started_us, ended_us, heartbeat_us, pass_rate, cases_pass, stats)
					VALUES (?, 'support-desk', 'gavel.yaml', 'ada', 'ci-7', '', '', '[]', '{}', ?, 0.8, 'passed', ?, ?, ?, 1, 1, '{"cases":{"PASS":1},"trials":1,"pass_rate":1,"usage":{}}')`),
					r.id, r.settings, started, started, started); err != nil {
					t.Fatal(err)
				}
				if _, err := s.sql.ExecContext(ctx, s.q("INSERT INTO run_cases (run_id, case_id, position, outcome) VALUES (?, 'case_001', 1, 'PASS')"), r.id); err != nil {
					t.Fatal(err)
				}
				if _, err := s.sql.ExecContext(ctx, s.q(`INSERT INTO trials (run_id, case_id, n, status, exec_status, duration_ns,
					agent_input_tokens, agent_output_tokens, agent_cached_tokens, agent_cost_usd,
					judge_input_tokens, judge_output_tokens, judge_cached_tokens, judge_cost_usd,
					user_input_tokens, user_output_tokens, user_cached_tokens, user_cost_usd, verdict, saved_us)
					VALUES (?, 'case_001', 1, 'PASS', 'SUCCESS', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, ?, ?)`),
					r.id, verdict, started); err != nil {
					t.Fatal(err)
				}
			}
			s.migrations = all
			if err := s.Migrate(ctx); err != nil {
				t.Fatalf("Migrate to the latest schema: %v", err)
			}
			for id, want := range map[string]bool{"imported": true, "ran": false} {
				sr, err := s.RunVerdicts(ctx, id)
				if err != nil {
					t.Fatal(err)
				}
				if got := sr.Run.Cases[0].Trials[0].Usage.Agent.Unreported; got != want {
					t.Errorf("run %s: the agent's usage unreported %v, want %v", id, got, want)
				}
			}
			points, err := s.Trend(ctx, "support-desk", 10)
			if err != nil {
				t.Fatal(err)
			}
			if len(points) != 2 || !points[0].CostUnreported || points[1].CostUnreported {
				t.Errorf("trend: %+v; want the imported run's cost unreported, the other's not", points)
			}
		})
	}
}
