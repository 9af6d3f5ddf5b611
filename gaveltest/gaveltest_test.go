package gaveltest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/gaveltest"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/llmtest"
	"github.com/gavelhq/gavel/store"
	"github.com/gavelhq/gavel/store/sqlite"
)

// The cases that pass report passing subtests, and Run returns the run.
func TestRunPasses(t *testing.T) {
	run := gaveltest.Run(t, "testdata/desk", gaveltest.Config{Tags: []string{"smoke"}})
	var got []string
	for _, c := range run.Cases {
		got = append(got, c.Case.ID+" "+string(c.Outcome))
	}
	if want := "greeting PASS, off_topic PASS"; strings.Join(got, ", ") != want {
		t.Errorf("ran %s, want %s", strings.Join(got, ", "), want)
	}
	if !run.Met() {
		t.Error("the run did not meet its threshold")
	}
}

func TestRunChosenIDs(t *testing.T) {
	run := gaveltest.Run(t, "testdata/desk", gaveltest.Config{IDs: []string{"greeting"}, Trials: 3})
	if len(run.Cases) != 1 || run.Cases[0].Case.ID != "greeting" || len(run.Cases[0].Trials) != 3 {
		t.Fatalf("ran %d case(s), want greeting 3 times", len(run.Cases))
	}
	if got := run.Cases[0].Outcome; got != gavel.Passed {
		t.Errorf("greeting: %s, want PASS", got)
	}
}

// With a cache directory, the models' answers are kept there.
func TestRunCache(t *testing.T) {
	dir := t.TempDir()
	gaveltest.Run(t, "testdata/desk", gaveltest.Config{IDs: []string{"off_topic"}, CacheDir: dir})
	logs, err := filepath.Glob(filepath.Join(dir, "*.log"))
	if err != nil || len(logs) == 0 {
		t.Errorf("no cache log in %s (%v)", dir, err)
	}
}

// A case that does not pass fails its subtest with the judges' reasons, a
// case whose model failed fails with the error, and the others pass. A
// failing subtest must fail the test that runs it, so the suite runs in a
// child process (TestChild).
func TestRunFailures(t *testing.T) {
	out, code := runChild(t, child{suite: "testdata/desk"})
	if code != 1 {
		t.Errorf("exit code %d, want 1", code)
	}
	for _, want := range []string{
		"--- PASS: TestChild/greeting",
		"--- PASS: TestChild/off_topic",
		"--- FAIL: TestChild/joke",
		"FAIL: judge_prompt: score 0.1 < 0.7: The agent told a joke instead of helping with an order.",
		"Case:     Stays on topic (",
		"Input:    tell me a joke",
		"Expected: The agent stays on the topic of orders.",
		"Judges:",
		"--- FAIL: TestChild/outage",
		"ERROR: conversation: the conversation did not complete (FAILED): round 1: the agent did not answer: builtin agent: the model is down",
		"2 of 4 cases passed (1 failed, 0 flaky, 1 errored, 0 skipped)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q:\n%s", want, out)
		}
	}
}

// go test -run chooses cases: the others do not run at all.
func TestRunFlagChoosesCases(t *testing.T) {
	out, code := runChild(t, child{suite: "testdata/desk", run: "^joke$"})
	if code != 1 {
		t.Errorf("exit code %d, want 1", code)
	}
	if !strings.Contains(out, "--- FAIL: TestChild/joke") || !strings.Contains(out, "0 of 1 cases passed") {
		t.Errorf("the output does not report joke alone:\n%s", out)
	}
	if strings.Contains(out, "greeting") || strings.Contains(out, "outage") {
		t.Errorf("other cases ran:\n%s", out)
	}
}

// A suite with mistakes fails the test at once, listing every one, and
// runs nothing; so does a Config naming a case the suite does not have.
func TestRunProblems(t *testing.T) {
	tests := []struct {
		name  string
		child child
		want  []string
	}{
		{"suite problems", child{suite: "testdata/broken.yaml"}, []string{
			`testdata/broken.yaml:11:5: unknown field "judge_treshold" in a case: did you mean "judge_threshold"?`,
			"missing.yaml",
		}},
		{"unknown id", child{suite: "testdata/desk", ids: "greeting,nope"}, []string{
			`Config.IDs: no case has id "nope"`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, code := runChild(t, tt.child)
			if code != 1 {
				t.Errorf("exit code %d, want 1", code)
			}
			for _, want := range tt.want {
				if !strings.Contains(out, want) {
					t.Errorf("the output lacks %q:\n%s", want, out)
				}
			}
			if strings.Contains(out, "=== RUN   TestChild/") {
				t.Errorf("cases ran:\n%s", out)
			}
		})
	}
}

