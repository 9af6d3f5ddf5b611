package main

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/internal/pgtest"
	"github.com/gavelhq/gavel/report"
)

// shardSuite writes a suite of len(pass) cases, c1, c2, ..., each run
// trials times by a scripted agent that says what it is asked to: case i
// passes when pass[i]. It returns the suite's directory.
func shardSuite(t *testing.T, name string, pass []bool, trials int, threshold float64) string {
	t.Helper()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "models"), 0o755)
	os.WriteFile(filepath.Join(dir, "models", "agent.yaml"), []byte("name: parrot\nrules:\n  - when: {user: 'say (?P<w>\\w+)'}\n    text: '${w}'\n"), 0o644)
	var b strings.Builder
	fmt.Fprintf(&b, "name: %s\nthreshold: %v\ntrials: %d\nagent:\n  builtin:\n    model: script:models/agent.yaml\n    system_prompt: Say what you are asked to.\ncases:\n", name, threshold, trials)
	for i, p := range pass {
		word := "nope"
		if p {
			word = "hello"
		}
		fmt.Fprintf(&b, "  - {id: c%d, input: say %s, rules: [{contains: hello}]}\n", i+1, word)
	}
	if err := os.WriteFile(filepath.Join(dir, "gavel.yaml"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// gavelExec runs the built gavel in dir and returns its exit code and
// its standard output and error.
func gavelExec(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(gavelBinary(t), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GITHUB_ACTIONS=", "GAVEL_DB=")
	var out, errs strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errs
	err := cmd.Run()
	code := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("gavel %v: %v", args, err)
		}
		code = ee.ExitCode()
	}
	return code, out.String(), errs.String()
}

// trialVerdicts are a report's verdicts by trial: "c1#2" → "FAIL".
func trialVerdicts(r report.JSONReport) map[string]string {
	out := map[string]string{}
	for _, c := range r.Cases {
		for _, tr := range c.Trials {
			out[fmt.Sprintf("%s#%d", c.ID, tr.N)] = string(tr.Verdict.Status)
		}
	}
	return out
}

// oneProcess runs the suite whole and returns its exit code and report.
func oneProcess(t *testing.T, suite string) (int, report.JSONReport) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "one.json")
	code, _, errs := gavelExec(t, suite, "run", "--quiet", "--no-cache", "--db", filepath.Join(t.TempDir(), "one.db"), "--out", out, ".")
	if code != eval.ExitPassed && code != eval.ExitFailed {
		t.Fatalf("one process: exit %d\n%s", code, errs)
	}
	return code, readReport(t, out)
}

func diffVerdicts(t *testing.T, what string, got, want map[string]string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d trials, want %d", what, len(got), len(want))
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: trial %s is %q, one process says %q", what, k, got[k], v)
		}
	}
}

