package rule

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel/judge"
)

// programTranscript is a trial of two rounds with a tool call.
func programTranscript() *judge.Transcript {
	return &judge.Transcript{
		CaseID: "cancel", Trial: 2, Goal: "cancel order 13579", Status: judge.ExecSuccess,
		Turns: []judge.Turn{
			{Role: judge.RoleUser, Content: "cancel order 13579", Round: 1},
			{Role: judge.RoleAgent, Content: "Do you confirm?", Round: 1},
			{Role: judge.RoleUser, Content: "yes, I confirm", Round: 2},
			{Role: judge.RoleAgent, Content: "Done: cancelled.", Round: 2, ToolCalls: []judge.ToolCall{
				{ID: "c1", Name: "cancel_order", Arguments: json.RawMessage(`{"order_id":"13579"}`), Result: `{"cancelled":true}`},
			}},
		},
	}
}

// answering is a once-mode program that prints answer and exits.
func answering(answer string) []string {
	return sh("cat >/dev/null; printf '%s' '" + strings.ReplaceAll(answer, "'", `'\''`) + "'")
}

// persistentAnswering is a persistent program that answers every line
// with answer, the request's id put first.
func persistentAnswering(answer string) []string {
	return sh(`while IFS= read -r line; do
  id=$(printf '%s' "$line" | sed 's/^{"id":"\([0-9]*\)".*/\1/')
  printf '{"id":"%s",%s\n' "$id" '` + strings.TrimPrefix(answer, "{") + `'
done`)
}

func threshold(v float64) *float64 { return &v }

