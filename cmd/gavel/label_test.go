package main

import (
	"context"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/store/sqlite"
)

// A run started with --label keeps it: gavel show and gavel runs say it,
// and the store has it, for the web app to name the run by; in GitHub
// Actions, who made the job run started it.
func TestRunLabel(t *testing.T) {
	dir, db := starterSuite(t)
	t.Setenv("GAVEL_USER", "")
	t.Setenv("GITHUB_ACTIONS", "true")
	t.Setenv("GITHUB_ACTOR", "octocat")
	id := savedRun(t, eval.ExitFailed, "--db", db, "--label", "shorter\tsystem prompt", dir)

	code, out, errs := gavelCmd(t, "show", "--db", db, id)
	if code != eval.ExitPassed || !strings.Contains(out, `Run `+id+`, "shorter\tsystem prompt" (failed)`) || !strings.Contains(out, "by octocat") {
		t.Errorf("gavel show: exit %d, want the run's label and octocat in its header:\n%.600s%s", code, out, errs)
	}
	code, out, errs = gavelCmd(t, "runs", "--db", db)
	if code != eval.ExitPassed || !strings.Contains(out, "shorter system prompt") {
		t.Errorf("gavel runs: exit %d, want the label on one line:\n%s%s", code, out, errs)
	}
	st, err := sqlite.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	info, err := st.RunInfo(context.Background(), id)
	if err != nil || info.Label != "shorter\tsystem prompt" || info.StartedBy != "octocat" {
		t.Errorf("the stored run: label %q, started by %q (%v); want the label and octocat", info.Label, info.StartedBy, err)
	}
}
