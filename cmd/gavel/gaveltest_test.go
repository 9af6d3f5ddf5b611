package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/gaveltest"
	"github.com/gavelhq/gavel/store"
	"github.com/gavelhq/gavel/store/sqlite"
)

// A run of gaveltest kept in a store (gaveltest.Config.Store) is a run
// like gavel run's: gavel runs lists it and gavel show reads it.
func TestGaveltestRunShown(t *testing.T) {
	dir := t.TempDir()
	if code, _, errs := gavelCmd(t, "init", dir); code != eval.ExitPassed {
		t.Fatal(errs)
	}
	db := filepath.Join(t.TempDir(), "results.db")
	st, err := sqlite.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("suite", func(t *testing.T) { gaveltest.Run(t, dir, gaveltest.Config{Store: st}) })
	runs, err := st.Runs(t.Context(), store.RunFilter{})
	st.Close()
	if err != nil || len(runs) != 1 {
		t.Fatalf("runs stored: %v, %v; want one", runs, err)
	}
	code, out, errs := gavelCmd(t, "show", "--db", db, runs[0].ID)
	if code != eval.ExitPassed || !strings.Contains(out, "Suite my-agent: 2 cases") || !strings.Contains(out, "overall PASS") {
		t.Errorf("gavel show %s: exit %d\n%s%s", runs[0].ID, code, out, errs)
	}
}