// A 4-shard run gives the verdicts of one process, trial by trial, every
// trial in exactly one shard, and gavel merge decides the gate as one
// process would.
func TestShardsMergeAsOneProcess(t *testing.T) {
	suite := shardSuite(t, "shards", []bool{true, false, true, true, false, true, true, true, false, true}, 3, 0.6)
	wantCode, one := oneProcess(t, suite)
	want := trialVerdicts(one)
	dir := t.TempDir()
	db := filepath.Join(dir, "results.db")
	seen := map[string]int{}
	var files []string
	for k := 1; k <= 4; k++ {
		out := filepath.Join(dir, fmt.Sprintf("shard-%d.json", k))
		code, _, errs := gavelExec(t, suite, "run", "--quiet", "--no-cache", "--db", db, "--shard", fmt.Sprintf("%d/4", k), "--out", out, ".")
		if code != eval.ExitPassed {
			t.Fatalf("shard %d/4: exit %d\n%s", k, code, errs)
		}
		r := readReport(t, out)
		if r.Shard == nil || r.Shard.Index != k || r.Shard.Count != 4 {
			t.Errorf("shard %d/4's report says it is %+v", k, r.Shard)
		}
		n := 0
		for trial, v := range trialVerdicts(r) {
			seen[trial]++
			n++
			if want[trial] != v {
				t.Errorf("shard %d/4: trial %s is %q, one process says %q", k, trial, v, want[trial])
			}
		}
		if n < 7 || n > 8 { // 30 trials in 4 shards
			t.Errorf("shard %d/4 ran %d trials, want 7 or 8", k, n)
		}
		files = append(files, out)
	}
	for trial := range want {
		if seen[trial] != 1 {
			t.Errorf("trial %s ran in %d shards, want 1", trial, seen[trial])
		}
	}

	merged := filepath.Join(dir, "merged.json")
	junit := filepath.Join(dir, "junit.xml")
	code, out, errs := gavelExec(t, suite, append([]string{"merge", "--db", db, "--out", merged, "--out", junit}, files...)...)
	if code != wantCode {
		t.Fatalf("merge: exit %d, one process %d\n%s%s", code, wantCode, out, errs)
	}
	m := readReport(t, merged)
	diffVerdicts(t, "merge", trialVerdicts(m), want)
	if m.Passed != one.Passed || rateOf(m.Stats.PassRate) != rateOf(one.Stats.PassRate) || m.Shard != nil || m.Incomplete {
		t.Errorf("merged: passed %v, pass rate %v, shard %v, incomplete %v; one process: %v, %v", m.Passed, rateOf(m.Stats.PassRate), m.Shard, m.Incomplete, one.Passed, rateOf(one.Stats.PassRate))
	}
	ids := func(r report.JSONReport) (out []string) {
		for _, c := range r.Cases {
			out = append(out, c.ID)
		}
		return out
	}
	if !slices.Equal(ids(m), ids(one)) {
		t.Errorf("merged cases %v, want the suite's order %v", ids(m), ids(one))
	}
	if _, err := os.Stat(junit); err != nil {
		t.Errorf("no JUnit report: %v", err)
	}
	id := runID.FindStringSubmatch(errs)
	if id == nil {
		t.Fatalf("merge stored no run:\n%s", errs)
	}
	if code, out, errs := gavelExec(t, suite, "show", "--db", db, id[1]); code != eval.ExitPassed || !strings.Contains(out, "Trials: 30") {
		t.Errorf("show of the merged run: exit %d\n%s%s", code, out, errs)
	}
}