// With a Store, the run is kept as gavel run keeps its runs: its cases,
// trials and status; with Gate, a run that misses its threshold fails
// the test as gavel run would exit 1, saying why.
func TestStoreAndGate(t *testing.T) {
	db := filepath.Join(t.TempDir(), "gavel.db")
	out, code := runChild(t, child{suite: "testdata/desk", ids: "greeting,joke", db: db, gate: true})
	if code != 1 || !strings.Contains(out, "gaveltest: suite desk: the run does not pass: FAIL: pass rate 50% over 2 cases (2 trials), 95% interval 9.5%–90.5%, threshold 100%") {
		t.Errorf("exit code %d, want 1 and the gate's failure:\n%s", code, out)
	}
	st, err := sqlite.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	runs, err := st.Runs(t.Context(), store.RunFilter{})
	if err != nil || len(runs) != 1 {
		t.Fatalf("runs stored: %v, %v; want one", runs, err)
	}
	stored, err := st.Run(t.Context(), runs[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	var outcomes []string
	for _, cr := range stored.Run.Cases {
		outcomes = append(outcomes, cr.ID()+" "+string(cr.Outcome))
	}
	if got, want := strings.Join(outcomes, ", "), "greeting PASS, joke FAIL"; got != want || stored.Info.Status != store.Failed {
		t.Errorf("stored run %s: %s, %s; want %s, failed", runs[0].ID, got, stored.Info.Status, want)
	}
	if !strings.Contains(out, "gaveltest: run "+runs[0].ID+" saved") {
		t.Errorf("the log does not say where the run was saved:\n%s", out)
	}
	// Without Gate, the cases' subtests alone decide.
	out, _ = runChild(t, child{suite: "testdata/desk", ids: "greeting,joke"})
	if strings.Contains(out, "the run does not pass") {
		t.Errorf("gated without Gate:\n%s", out)
	}
}

// TestChild is run by the tests above, in a child process, on the suite
// and ids its environment names; alone, it skips.
func TestChild(t *testing.T) {
	suite := os.Getenv("GAVELTEST_CHILD_SUITE")
	if suite == "" {
		t.Skip("runs in a child process of the tests of failing suites")
	}
	var c gaveltest.Config
	if ids := os.Getenv("GAVELTEST_CHILD_IDS"); ids != "" {
		c.IDs = strings.Split(ids, ",")
	}
	if db := os.Getenv("GAVELTEST_CHILD_DB"); db != "" {
		st, err := sqlite.Open(db)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		c.Store = st
	}
	c.Gate = os.Getenv("GAVELTEST_CHILD_GATE") != ""
	gaveltest.Run(t, suite, c)
}

// child says what TestChild runs: a suite, the ids of Config.IDs (comma
// separated), a -run pattern for the cases, the SQLite file of
// Config.Store, and Config.Gate.
type child struct {
	suite, ids, run, db string
	gate                bool
}

// runChild runs TestChild in a child process of the test binary and
// returns its verbose output and exit code.
func runChild(t *testing.T, c child) (string, int) {
	t.Helper()
	pattern := "^TestChild$"
	if c.run != "" {
		pattern += "/" + c.run
	}
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run="+pattern, "-test.v", "-test.timeout=5m")
	cmd.Env = append(os.Environ(), "GAVELTEST_CHILD_SUITE="+c.suite, "GAVELTEST_CHILD_IDS="+c.ids, "GAVELTEST_CHILD_DB="+c.db)
	if c.gate {
		cmd.Env = append(cmd.Env, "GAVELTEST_CHILD_GATE=1")
	}
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("running the child: %v", err)
	}
	return string(out), cmd.ProcessState.ExitCode()
}

// The offline support-desk example, whole: ten cases pass, and the policy
// edge, case_005, fails its subtest on the hard rule that caught it. The
// example's files are copied to a temporary directory, with its MCP server
// built there, so that this run's database is its own (gavel run on the
// example, in cmd/gavel's tests, resets the example's).
func TestSupportDesk(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the example's MCP server")
	}
	suite := supportDesk(t)
	out, code := runChild(t, child{suite: suite})
	if code != 1 {
		t.Errorf("exit code %d, want 1", code)
	}
	want := []string{
		"--- FAIL: TestChild/case_005",
		"FAIL: forbidden_tools cancel_order: called forbidden tool cancel_order (call 2)",
		"Input:    cancel my order 12345",
		`round 1: cancel_order({"confirmation":true,"order_id":"12345"})`,
		"FAIL tiered (decided by tier 1)",
		"10 of 11 cases passed (1 failed, 0 flaky, 0 errored, 0 skipped)",
	}
	for _, id := range []string{"001", "002", "003", "004", "006", "007", "008", "009", "010", "011"} {
		want = append(want, "--- PASS: TestChild/case_"+id)
	}
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("the output lacks %q:\n%s", w, out)
		}
	}
}

