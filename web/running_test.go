package web

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/store"
	"github.com/gavelhq/gavel/store/sqlite"
)

// A run that has just started shows its progress, not a red "Pass rate
// 0%" that "does not pass": it has no verdict yet.
func TestRunJustStartedShowsProgress(t *testing.T) {
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "gavel.db"))
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, store: st}
	t.Cleanup(func() { st.Close() })
	suite := &gavel.Suite{Name: "support-desk", Threshold: 0.8}
	created, err := st.CreateRun(context.Background(), runInfo(suite, base))
	if err != nil {
		t.Fatal(err)
	}
	f.srv = New(st, Config{})
	check := func(wantTrials string) {
		t.Helper()
		_, body := f.get("/runs/" + created.ID)
		for _, bad := range []string{"does not pass", `class="unmet"`, "Pass rate 0%"} {
			if strings.Contains(body, bad) {
				t.Errorf("a running run's page says %q", bad)
			}
		}
		if !strings.Contains(body, "<strong>Running</strong> · "+wantTrials) {
			t.Errorf("no progress (%q) on the page", wantTrials)
		}
	}
	check("0 trials so far")
	if err := st.SaveTrial(context.Background(), created.ID, store.TrialRecord{Trial: failing("case_002", 1)}); err != nil {
		t.Fatal(err)
	}
	check("1 trial so far")
}