// TestProgramAnswers reads every kind of answer, in both modes: the good
// ones become verdicts, the malformed and the self-contradicting ones
// ERRORs quoting the answer.
func TestProgramAnswers(t *testing.T) {
	needShell(t)
	for _, tc := range []struct {
		name      string
		answer    string
		threshold *float64
		want      judge.Status
		score     float64 // 0: none expected beside a boolean
		checks    []judge.Check
		wantIn    string // in the reasoning
	}{
		{name: "pass", answer: `{"status": "pass", "reasoning": "asked first"}`, want: judge.StatusPass, wantIn: "asked first"},
		{name: "fail with checks", answer: `{"status": "fail", "reasoning": "cancelled unasked", "checks": [{"name": "confirmation", "passed": false, "message": "no confirm"}, {"name": "tone", "passed": true}]}`,
			want: judge.StatusFail, checks: []judge.Check{{Name: "confirmation", Message: "no confirm"}, {Name: "tone", Passed: true}}},
		{name: "abstain", answer: `{"status": "abstain", "reasoning": "no cancellation here"}`, want: judge.StatusAbstain},
		{name: "status in capitals", answer: `{"status": "PASS"}`, want: judge.StatusPass},
		{name: "status and score", answer: `{"status": "pass", "score": 0.9}`, want: judge.StatusPass, score: 0.9},
		{name: "score above the threshold", answer: `{"score": 0.8}`, threshold: threshold(0.7), want: judge.StatusPass, score: 0.8},
		{name: "score at the threshold", answer: `{"score": 0.7, "status": "pass"}`, threshold: threshold(0.7), want: judge.StatusPass, score: 0.7},
		{name: "score below the threshold", answer: `{"score": 0.5, "reasoning": "half"}`, threshold: threshold(0.7), want: judge.StatusFail, score: 0.5},

		{name: "not JSON", answer: `looks fine to me`, want: judge.StatusError, wantIn: `not a JSON object (stdout is for the judgment only; write logs to stderr): "looks fine to me"`},
		{name: "nothing", answer: ``, want: judge.StatusError, wantIn: "answered nothing"},
		{name: "an array", answer: `[{"status": "pass"}]`, want: judge.StatusError, wantIn: "not a JSON object"},
		{name: "NaN", answer: `{"score": NaN}`, threshold: threshold(0.5), want: judge.StatusError, wantIn: `NaN}`},
		{name: "an unknown field", answer: `{"status": "pass", "reason": "typo"}`, want: judge.StatusError, wantIn: `unknown field "reason"`},
		{name: "neither status nor score", answer: `{"reasoning": "fine"}`, want: judge.StatusError, wantIn: "neither status nor score"},
		{name: "a score above 1", answer: `{"status": "pass", "score": 1.5}`, want: judge.StatusError, wantIn: "score 1.5 is not from 0 to 1"},
		{name: "a negative score", answer: `{"score": -0.1}`, threshold: threshold(0.5), want: judge.StatusError, wantIn: "score -0.1 is not from 0 to 1"},
		{name: "a score as text", answer: `{"score": "0.9"}`, threshold: threshold(0.5), want: judge.StatusError, wantIn: "cannot unmarshal string"},
		{name: "an unknown status", answer: `{"status": "maybe"}`, want: judge.StatusError, wantIn: `status "maybe" is not one of`},
		{name: "pass below the threshold", answer: `{"status": "pass", "score": 0.5}`, threshold: threshold(0.7), want: judge.StatusError, wantIn: "status pass with a score of 0.5, below the threshold 0.7"},
		{name: "fail above the threshold", answer: `{"status": "fail", "score": 0.9}`, threshold: threshold(0.7), want: judge.StatusError, wantIn: "status fail with a score of 0.9, at or above the threshold 0.7"},
		{name: "a score alone without a threshold", answer: `{"score": 0.9}`, want: judge.StatusError, wantIn: "a score, 0.9, and no status"},
		{name: "a status alone with a threshold", answer: `{"status": "pass"}`, threshold: threshold(0.7), want: judge.StatusError, wantIn: "wants a score"},
		{name: "abstain with a score", answer: `{"status": "abstain", "score": 0.2}`, want: judge.StatusError, wantIn: "abstention has none"},
		{name: "a check without a name", answer: `{"status": "pass", "checks": [{"passed": true}]}`, want: judge.StatusError, wantIn: "checks[0] has no name"},
		{name: "a check without passed", answer: `{"status": "pass", "checks": [{"name": "x"}]}`, want: judge.StatusError, wantIn: "checks[0] (x) does not say whether it passed"},
		{name: "the program could not judge", answer: `{"status": "error", "reasoning": "KeyError: turns"}`, want: judge.StatusError, wantIn: "the program could not judge: KeyError: turns"},
	} {
		for _, mode := range []string{ProgramOnce, ProgramPersistent} {
			t.Run(tc.name+"/"+mode, func(t *testing.T) {
				args := answering(tc.answer)
				if mode == ProgramPersistent {
					if tc.answer == "" || !strings.HasPrefix(tc.answer, "{") {
						t.Skip("not an object: the protocol's error (TestProgramProtocolErrors)")
					}
					args = persistentAnswering(tc.answer)
				}
				p, err := NewProgram(ProgramConfig{Args: args, Mode: mode, Threshold: tc.threshold, Timeout: 10 * time.Second})
				if err != nil {
					t.Fatal(err)
				}
				defer p.Close()
				got := judge.Run(context.Background(), p, programTranscript())
				if got.Status != tc.want {
					t.Fatalf("status %s, want %s: %s", got.Status, tc.want, got.Reasoning)
				}
				if !strings.Contains(got.Reasoning, tc.wantIn) {
					t.Errorf("reasoning %q lacks %q", got.Reasoning, tc.wantIn)
				}
				if !strings.HasPrefix(got.Name, "program ") {
					t.Errorf("name %q does not name the program", got.Name)
				}
				if got.Status == judge.StatusError {
					if !strings.Contains(got.Reasoning, got.Name) {
						t.Errorf("the error %q does not name the program %s", got.Reasoning, got.Name)
					}
					return
				}
				if tc.score != 0 && got.Score.Value != tc.score {
					t.Errorf("score %v, want %v", got.Score.Value, tc.score)
				}
				if tc.threshold != nil && (got.Threshold == nil || *got.Threshold.Min != *tc.threshold) {
					t.Errorf("threshold %+v, want at least %v", got.Threshold, *tc.threshold)
				}
				if diff := cmp.Diff(tc.checks, got.Checks); diff != "" {
					t.Errorf("checks (-want +got):\n%s", diff)
				}
			})
		}
	}
}