// The shards of a run given one label join one run in the database,
// whichever arrives first, and the last to end decides the gate on the
// whole run, as one process would: in a SQLite file and in PostgreSQL.
func TestShardsJoinOneStoredRun(t *testing.T) {
	for _, tc := range []struct {
		name string
		db   func(t *testing.T) string
	}{
		{"sqlite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "results.db") }},
		{"postgres", func(t *testing.T) string { return pgtest.Schema(t) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			suite := shardSuite(t, "shards", []bool{true, false, true, true, false, true, true, true, false, true}, 3, 0.8)
			wantCode, one := oneProcess(t, suite)
			if wantCode != eval.ExitFailed {
				t.Fatalf("the suite passes in one process: the test wants it to fail")
			}
			db := tc.db(t)
			codes := make([]int, 5)
			errs := make([]string, 5)
			var wg sync.WaitGroup
			for k := 1; k <= 4; k++ {
				wg.Go(func() {
					codes[k], _, errs[k] = gavelExec(t, suite, "run", "--quiet", "--no-cache", "--db", db, "--shard", fmt.Sprintf("%d/4", k), "--run-label", "ci-42", ".")
				})
			}
			wg.Wait()
			failed := 0
			for k := 1; k <= 4; k++ {
				switch codes[k] {
				case eval.ExitFailed:
					failed++
					if !strings.Contains(errs[k], "every shard of run") {
						t.Errorf("shard %d/4 failed without saying it ended the run:\n%s", k, errs[k])
					}
				case eval.ExitPassed:
				default:
					t.Errorf("shard %d/4: exit %d\n%s", k, codes[k], errs[k])
				}
			}
			if failed != 1 {
				t.Errorf("%d shards failed the gate, want 1 (the last to end)\n%s", failed, strings.Join(errs, "\n"))
			}
			out := filepath.Join(t.TempDir(), "whole.json")
			code, _, merr := gavelExec(t, suite, "merge", "--quiet", "--db", db, "--run-label", "ci-42", "--out", out)
			if code != wantCode {
				t.Fatalf("merge --run-label: exit %d, one process %d\n%s", code, wantCode, merr)
			}
			whole := readReport(t, out)
			diffVerdicts(t, "the stored run", trialVerdicts(whole), trialVerdicts(one))
			if rateOf(whole.Stats.PassRate) != rateOf(one.Stats.PassRate) || whole.Incomplete {
				t.Errorf("the stored run: pass rate %v, incomplete %v; one process %v", rateOf(whole.Stats.PassRate), whole.Incomplete, rateOf(one.Stats.PassRate))
			}
			// One run in the database, not four.
			code, list, _ := gavelExec(t, suite, "runs", "--db", db)
			if n := len(regexp.MustCompile(`\d{8}-\d{6}-\w+`).FindAllString(list, -1)); code != eval.ExitPassed || n != 1 {
				t.Errorf("runs: exit %d, %d runs, want 1\n%s", code, n, list)
			}
		})
	}
}

// The gate is decided on the whole run, never on a shard: a shard whose
// own pass rate misses the threshold exits 0 when the whole run passes,
// and one whose own pass rate reaches it does not make a failing run
// pass; both by gavel merge and by the last shard of a labelled run.
func TestShardGateOnTheWhole(t *testing.T) {
	// Eight cases, one trial each: shard 1/4 runs c1 and c5.
	for _, tc := range []struct {
		name string
		pass []bool
		want int
	}{
		{"shard 1 misses, the whole passes", []bool{false, true, true, true, false, true, true, true}, eval.ExitPassed},
		{"shard 1 passes, the whole fails", []bool{true, false, false, false, true, false, false, false}, eval.ExitFailed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			suite := shardSuite(t, "gate", tc.pass, 1, 0.75)
			if code, _ := oneProcess(t, suite); code != tc.want {
				t.Fatalf("one process: exit %d, want %d", code, tc.want)
			}
			dir := t.TempDir()
			files := []string{"merge", "--quiet", "--db", filepath.Join(dir, "merged.db")}
			stored := filepath.Join(dir, "stored.db")
			for k := 1; k <= 4; k++ {
				out := filepath.Join(dir, fmt.Sprintf("shard-%d.json", k))
				code, stdout, errs := gavelExec(t, suite, "run", "--no-cache", "--db", filepath.Join(dir, "own.db"), "--shard", fmt.Sprintf("%d/4", k), "--out", out, ".")
				if code != eval.ExitPassed {
					t.Errorf("shard %d/4 alone: exit %d, want 0\n%s%s", k, code, stdout, errs)
				}
				if k == 1 && !strings.Contains(stdout, "decided on the whole run") {
					t.Errorf("shard 1/4's report gives a verdict of its own:\n%s", stdout)
				}
				files = append(files, out)
				// The same shard in a labelled run: the last one decides.
				want := eval.ExitPassed
				if k == 4 {
					want = tc.want
				}
				if code, _, errs := gavelExec(t, suite, "run", "--quiet", "--no-cache", "--db", stored, "--shard", fmt.Sprintf("%d/4", k), "--run-label", "gate", "."); code != want {
					t.Errorf("shard %d/4 of the labelled run: exit %d, want %d\n%s", k, code, want, errs)
				}
			}
			if code, out, errs := gavelExec(t, suite, files...); code != tc.want {
				t.Errorf("merge: exit %d, want %d\n%s%s", code, tc.want, out, errs)
			}
			if code, out, errs := gavelExec(t, suite, "merge", "--quiet", "--db", stored, "--run-label", "gate"); code != tc.want {
				t.Errorf("merge --run-label: exit %d, want %d\n%s%s", code, tc.want, out, errs)
			}
		})
	}
}

