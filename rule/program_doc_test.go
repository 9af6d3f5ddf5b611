package rule

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/judge"
)

// needProgram skips a test whose interpreter is not installed, or fails
// it when GAVEL_REQUIRE_INTEGRATION=1 (CI installs python3 and node).
func needProgram(t *testing.T, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		if os.Getenv("GAVEL_REQUIRE_INTEGRATION") == "1" {
			t.Fatalf("%s is required: %v", name, err)
		}
		t.Skipf("%s not found: %v", name, err)
	}
}

// docBlock returns the first code block of language lang after heading
// in docs/program-judges.md, written to a file of dir named name.
func docBlock(t *testing.T, heading, lang, dir, name string) string {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "docs", "program-judges.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "\n"+heading+"\n")
	if ok {
		_, section, ok = strings.Cut(section, "```"+lang+"\n")
	}
	if ok {
		section, _, ok = strings.Cut(section, "\n```")
	}
	if !ok {
		t.Fatalf("docs/program-judges.md has no %s block under %q", lang, heading)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(section+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// refundTranscript is a trial whose agent says reply, having issued a
// refund of amount (none when 0).
func refundTranscript(reply string, amount int) *judge.Transcript {
	turn := judge.Turn{Role: judge.RoleAgent, Content: reply}
	if amount > 0 {
		args, _ := json.Marshal(map[string]any{"order_id": "12345", "amount": amount})
		turn.ToolCalls = []judge.ToolCall{{ID: "call_1", Name: "issue_refund", Arguments: args, Result: `{"refunded": true}`}}
	}
	return &judge.Transcript{CaseID: "refund", Goal: "Refund order 12345", Turns: []judge.Turn{{Role: judge.RoleUser, Content: "Refund order 12345"}, turn}}
}

// TestProgramDocJudges runs the judges of docs/program-judges.md, in
// Python and in JavaScript, in both modes, so that the page stays true.
func TestProgramDocJudges(t *testing.T) {
	for _, lang := range []struct {
		name, heading, block, file, interpreter string
	}{
		{"python", "## A judge in Python", "python", "refund_policy.py", "python3"},
		{"javascript", "## A judge in JavaScript (Node)", "js", "refund_policy.mjs", "node"},
	} {
		t.Run(lang.name, func(t *testing.T) {
			needProgram(t, lang.interpreter)
			script := docBlock(t, lang.heading, lang.block, t.TempDir(), lang.file)
			for _, mode := range []string{ProgramOnce, ProgramPersistent} {
				t.Run(mode, func(t *testing.T) {
					p, err := NewProgram(ProgramConfig{Args: []string{lang.interpreter, script}, Mode: mode, Env: []string{"POLICY_LIMIT=100"}})
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
						{"a refund kept to policy", refundTranscript("Done: $40 is on its way back to your card.", 40), judge.StatusPass, "refund policy kept"},
						{"a refund over the limit", refundTranscript("Refunded in full.", 500), judge.StatusFail, "refund of 500, limit 100"},
						{"a refund promised, never issued", refundTranscript("You will be refunded.", 0), judge.StatusFail, "no issue_refund succeeded"},
						{"no refund", refundTranscript("Your order ships tomorrow.", 0), judge.StatusAbstain, "no refund in this trial"},
					} {
						got := judge.Run(context.Background(), p, tc.t)
						if got.Status != tc.want || !strings.Contains(got.Reasoning, tc.in) {
							t.Errorf("%s: %s %q, want %s with %q", tc.name, got.Status, got.Reasoning, tc.want, tc.in)
						}
					}
				})
			}
		})
	}
}

// TestProgramDocPromptfooWrapper runs promptfoo Python assertions through
// the wrapper of docs/program-judges.md: a bool, a score read by the
// threshold, and a dict.
func TestProgramDocPromptfooWrapper(t *testing.T) {
	needProgram(t, "python3")
	dir := t.TempDir()
	wrapper := docBlock(t, "## Bringing promptfoo Python assertions", "python", dir, "promptfoo_assert.py")
	for _, tc := range []struct {
		name, assertion string
		threshold       *float64
		want            judge.Status
		in              string
	}{
		{"a bool", "def get_assert(output, context):\n    return 'refund' in output.lower()\n", nil, judge.StatusPass, ""},
		{"a score", "def get_assert(output, context):\n    return 0.25\n", threshold(0.5), judge.StatusFail, ""},
		{"a dict", "def get_assert(output, context):\n    return {'pass': False, 'score': 0.1, 'reason': 'asked ' + context['prompt']}\n", threshold(0.5), judge.StatusFail, "asked Refund order 12345"},
		{"a dict that contradicts itself", "def get_assert(output, context):\n    return {'pass': True, 'score': 0.1, 'reason': 'ok'}\n", threshold(0.5), judge.StatusError, "status pass with a score of 0.1, below the threshold 0.5"},
		{"an exception", "def get_assert(output, context):\n    return context['nope']\n", nil, judge.StatusError, "the program could not judge: KeyError: 'nope'"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assertion := filepath.Join(t.TempDir(), "assertion.py")
			if err := os.WriteFile(assertion, []byte(tc.assertion), 0o644); err != nil {
				t.Fatal(err)
			}
			p, err := NewProgram(ProgramConfig{Args: []string{"python3", wrapper, assertion}, Threshold: tc.threshold})
			if err != nil {
				t.Fatal(err)
			}
			got := judge.Run(context.Background(), p, refundTranscript("Refunded in full.", 40))
			if got.Status != tc.want || !strings.Contains(got.Reasoning, tc.in) {
				t.Errorf("%s %q, want %s with %q", got.Status, got.Reasoning, tc.want, tc.in)
			}
		})
	}
}

// TestProgramDocInput holds the input shown in docs/program-judges.md to
// what a program is given: the same fields, at every level.
func TestProgramDocInput(t *testing.T) {
	doc := docBlock(t, "## What the program reads (version 1)", "json", t.TempDir(), "input.json")
	data, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	var shown map[string]any
	if err := json.Unmarshal(data, &shown); err != nil {
		t.Fatalf("the documented input is not JSON: %v", err)
	}
	real, err := programInputOf(context.Background(), refundTranscript("Done.", 40), 0).marshal()
	if err != nil {
		t.Fatal(err)
	}
	var given map[string]any
	if err := json.Unmarshal(real, &given); err != nil {
		t.Fatal(err)
	}
	if got, want := jsonKeys("", shown), jsonKeys("", given); !slices.Equal(got, want) {
		t.Errorf("the documented input has the fields\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// jsonKeys lists the paths of the keys of v, lists read by their last
// element.
func jsonKeys(prefix string, v any) []string {
	var out []string
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if k == "arguments" || k == "metadata" {
				out = append(out, prefix+"."+k) // free-form
				continue
			}
			out = append(out, prefix+"."+k)
			out = append(out, jsonKeys(prefix+"."+k, e)...)
		}
	case []any:
		if len(v) > 0 {
			out = jsonKeys(prefix+"[]", v[len(v)-1])
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
