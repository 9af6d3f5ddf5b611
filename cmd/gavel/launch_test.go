package main

import (
	"context"
	"io"
	"testing"

	"github.com/gavelhq/gavel/store"
	"github.com/gavelhq/gavel/store/sqlite"
	"github.com/gavelhq/gavel/web"
)

// A run started from the web app runs the suite file's cases and the
// ones written in the app, and is stored like any other.
func TestLaunchWithWrittenCases(t *testing.T) {
	dir, db := starterSuite(t)
	st, err := sqlite.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	def := "id: written\nname: Written in the app\ninput: hello there\nexpected_tools: []\njudge_prompt: The agent greets the user.\n"
	if _, err := st.SaveCase(ctx, store.CaseDef{Suite: "my-agent", ID: "written", Name: "Written in the app", Definition: []byte(def)}); err != nil {
		t.Fatal(err)
	}
	m, _ := newModels(t.TempDir(), true, false)
	l, err := newLauncher([]string{dir}, st, m, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if got := l.Suites(); len(got) != 1 || got[0] != "my-agent" {
		t.Fatalf("suites %v", got)
	}
	id, err := l.Launch(ctx, web.LaunchRequest{Suite: "my-agent", Trials: 1, By: "edna"})
	if err != nil {
		t.Fatal(err)
	}
	l.Close() // waits for the run
	run, err := st.Run(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, cr := range run.Run.Cases {
		ids = append(ids, cr.ID())
	}
	if len(ids) != 3 || ids[2] != "written" || run.Info.StartedBy != "edna" || run.Info.Status == store.Running {
		t.Errorf("run %s: cases %v, started by %q, status %s", id, ids, run.Info.StartedBy, run.Info.Status)
	}
	// The written case stays the app's: a second run runs it again.
	written, err := st.CaseHistory(ctx, "my-agent", "written")
	if err != nil || len(written) != 1 || written[0].Source != "" {
		t.Fatalf("after a run, the written case's versions: %+v (%v), want one with no source", written, err)
	}
	if _, err := l.Launch(ctx, web.LaunchRequest{Suite: "my-agent", IDs: []string{"written"}, Trials: 1}); err != nil {
		t.Errorf("a second run of the written case: %v", err)
	}
	l.Close()
	if _, err := l.Launch(ctx, web.LaunchRequest{Suite: "elsewhere", Trials: 1}); err == nil {
		t.Error("an unknown suite launched")
	}
}
