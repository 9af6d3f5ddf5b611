package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/llm/llmtest"
	"github.com/gavelhq/gavel/store"
)

// starterSuite writes the starter suite into a temporary directory, with
// its returns_policy case made to fail, and returns the directory and a
// database beside it.
func starterSuite(t *testing.T) (dir, db string) {
	t.Helper()
	dir = t.TempDir()
	if code, _, errs := gavelCmd(t, "init", dir); code != eval.ExitPassed {
		t.Fatalf("init: %s", errs)
	}
	suite := filepath.Join(dir, "gavel.yaml")
	data, _ := os.ReadFile(suite)
	os.WriteFile(suite, []byte(strings.Replace(string(data), "{contains: hello, ignore_case: true}", "{contains: goodbye}", 1)), 0o644)
	return dir, filepath.Join(dir, "results.db")
}

var runID = regexp.MustCompile(`run (\S+) saved`)

// savedRun runs gavel run and returns the id of the run it saved.
func savedRun(t *testing.T, wantCode int, args ...string) string {
	t.Helper()
	code, out, errs := gavelCmd(t, append([]string{"run", "--quiet", "--no-cache"}, args...)...)
	if code != wantCode {
		t.Fatalf("gavel run %v: exit %d, want %d\n%s%s", args, code, wantCode, out, errs)
	}
	m := runID.FindStringSubmatch(errs)
	if m == nil {
		t.Fatalf("gavel run %v saved no run:\n%s", args, errs)
	}
	return m[1]
}

func TestStoredRuns(t *testing.T) {
	dir, db := starterSuite(t)
	// greeting fails; with --fail-fast, one at a time, returns_policy never runs.
	first := savedRun(t, eval.ExitFailed, "--db", db, "--fail-fast", "--concurrency", "1", dir)
	code, out, _ := gavelCmd(t, "runs", "--db", db)
	if code != eval.ExitPassed || !strings.Contains(out, first) || !strings.Contains(out, "incomplete") {
		t.Errorf("runs: exit %d\n%s", code, out)
	}

	// Resuming is a new run that keeps greeting's trial and runs the
	// skipped case; the first run is left as it was.
	code, _, errs := gavelCmd(t, "run", "--quiet", "--no-cache", "--db", db, "--resume", first, dir)
	if code != eval.ExitFailed || !strings.Contains(errs, "keeping 1 of its trials") {
		t.Errorf("resume: exit %d\n%s", code, errs)
	}
	m := runID.FindStringSubmatch(errs)
	if m == nil || m[1] == first {
		t.Fatalf("resume saved no new run:\n%s", errs)
	}
	resumed := m[1]
	code, out, _ = gavelCmd(t, "show", "--db", db, resumed)
	if code != eval.ExitPassed || !strings.Contains(out, "returns_policy | -     | PASS") || !strings.Contains(out, "greeting       | -     | FAIL") ||
		!strings.Contains(out, "Carries on run "+first+" (--resume)") {
		t.Errorf("show of the resumed run: exit %d\n%s", code, out)
	}
	code, out, _ = gavelCmd(t, "show", "--db", db, first)
	if code != eval.ExitPassed || !strings.Contains(out, "returns_policy | -     | -        | SKIPPED") || !strings.Contains(out, "("+string(store.Incomplete)+")") {
		t.Errorf("show of the first run after it was resumed: exit %d, want it as it was\n%s", code, out)
	}
	code, out, _ = gavelCmd(t, "runs", "--db", db)
	if code != eval.ExitPassed || !regexp.MustCompile(resumed+`.* `+first+`\n`).MatchString(out) {
		t.Errorf("runs: want %s listed as carrying on %s:\n%s", resumed, first, out)
	}
	first = resumed
	code, out, _ = gavelCmd(t, "show", "--db", db, first, "greeting")
	if code != eval.ExitPassed || !strings.Contains(out, `contains "goodbye"`) || !strings.Contains(out, "Hello! How can I help you today?") {
		t.Errorf("show of a case: exit %d\n%s", code, out)
	}
	code, out, _ = gavelCmd(t, "report", "--db", db, "--format", "junit", first)
	if code != eval.ExitPassed || !strings.Contains(out, "<testsuites") {
		t.Errorf("report --format junit: exit %d\n%.300s", code, out)
	}

	// Fixing greeting's rule changes its definition: the runs before and
	// after are not comparable on it, either way
	// (TestCompareIsStatisticallyHonest compares runs of one definition).
	suite := filepath.Join(dir, "gavel.yaml")
	data, _ := os.ReadFile(suite)
	os.WriteFile(suite, []byte(strings.Replace(string(data), "{contains: goodbye}", "{contains: hello, ignore_case: true}", 1)), 0o644)
	fixed := savedRun(t, eval.ExitPassed, "--db", db, dir)
	for _, runs := range [][2]string{{first, fixed}, {fixed, first}} {
		code, out, _ := gavelCmd(t, "compare", "--db", db, runs[0], runs[1])
		if code != eval.ExitPassed || !strings.Contains(out, "Redefined: defined differently in") || !strings.Contains(out, "greeting") {
			t.Errorf("compare %s %s: exit %d, want 0 with greeting redefined\n%s", runs[0], runs[1], code, out)
		}
	}

	if code, _, errs := gavelCmd(t, "show", "--db", db, "no-such-run"); code != eval.ExitUsage || !strings.Contains(errs, "no run") {
		t.Errorf("show of a missing run: exit %d, %q", code, errs)
	}
}