// TestProgramOnceFailures: in once mode, a program that says more than
// its answer, fails, hangs or is missing is an ERROR that says so.
func TestProgramOnceFailures(t *testing.T) {
	needShell(t)
	for _, tc := range []struct {
		name    string
		args    []string
		wantIn  []string
		timeout time.Duration
	}{
		{name: "two answers", args: answering(`{"status": "pass"}{"status": "fail"}`), wantIn: []string{"more output after the answer"}},
		{name: "a log line after the answer", args: answering(`{"status": "pass"}` + "\nchecked 3 calls"), wantIn: []string{"more output after the answer", "checked 3 calls"}},
		{name: "an id in once mode", args: answering(`{"id": "1", "status": "pass"}`), wantIn: []string{`unknown field "id"`}},
		{name: "a failure status after a good answer", args: sh(`cat >/dev/null; echo '{"status": "pass"}'; echo 'Traceback: boom' >&2; exit 3`),
			wantIn: []string{"exit status 3", "Traceback: boom", "exits with status 0"}},
		{name: "a timeout", args: sh(`sleep 30`), timeout: 200 * time.Millisecond, wantIn: []string{"timed out after 200ms"}},
		{name: "no such program", args: []string{"/nonexistent/judge.py"}, wantIn: []string{`cannot run "/nonexistent/judge.py"`}},
		{name: "stderr beside a bad answer", args: sh(`cat >/dev/null; echo 'ok'; echo 'warning: no turns' >&2`), wantIn: []string{`"ok"`, "warning: no turns"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := NewProgram(ProgramConfig{Args: tc.args, Timeout: tc.timeout})
			if err != nil {
				t.Fatal(err)
			}
			got := judge.Run(context.Background(), p, programTranscript())
			if got.Status != judge.StatusError {
				t.Fatalf("status %s, want ERROR: %s", got.Status, got.Reasoning)
			}
			for _, want := range append(tc.wantIn, "program ") {
				if !strings.Contains(got.Reasoning, want) {
					t.Errorf("reasoning lacks %q:\n%s", want, got.Reasoning)
				}
			}
		})
	}
}

// TestProgramInput: the program reads the case, the round, the turns with
// their tool calls, the final response and the soft findings, version 1.
func TestProgramInput(t *testing.T) {
	needShell(t)
	saved := filepath.Join(t.TempDir(), "in.json")
	p, err := NewProgram(ProgramConfig{Args: sh(`cat > "$SAVED"; echo '{"status": "pass"}'`), Env: []string{"SAVED=" + saved}, Round: 2})
	if err != nil {
		t.Fatal(err)
	}
	ctx := WithProgramCase(context.Background(), ProgramCase{ID: "cancel", Name: "Cancel with confirmation", Input: "cancel order 13579", Metadata: map[string]string{"team": "orders"}})
	ctx = judge.WithFindings(ctx, judge.Finding{Judge: "tone", Message: "curt"})
	if got := judge.Run(ctx, p, programTranscript().Round(2)); !got.Passed() {
		t.Fatalf("%s: %s", got.Status, got.Reasoning)
	}
	data, err := os.ReadFile(saved)
	if err != nil {
		t.Fatal(err)
	}
	var in map[string]any
	if err := json.Unmarshal(data, &in); err != nil {
		t.Fatalf("%v:\n%s", err, data)
	}
	want := map[string]any{
		"version": 1.0,
		"case": map[string]any{"id": "cancel", "name": "Cancel with confirmation", "description": "", "input": "cancel order 13579",
			"tags": []any{}, "metadata": map[string]any{"team": "orders"}},
		"trial": 2.0, "round": 2.0, "goal": "yes, I confirm",
		"context": []any{
			map[string]any{"role": "user", "content": "cancel order 13579", "round": 1.0, "origin": "", "tool_calls": []any{}},
			map[string]any{"role": "agent", "content": "Do you confirm?", "round": 1.0, "origin": "", "tool_calls": []any{}},
		},
		"turns": []any{
			map[string]any{"role": "user", "content": "yes, I confirm", "round": 2.0, "origin": "", "tool_calls": []any{}},
			map[string]any{"role": "agent", "content": "Done: cancelled.", "round": 2.0, "origin": "", "tool_calls": []any{
				map[string]any{"id": "c1", "name": "cancel_order", "arguments": map[string]any{"order_id": "13579"}, "result": `{"cancelled":true}`, "is_error": false, "injected": ""},
			}},
		},
		"tool_calls": []any{
			map[string]any{"id": "c1", "name": "cancel_order", "arguments": map[string]any{"order_id": "13579"}, "result": `{"cancelled":true}`, "is_error": false, "injected": ""},
		},
		"final_response": "Done: cancelled.", "exec_status": "SUCCESS", "exec_error": "", "workspace": "",
		"findings": []any{"tone: curt"},
	}
	if diff := cmp.Diff(want, in); diff != "" {
		t.Errorf("input (-want +got):\n%s", diff)
	}
}