// Bad shards are usage errors, and gavel merge refuses what is not the
// shards of one run, saying why, and stores nothing.
func TestShardRefusals(t *testing.T) {
	suite := shardSuite(t, "shards", []bool{true, false, true, true, false, true}, 2, 0.5)
	dir := t.TempDir()
	db := filepath.Join(dir, "results.db")
	for _, bad := range []struct{ shard, says string }{
		{"0/4", "K counts from 1"}, {"5/4", "K is at most N"}, {"a/b", "want K/N"},
	} {
		code, _, errs := gavelExec(t, suite, "run", "--no-cache", "--db", db, "--shard", bad.shard, ".")
		if code != eval.ExitUsage || !strings.Contains(errs, bad.says) {
			t.Errorf("--shard %s: exit %d, want 2 saying %q\n%s", bad.shard, code, bad.says, errs)
		}
	}
	if code, _, errs := gavelExec(t, suite, "run", "--no-cache", "--db", db, "--run-label", "x", "."); code != eval.ExitUsage || !strings.Contains(errs, "give --shard too") {
		t.Errorf("--run-label alone: exit %d\n%s", code, errs)
	}

	shardOf := func(name string, args ...string) string {
		t.Helper()
		out := filepath.Join(dir, name+".json")
		args = append([]string{"run", "--quiet", "--no-cache", "--db", db, "--out", out}, args...)
		if code, _, errs := gavelExec(t, suite, append(args, ".")...); code != eval.ExitPassed && code != eval.ExitFailed {
			t.Fatalf("%v: exit %d\n%s", args, code, errs)
		}
		return out
	}
	s1, s2, s3 := shardOf("s1", "--shard", "1/3"), shardOf("s2", "--shard", "2/3"), shardOf("s3", "--shard", "3/3")
	half := shardOf("half", "--shard", "1/2")
	more := shardOf("more", "--shard", "3/3", "--trials", "3")
	labelled := shardOf("labelled", "--shard", "3/3", "--run-label", "other")
	whole := shardOf("whole")
	other := filepath.Join(dir, "other.json")
	otherSuite := shardSuite(t, "another", []bool{true, false, true, true, false, true}, 2, 0.5)
	if code, _, errs := gavelExec(t, otherSuite, "run", "--quiet", "--no-cache", "--db", db, "--shard", "3/3", "--out", other, "."); code != eval.ExitPassed {
		t.Fatalf("another suite's shard: exit %d\n%s", code, errs)
	}
	if code, _, errs := gavelExec(t, suite, "merge", "--quiet", "--db", db, s1, s2, s3); code != eval.ExitPassed {
		t.Fatalf("merge of the three shards: exit %d\n%s", code, errs)
	}
	_, before, _ := gavelExec(t, suite, "runs", "--db", db)
	for _, tc := range []struct {
		name  string
		files []string
		says  string
	}{
		{"a shard twice", []string{s1, s2, s2, s3}, "are both shard 2/3"},
		{"a shard missing", []string{s1, s3}, "shard 2/3 missing"},
		{"another N", []string{s1, s2, half}, "the shards of one run have the same N"},
		{"another suite", []string{s1, s2, other}, `of suite "another"`},
		{"another run", []string{s1, s2, labelled}, "their --run-label"},
		{"another selection", []string{s1, s2, more}, "selected other cases or trials"},
		{"a whole run", []string{s1, s2, whole}, "the report of a whole run, not of a shard"},
		{"not a report", []string{s1, s2, filepath.Join(suite, "gavel.yaml")}, "not a JSON report"},
	} {
		code, _, errs := gavelExec(t, suite, append([]string{"merge", "--quiet", "--db", db}, tc.files...)...)
		if code != eval.ExitUsage || !strings.Contains(errs, tc.says) {
			t.Errorf("merge of %s: exit %d, want 2 saying %q\n%s", tc.name, code, tc.says, errs)
		}
	}
	if _, after, _ := gavelExec(t, suite, "runs", "--db", db); after != before {
		t.Errorf("a refused merge stored a run:\n%s", after)
	}
}