// Cases move from the database to a file and back; an edited case is a
// new version.
func TestCasesExportImport(t *testing.T) {
	dir, db := starterSuite(t)
	savedRun(t, eval.ExitFailed, "--db", db, dir) // saves the suite's cases
	file := filepath.Join(t.TempDir(), "cases.yaml")
	if code, out, errs := gavelCmd(t, "cases", "export", "--db", db, "--suite", "my-agent", "--out", file); code != eval.ExitPassed {
		t.Fatalf("export: exit %d\n%s%s", code, out, errs)
	}
	data, _ := os.ReadFile(file)
	if !strings.Contains(string(data), "- id: greeting") || !strings.Contains(string(data), "- id: returns_policy") {
		t.Fatalf("the exported file:\n%s", data)
	}
	os.WriteFile(file, []byte(strings.Replace(string(data), "Greets the user back", "Greets the user back, warmly", 1)), 0o644)
	code, out, errs := gavelCmd(t, "cases", "import", "--db", db, "--suite", "my-agent", file)
	if code != eval.ExitPassed || !strings.Contains(out, "Imported 2 cases into suite my-agent: 1 new or changed") {
		t.Errorf("import: exit %d\n%s%s", code, out, errs)
	}
}

func TestUnreachableDatabase(t *testing.T) {
	dir, _ := starterSuite(t)
	code, _, errs := gavelCmd(t, "run", "--db", "postgres://gavel:secret@127.0.0.1:1/gavel?connect_timeout=2", dir)
	if code != eval.ExitInfra || !strings.Contains(errs, "127.0.0.1:1") || strings.Contains(errs, "secret") {
		t.Errorf("exit %d, %q; want 3 naming the host, not the password", code, errs)
	}
}

// --retry-errors runs the ERRORs again in a new run that says which run it
// carries on, and leaves the earlier run, with its ERRORs, as it was.
func TestRetryErrorsKeepsTheEarlierAttempt(t *testing.T) {
	dir, db := starterSuite(t)
	srv := llmtest.NewOpenAIServer(&llmtest.Scripted{})
	t.Cleanup(srv.Close)
	for range 20 {
		srv.FailNext(400, 0)
	}
	t.Setenv("GAVEL_AGENT_MODEL", "openai:agent")
	t.Setenv("OPENAI_BASE_URL", srv.URL)
	t.Setenv("OPENAI_API_KEY", "sk-test")
	first := savedRun(t, eval.ExitFailed, "--db", db, dir)
	_, before, _ := gavelCmd(t, "report", "--verbose", "--db", db, first)
	if strings.Count(before, "| ERROR") != 2 {
		t.Fatalf("the first run: want both cases ERROR:\n%s", before)
	}

	t.Setenv("GAVEL_AGENT_MODEL", "") // the suite's scripted agent
	retried := savedRun(t, eval.ExitFailed, "--db", db, "--retry-errors", first, dir)
	if retried == first {
		t.Fatalf("--retry-errors wrote into run %s", first)
	}
	code, out, _ := gavelCmd(t, "show", "--db", db, retried)
	if code != eval.ExitPassed || !strings.Contains(out, "Carries on run "+first+" (--retry-errors)") || !strings.Contains(out, "returns_policy | -     | PASS") {
		t.Errorf("show of the retried run: exit %d\n%s", code, out)
	}
	if _, after, _ := gavelCmd(t, "report", "--verbose", "--db", db, first); after != before {
		t.Errorf("the first run changed when its ERRORs were retried:\n%s", after)
	}
}