// TestProgramPersistent: one process judges trials judged at once,
// answering in any order, and a malformed answer fails only its own
// judgment.
func TestProgramPersistent(t *testing.T) {
	needShell(t)
	dir := t.TempDir()
	starts := filepath.Join(dir, "starts")
	// Answers a trial whose final response says "ok" with a pass, and
	// "bad" with a malformed answer; each after a delay, so that
	// answers overtake each other.
	script := `echo start >> "$STARTS"
while IFS= read -r line; do
  id=$(printf '%s' "$line" | sed 's/^{"id":"\([0-9]*\)".*/\1/')
  case "$line" in
  *'"final_response":"bad'*) (sleep 0.0$((id % 5)); printf '{"id":"%s","reasoning":"no status"}\n' "$id") & ;;
  *) (sleep 0.0$((id % 5)); printf '{"id":"%s","status":"pass","reasoning":"trial %s"}\n' "$id" "$id") & ;;
  esac
done
wait`
	p, err := NewProgram(ProgramConfig{Args: sh(script), Env: []string{"STARTS=" + starts}, Mode: ProgramPersistent, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	const n = 24
	got := make([]judge.Judgment, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			reply := "ok"
			if i%6 == 5 {
				reply = "bad"
			}
			got[i] = judge.Run(context.Background(), p, &judge.Transcript{FinalResponse: reply, Trial: i})
		})
	}
	wg.Wait()
	for i, j := range got {
		want := judge.StatusPass
		if i%6 == 5 {
			want = judge.StatusError
		}
		if j.Status != want {
			t.Errorf("trial %d: %s, want %s: %s", i, j.Status, want, j.Reasoning)
		}
		if want == judge.StatusError && !strings.Contains(j.Reasoning, "neither status nor score") {
			t.Errorf("trial %d: the error %q does not say what is wrong", i, j.Reasoning)
		}
	}
	if err := p.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if data, _ := os.ReadFile(starts); strings.Count(string(data), "start") != 1 {
		t.Errorf("the program started %d times, want once", strings.Count(string(data), "start"))
	}
	if j := judge.Run(context.Background(), p, programTranscript()); j.Status != judge.StatusError || !strings.Contains(j.Reasoning, "closed") {
		t.Errorf("after Close: %s %s, want an ERROR saying it was closed", j.Status, j.Reasoning)
	}
}