// A shard that did not run its part (here, out of budget) leaves the
// labelled run incomplete; the same shard started again with the same
// label keeps the trials it saved, runs the rest and completes the run,
// which then has the verdicts of one process.
func TestShardRerunCompletesTheRun(t *testing.T) {
	suite := shardSuite(t, "shards", []bool{true, false, true, true, false, true, true, true}, 2, 0.7)
	wantCode, one := oneProcess(t, suite)
	db := filepath.Join(t.TempDir(), "results.db")
	shardRun := func(k int, args ...string) (int, string) {
		t.Helper()
		args = append([]string{"run", "--quiet", "--no-cache", "--db", db, "--shard", fmt.Sprintf("%d/4", k), "--run-label", "nightly"}, args...)
		code, _, errs := gavelExec(t, suite, append(args, ".")...)
		return code, errs
	}
	for k := 1; k <= 3; k++ {
		if code, errs := shardRun(k); code != eval.ExitPassed {
			t.Fatalf("shard %d/4: exit %d\n%s", k, code, errs)
		}
	}
	// Shard 4 runs one trial of its four, and is the last to end: the run
	// is incomplete, and so is the exit code.
	if code, errs := shardRun(4, "--concurrency", "1", "--max-tokens", "1"); code != eval.ExitIncomplete {
		t.Fatalf("shard 4/4 out of budget: exit %d, want 5\n%s", code, errs)
	}
	if code, _, errs := gavelExec(t, suite, "merge", "--quiet", "--db", db, "--run-label", "nightly"); code != eval.ExitIncomplete || !strings.Contains(errs, "INCOMPLETE (shard 4/4: the budget of 1 tokens was spent") {
		t.Errorf("merge --run-label of the incomplete run: exit %d, want 5\n%s", code, errs)
	}
	code, errs := shardRun(4)
	if code != wantCode || !strings.Contains(errs, "keeping the 1 trial of it the run has") {
		t.Fatalf("shard 4/4 again: exit %d, want %d (the whole run's)\n%s", code, wantCode, errs)
	}
	out := filepath.Join(t.TempDir(), "whole.json")
	if code, _, errs := gavelExec(t, suite, "merge", "--quiet", "--db", db, "--run-label", "nightly", "--out", out); code != wantCode {
		t.Fatalf("merge --run-label: exit %d, want %d\n%s", code, wantCode, errs)
	}
	whole := readReport(t, out)
	diffVerdicts(t, "the completed run", trialVerdicts(whole), trialVerdicts(one))
	if whole.Incomplete {
		t.Errorf("the completed run is incomplete: %s", whole.StopReason)
	}
}

