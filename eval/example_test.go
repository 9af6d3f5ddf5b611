package eval_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"

	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/store"
	"github.com/gavelhq/gavel/store/sqlite"
)

// Run a suite and keep it: the starter suite (offline, on scripted
// models), run and stored as gavel run stores it, then read back.
func Example() {
	dir, _ := os.MkdirTemp("", "gavel-example")
	defer os.RemoveAll(dir)
	if err := eval.Init(dir); err != nil {
		log.Fatal(err)
	}
	db := filepath.Join(dir, "gavel.db")
	s := &eval.Session{Options: eval.Options{DB: db, NoCache: true, Outs: []string{filepath.Join(dir, "report.json")}},
		Stdout: io.Discard, Stderr: io.Discard}
	code := s.Run(context.Background(), []string{dir})

	st, err := sqlite.Open(db)
	if err != nil {
		log.Fatal(err)
	}
	defer st.Close()
	runs, _ := st.Runs(context.Background(), store.RunFilter{})
	fmt.Println("exit code", code, "- run of", runs[0].Suite, runs[0].Status)
	// Output: exit code 0 - run of my-agent passed
}