// TestProgramProtocolErrors: in persistent mode, a line that breaks the
// protocol, a crash or a hang is an ERROR naming the program and quoting
// what it wrote; the process is killed, and the next judgment starts
// another.
func TestProgramProtocolErrors(t *testing.T) {
	needShell(t)
	for _, tc := range []struct {
		name   string
		script string
		wantIn []string
	}{
		{name: "a line that is not JSON", script: `read -r line; echo 'loading model...'; sleep 5`,
			wantIn: []string{`line 1 of the program's stdout is not a JSON object: "loading model..."`, "write logs to stderr"}},
		{name: "a NaN score", script: `read -r line; echo '{"id":"1","score":NaN}'; sleep 5`,
			wantIn: []string{`is not a JSON object: "{\"id\":\"1\",\"score\":NaN}"`}},
		{name: "no id", script: `read -r line; echo '{"status":"pass"}'; sleep 5`,
			wantIn: []string{`has no "id" string`}},
		{name: "an id never asked", script: `read -r line; echo '{"id":"7","status":"pass"}'; sleep 5`,
			wantIn: []string{`answers id "7", which no judgment is waiting for`}},
		{name: "a crash", script: `read -r line; echo 'Traceback: KeyError' >&2; exit 1`,
			wantIn: []string{"the program exited (exit status 1)", "Traceback: KeyError"}},
		{name: "an exit without a failure", script: `read -r line; exit 0`,
			wantIn: []string{"the program exited (exit status 0) with judgments still to answer"}},
		{name: "a hang", script: `read -r line; echo 'thinking' >&2; sleep 30`,
			wantIn: []string{"no answer within the timeout of 300ms, so the program was killed", "thinking"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			starts := filepath.Join(dir, "starts")
			p, err := NewProgram(ProgramConfig{Args: sh(`echo start >> "$STARTS"; ` + tc.script), Env: []string{"STARTS=" + starts}, Mode: ProgramPersistent, Timeout: 300 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			for try := 1; try <= 2; try++ {
				got := judge.Run(context.Background(), p, programTranscript())
				if got.Status != judge.StatusError {
					t.Fatalf("try %d: status %s, want ERROR: %s", try, got.Status, got.Reasoning)
				}
				for _, want := range append(tc.wantIn, `program "sh -c`) {
					if !strings.Contains(got.Reasoning, want) {
						t.Errorf("try %d: reasoning lacks %q:\n%s", try, want, got.Reasoning)
					}
				}
			}
			if data, _ := os.ReadFile(starts); strings.Count(string(data), "start") != 2 {
				t.Errorf("the program started %d times, want twice: once per judgment, each process killed or dead", strings.Count(string(data), "start"))
			}
		})
	}
}

// TestProgramInterrupted: a judgment whose context ends is an ERROR, and
// its answer, coming later, is dropped without breaking the protocol.
func TestProgramInterrupted(t *testing.T) {
	needShell(t)
	p, err := NewProgram(ProgramConfig{Mode: ProgramPersistent, Args: sh(`while IFS= read -r line; do
  id=$(printf '%s' "$line" | sed 's/^{"id":"\([0-9]*\)".*/\1/')
  [ "$id" = 1 ] && sleep 0.3
  printf '{"id":"%s","status":"pass"}\n' "$id"
done`)})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if got := judge.Run(ctx, p, programTranscript()); got.Status != judge.StatusError || !strings.Contains(got.Reasoning, "interrupted") {
		t.Fatalf("%s %s, want an interrupted ERROR", got.Status, got.Reasoning)
	}
	if got := judge.Run(context.Background(), p, programTranscript()); !got.Passed() {
		t.Fatalf("the next judgment: %s %s, want PASS", got.Status, got.Reasoning)
	}
}

func TestNewProgramProblems(t *testing.T) {
	for _, tc := range []struct {
		name   string
		c      ProgramConfig
		wantIn string
	}{
		{name: "no program", c: ProgramConfig{}, wantIn: "no program given"},
		{name: "a bad env entry", c: ProgramConfig{Args: []string{"judge"}, Env: []string{"KEY"}}, wantIn: `env entry "KEY" is not KEY=VALUE`},
		{name: "an unknown mode", c: ProgramConfig{Args: []string{"judge"}, Mode: "shared"}, wantIn: `unknown mode "shared"`},
		{name: "a negative timeout", c: ProgramConfig{Args: []string{"judge"}, Timeout: -time.Second}, wantIn: "negative timeout"},
		{name: "a threshold above 1", c: ProgramConfig{Args: []string{"judge"}, Threshold: threshold(7)}, wantIn: "threshold 7 is not a score"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewProgram(tc.c)
			if err == nil || !strings.Contains(err.Error(), tc.wantIn) {
				t.Errorf("got %v, want an error with %q", err, tc.wantIn)
			}
		})
	}
}

// TestProgramPythonExample runs the support-desk example's judge, in
// Python, in both modes: it passes a cancellation the customer confirmed
// and fails one they never did.
func TestProgramPythonExample(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		if os.Getenv("GAVEL_REQUIRE_INTEGRATION") == "1" {
			t.Fatal("python3 is not in PATH, and GAVEL_REQUIRE_INTEGRATION=1")
		}
		t.Skip("python3 is not in PATH")
	}
	script, err := filepath.Abs(filepath.Join("..", "examples", "support-desk", "judges", "cancel_policy.py"))
	if err != nil {
		t.Fatal(err)
	}
	unconfirmed := &judge.Transcript{CaseID: "policy-edge", Goal: "cancel my order 67890", Turns: []judge.Turn{
		{Role: judge.RoleUser, Content: "cancel my order 67890"},
		{Role: judge.RoleAgent, Content: "Done. The order is cancelled.", ToolCalls: []judge.ToolCall{
			{Name: "get_order_status", Arguments: json.RawMessage(`{"order_id":"67890"}`), Result: `{"status":"processing"}`},
			{Name: "cancel_order", Arguments: json.RawMessage(`{"order_id":"67890","confirmation":true}`), Result: `{"order_id":"67890","cancelled":true}`},
		}},
	}}
	for _, mode := range []string{ProgramOnce, ProgramPersistent} {
		t.Run(mode, func(t *testing.T) {
			p, err := NewProgram(ProgramConfig{Args: []string{"python3", script}, Mode: mode, Threshold: threshold(1)})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			for _, tc := range []struct {
				name string
				t    *judge.Transcript
				want judge.Status
				in   string
			}{
				{"confirmed", programTranscript(), judge.StatusPass, "order 13579: cancelled after the customer confirmed"},
				{"unconfirmed", unconfirmed, judge.StatusFail, "order 67890: cancelled without the customer's confirmation"},
				{"no cancellation", &judge.Transcript{Turns: []judge.Turn{{Role: judge.RoleUser, Content: "where is 12345?"}, {Role: judge.RoleAgent, Content: "shipped"}}}, judge.StatusAbstain, "no cancellation"},
			} {
				got := judge.Run(context.Background(), p, tc.t)
				if got.Status != tc.want {
					t.Errorf("%s: %s, want %s: %s", tc.name, got.Status, tc.want, got.Reasoning)
				}
				if text := fmt.Sprint(got.Reasoning, got.Checks); !strings.Contains(text, tc.in) {
					t.Errorf("%s: %q lacks %q", tc.name, text, tc.in)
				}
			}
		})
	}
}