// A shard killed mid-run (kill -9) leaves the labelled run running; the
// same shard started again with the same label takes its part over and
// completes the run, which then has the verdicts of one process.
func TestDeadShardRerunCompletesTheRun(t *testing.T) {
	suite := shardSuite(t, "shards", []bool{true, false, true, true, false, true}, 2, 0.7)
	// The agent's model, read from the environment: the killed shard's
	// hangs, on a server that takes connections and never answers.
	yaml := filepath.Join(suite, "gavel.yaml")
	data, _ := os.ReadFile(yaml)
	os.WriteFile(yaml, []byte(strings.Replace(string(data), "model: script:models/agent.yaml", "model: ${SHARD_AGENT:-script:models/agent.yaml}", 1)), 0o644)
	wantCode, one := oneProcess(t, suite)
	hang, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer hang.Close()
	db := filepath.Join(t.TempDir(), "results.db")
	args := func(k int) []string {
		return []string{"run", "--quiet", "--no-cache", "--db", db, "--shard", fmt.Sprintf("%d/3", k), "--run-label", "nightly", "."}
	}
	for k := 1; k <= 2; k++ {
		if code, _, errs := gavelExec(t, suite, args(k)...); code != eval.ExitPassed {
			t.Fatalf("shard %d/3: exit %d\n%s", k, code, errs)
		}
	}

	cmd := exec.Command(gavelBinary(t), args(3)...)
	cmd.Dir = suite
	cmd.Env = append(os.Environ(), "GITHUB_ACTIONS=", "GAVEL_DB=", "SHARD_AGENT=openai:m@http://"+hang.Addr().String()+"/v1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	joined := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "joined run") {
				joined <- true
			}
		}
		close(joined)
	}()
	select {
	case ok := <-joined:
		if !ok {
			t.Fatal("shard 3/3 ended before it joined the run")
		}
	case <-time.After(time.Minute):
		t.Fatal("shard 3/3 did not join the run within a minute")
	}
	cmd.Process.Kill() // SIGKILL: nothing of it ends the shard
	cmd.Wait()

	code, _, errs := gavelExec(t, suite, "merge", "--quiet", "--db", db, "--run-label", "nightly")
	if code != eval.ExitIncomplete || !strings.Contains(errs, "2 of its 3 shards have ended") {
		t.Errorf("merge --run-label with shard 3/3 killed: exit %d, want 5\n%s", code, errs)
	}
	code, _, errs = gavelExec(t, suite, args(3)...)
	if code != wantCode || !strings.Contains(errs, "ran before") || !strings.Contains(errs, "every shard of run") {
		t.Fatalf("shard 3/3 again: exit %d, want %d (the whole run's)\n%s", code, wantCode, errs)
	}
	out := filepath.Join(t.TempDir(), "whole.json")
	if code, _, errs := gavelExec(t, suite, "merge", "--quiet", "--db", db, "--run-label", "nightly", "--out", out); code != wantCode {
		t.Fatalf("merge --run-label: exit %d, want %d\n%s", code, wantCode, errs)
	}
	whole := readReport(t, out)
	diffVerdicts(t, "the completed run", trialVerdicts(whole), trialVerdicts(one))
	if whole.Incomplete {
		t.Errorf("the completed run is incomplete: %s", whole.StopReason)
	}
}

// When --changed-since selects no case (a pull request that touches no
// case), each shard still writes its report, and the merge, like gavel
// run, passes: there was nothing to gate. So does a labelled run.
func TestShardsOfNoCase(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	gavelBinary(t) // built before starterRepo leaves the package's directory
	repo := starterRepo(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "results.db")
	merge := []string{"merge", "--quiet", "--db", db}
	for k := 1; k <= 2; k++ {
		out := filepath.Join(dir, fmt.Sprintf("shard-%d.json", k))
		code, _, errs := gavelExec(t, repo, "run", "--quiet", "--no-cache", "--db", db, "--changed-since", "HEAD", "--shard", fmt.Sprintf("%d/2", k), "--out", out, ".")
		if code != eval.ExitPassed {
			t.Fatalf("shard %d/2: exit %d\n%s", k, code, errs)
		}
		if r := readReport(t, out); r.Shard == nil || len(r.Cases) != 0 {
			t.Errorf("shard %d/2's report: shard %v, %d cases; want a shard of no case", k, r.Shard, len(r.Cases))
		}
		merge = append(merge, out)
		code, _, errs = gavelExec(t, repo, "run", "--quiet", "--no-cache", "--db", db, "--changed-since", "HEAD", "--shard", fmt.Sprintf("%d/2", k), "--run-label", "none", ".")
		if code != eval.ExitPassed {
			t.Errorf("shard %d/2 of a labelled run of no case: exit %d, want 0\n%s", k, code, errs)
		}
	}
	if code, out, errs := gavelExec(t, repo, merge...); code != eval.ExitPassed {
		t.Errorf("merge of shards of no case: exit %d, want 0\n%s%s", code, out, errs)
	}
	if code, _, errs := gavelExec(t, repo, "merge", "--quiet", "--db", db, "--run-label", "none"); code != eval.ExitPassed {
		t.Errorf("merge --run-label of a run of no case: exit %d, want 0\n%s", code, errs)
	}
}
