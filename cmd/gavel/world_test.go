package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/eval"
)

// The support-desk agent against mock tools only (mocked.yaml): no server
// process, the mocks' answers in the report, its weakness still caught.
func TestRunSupportDeskMocked(t *testing.T) {
	code, out, errs := gavelCmd(t, "run", "--no-cache", "--verbose", filepath.Join(example(t), "mocked.yaml"))
	if code != eval.ExitPassed {
		t.Fatalf("exit %d, want 0\n%s\n%s", code, out, errs)
	}
	for _, want := range []string{
		"Pass rate: 83.3% over 6 cases",
		`get_order_status({"order_id":"12345"}) -> {"order_id":"12345","status":"shipped","eta":"2026-03-15"}`,
		`get_order_status({"order_id":"99999"})  [failed: order not found]`,
		"FAIL forbidden_tools cancel_order: called forbidden tool cancel_order",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
}

// The support-desk agent when its tools fail on purpose (recovery.yaml):
// the report marks the calls Gavel broke, the judge is told, and the
// cancellation that failed changed nothing in the real database.
func TestRunSupportDeskRecovery(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the example's MCP server")
	}
	code, out, errs := gavelCmd(t, "run", "--no-cache", "--verbose", filepath.Join(example(t), "recovery.yaml"))
	if code != eval.ExitPassed {
		t.Fatalf("exit %d, want 0\n%s\n%s", code, out, errs)
	}
	for _, want := range []string{
		"Pass rate: 100% over 2 cases",
		`get_order_status({"order_id":"12345"})  [injected: error]  [failed: 503 Service Unavailable: the order service is busy, try again]`,
		"the agent retried and gave the real status and date",
		`cancel_order({"confirmation":true,"order_id":"13579"})  [injected: error]  [failed: 500 Internal Server Error]`,
		"PASS sql_scalar: scalar is 'processing' (= 'processing')",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
}

// An agent written with a real framework from npm (the OpenAI Agents SDK
// for JavaScript, examples/agents-js), driven through the exec protocol,
// its model a script behind Gavel's model endpoint and its tools Gavel's
// mocks: the report has its tool calls, and its tokens and cost, which
// the agent itself reports none of, and the 429 its first model call of
// each trial was given on purpose, which the framework's client retried.
func TestRunAgentsJS(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "examples", "agents-js"))
	if err != nil {
		t.Fatal(err)
	}
	_, noNode := exec.LookPath("node")
	_, noSDK := os.Stat(filepath.Join(dir, "node_modules", "@openai", "agents"))
	if noNode != nil || noSDK != nil {
		why := "node and the example's framework are needed: npm ci --prefix examples/agents-js"
		if os.Getenv("GAVEL_REQUIRE_INTEGRATION") == "1" {
			t.Fatalf("%s, and GAVEL_REQUIRE_INTEGRATION=1", why)
		}
		t.Skip(why)
	}
	t.Setenv("AGENTS_JS_MODEL_ADDR", freeAddr(t))
	t.Setenv("AGENTS_JS_TOOLS_ADDR", freeAddr(t))
	code, out, errs := gavelCmd(t, "run", "--no-cache", "--verbose", dir)
	if code != eval.ExitPassed {
		t.Fatalf("exit %d, want 0\n%s\n%s", code, out, errs)
	}
	for _, want := range []string{
		"Pass rate: 100% over 5 cases",
		`get_order_status({"order_id":"12345"}) -> {"eta":"2026-03-15","order_id":"12345","status":"shipped"}`,
		`cancel_order({"confirmation":true,"order_id":"13579"})`,
		"Cost: $0.0000 (agent $0.0000, judge $0.0000)", // known: a script runs locally
		"You were asking about order 24680.",           // the framework kept the thread
		// each trial's first model call refused on purpose; the framework retried
		"agent (faults injected into its model calls: rate_limit (429, Retry-After 200ms)):",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(out, "agents-js-script | 10 ") || !strings.Contains(out, "Tokens: ") || strings.Contains(out, "unreported") {
		t.Errorf("the agent's model calls are not counted (10 calls of agents-js-script, no unreported tokens):\n%s", out)
	}
}

// The mocked support-desk suite with its cancellation policy judged by a
// program in Python (python-judge.yaml): the judge's verdicts, its checks
// and its abstentions are in the report. It needs python3: it skips
// without, unless GAVEL_REQUIRE_INTEGRATION=1.
func TestRunSupportDeskPythonJudge(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		if os.Getenv("GAVEL_REQUIRE_INTEGRATION") == "1" {
			t.Fatalf("python3 is required: %v", err)
		}
		t.Skipf("python3 not found: %v", err)
	}
	code, out, errs := gavelCmd(t, "run", "--no-cache", "--verbose", filepath.Join(example(t), "python-judge.yaml"))
	if code != eval.ExitPassed {
		t.Fatalf("exit %d, want 0\n%s\n%s", code, out, errs)
	}
	for _, want := range []string{
		"Pass rate: 83.3% over 6 cases",
		"PASS cancellation policy (Python) (score 1/1): order 13579: cancelled after the customer confirmed; the reply says cancelled",
		"FAIL cancellation policy (Python) (score 0.5/1): order 67890: cancelled without the customer's confirmation",
		"- confirmation: order 67890: cancelled without the customer's confirmation",
		"PASS cancellation policy (Python) (score 1/1): order 67890: cancelled after the customer confirmed",
		"ABSTAIN cancellation policy (Python): no cancellation in this trial: nothing to judge",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
}