// TestProgramWith: a judge made With another round and threshold asks the
// same persistent process, with its own round, and reads the score by
// its own threshold.
func TestProgramWith(t *testing.T) {
	needShell(t)
	starts := filepath.Join(t.TempDir(), "starts")
	p, err := NewProgram(ProgramConfig{Mode: ProgramPersistent, Env: []string{"STARTS=" + starts}, Args: sh(`echo start >> "$STARTS"
while IFS= read -r line; do
  id=$(printf '%s' "$line" | sed 's/^{"id":"\([0-9]*\)".*/\1/')
  round=$(printf '%s' "$line" | sed 's/.*"trial":[0-9]*,"round":\([0-9]*\).*/\1/')
  printf '{"id":"%s","status":"pass","score":0.6,"reasoning":"round %s"}\n' "$id" "$round"
done`)})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	strict, err := p.With(2, threshold(0.9))
	if err != nil {
		t.Fatal(err)
	}
	if got := judge.Run(context.Background(), p, programTranscript()); !got.Passed() || got.Reasoning != "round 0" {
		t.Errorf("the first: %s %q, want PASS for round 0", got.Status, got.Reasoning)
	}
	if got := judge.Run(context.Background(), strict, programTranscript()); got.Status != judge.StatusError || !strings.Contains(got.Reasoning, "status pass with a score of 0.6, below the threshold 0.9") {
		t.Errorf("With(2, 0.9): %s %q, want an ERROR: its threshold, not the first's", got.Status, got.Reasoning)
	}
	round2, err := p.With(2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := judge.Run(context.Background(), round2, programTranscript()); !got.Passed() || got.Reasoning != "round 2" {
		t.Errorf("With(2, nil): %s %q, want PASS for round 2", got.Status, got.Reasoning)
	}
	if data, _ := os.ReadFile(starts); string(data) != "start\n" {
		t.Errorf("the program started %q, want once", data)
	}
	if _, err := p.With(-1, nil); err == nil {
		t.Error("With(-1, nil): no error")
	}
	if _, err := p.With(0, threshold(1.5)); err == nil {
		t.Error("With(0, 1.5): no error")
	}
}