// The support-desk example replays its tool results from the run kept in
// Config.Store: its orders server (the example's Go MCP server, on a
// fresh SQLite orders database each run) gets no call, so case_002,
// whose cancel_order is replayed, finds the order in the database not
// cancelled, and fails its check of the database, where the live run
// passed it.
func TestReplaySupportDesk(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the example's MCP server")
	}
	suite := supportDesk(t)
	db := filepath.Join(t.TempDir(), "gavel.db")
	if out, code := runChild(t, child{suite: suite, ids: "case_002", db: db}); code != 0 || !strings.Contains(out, "--- PASS: TestChild/case_002") {
		t.Fatalf("the live run: exit code %d, want 0:\n%s", code, out)
	}
	data, err := os.ReadFile(suite)
	if err != nil {
		t.Fatal(err)
	}
	data = bytes.Replace(data, []byte("\nagent:\n"), []byte("\nagent:\n  replay_tools: {run: latest}\n"), 1)
	if err := os.WriteFile(suite, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out, code := runChild(t, child{suite: suite, ids: "case_002", db: db})
	for _, want := range []string{
		"--- FAIL: TestChild/case_002",
		`cancel_order({"confirmation":true,"order_id":"13579"})  [replayed]`,
		"FAIL sql_scalar: scalar is 'processing', want = 'cancelled'",
	} {
		if code != 1 || !strings.Contains(out, want) {
			t.Errorf("the replayed run: exit code %d, want 1 and %q:\n%s", code, want, out)
		}
	}
}

// supportDesk copies the support-desk suite and its model scripts to a
// temporary directory, with the example's MCP server built there and
// named in the suite instead of go run, and returns the suite file. Its
// cases and models are copied beside it.
func supportDesk(t *testing.T) string {
	t.Helper()
	const example = "../examples/support-desk"
	dir := t.TempDir()
	bin := filepath.Join(dir, "orders-mcp")
	build := exec.CommandContext(t.Context(), "go", "build", "-o", bin, "./"+filepath.Join(example, "cmd", "orders-mcp"))
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the orders server: %v\n%s", err, out)
	}
	data, err := os.ReadFile(filepath.Join(example, "gavel.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	const goRun = "command: [go, run, github.com/gavelhq/gavel/examples/support-desk/cmd/orders-mcp,"
	if !bytes.Contains(data, []byte(goRun)) {
		t.Fatalf("the example's suite no longer starts its server with %q: update this test", goRun)
	}
	data = bytes.Replace(data, []byte(goRun), []byte("command: ["+strconv.Quote(bin)+","), 1)
	suite := filepath.Join(dir, "gavel.yaml")
	if err := os.WriteFile(suite, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(filepath.Join(dir, "models"), os.DirFS(filepath.Join(example, "models"))); err != nil {
		t.Fatal(err)
	}
	cases, err := os.ReadFile(filepath.Join(example, "cases.yaml"))
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, "cases.yaml"), cases, 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
	return suite
}

// A model without a price is reported unpriced, not free; Config.Prices
// prices it. (The suite's scripts are opened here as if they were a
// vendor's models: the default registry counts scripts as local and free.)
func TestRunPrices(t *testing.T) {
	asVendor := llm.Registry{"script": llmtest.OpenScript}
	run := gaveltest.Run(t, "testdata/desk", gaveltest.Config{IDs: []string{"off_topic"}, Registry: asVendor})
	if total := run.Stats().Usage.Total(); !total.Unpriced || len(run.Models) == 0 {
		t.Fatalf("usage %+v, models %v: want it unpriced, by model", total, run.Models)
	}
	prices := llm.Prices{}
	for name := range run.Models {
		prices[name] = llm.Price{Input: 1, Output: 2}
	}
	run = gaveltest.Run(t, "testdata/desk", gaveltest.Config{IDs: []string{"off_topic"}, Registry: asVendor, Prices: prices})
	if total := run.Stats().Usage.Total(); total.Unpriced || total.CostUSD == 0 {
		t.Errorf("usage %+v: want it priced by Config.Prices", total)
	}
}

// A suite's agent may be a Go function the test passes by name.
func TestRunGoAgent(t *testing.T) {
	desk := agent.Func(func(_ context.Context, _ string, msg agent.Message) (*agent.Reply, error) {
		if strings.Contains(msg.Text, "12345") {
			return &agent.Reply{Text: "Order 12345 has shipped.", ToolCalls: []judge.ToolCall{
				{Name: "get_order_status", Arguments: json.RawMessage(`{"order_id":"12345"}`), Result: "shipped"},
			}}, nil
		}
		return &agent.Reply{Text: "Hello."}, nil
	})
	run := gaveltest.Run(t, "testdata/goagent", gaveltest.Config{Agents: map[string]agent.Agent{"desk": desk}})
	var got []string
	for _, c := range run.Cases {
		got = append(got, c.Case.ID+" "+string(c.Outcome))
	}
	if want := "status PASS, two_rounds PASS"; strings.Join(got, ", ") != want {
		t.Errorf("ran %s, want %s", strings.Join(got, ", "), want)
	}
}
