package spec_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/llmtest"
	"github.com/gavelhq/gavel/llmjudge"
	"github.com/gavelhq/gavel/spec"
)

// overruled are examples as gavel calibrate --disagreements makes them.
var overruled = []gavel.Example{
	{Example: llmjudge.Example{Request: "can I return a lamp?", Response: "Sure.", Verdict: "fail", Reason: "no 30 days\nno how-to"},
		Source: gavel.ExampleSource{Run: "20261121-044512-b2b9fb", Case: "returns_policy", Trial: 1}, Judged: "pass"},
	{Example: llmjudge.Example{Response: "Returns are accepted within 30 days: start one on the Orders page.", Verdict: "pass", Criteria: "Explains returns."}},
}

// seenEnv opens "seen:" models as judge, a scripted model that passes
// everything and keeps what it was asked.
func seenEnv(judge *llmtest.Scripted) spec.Env {
	env := testEnv()
	env.Registry["seen"] = func(llm.Ref, func(string) string) (llm.Model, error) { return judge, nil }
	return env
}

// systemPrompt judges a transcript with the only case of the suite in dir
// and returns the system message its judge's model was sent.
func systemPrompt(t *testing.T, dir string, env spec.Env, model *llmtest.Scripted) string {
	t.Helper()
	b, err := spec.Open(dir, env)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	before := len(model.Calls())
	tr := &judge.Transcript{Turns: []judge.Turn{{Role: judge.RoleUser, Content: "hi"}, {Role: judge.RoleAgent, Content: "hello"}}}
	if v := judge.Run(context.Background(), b.Suite.Cases[0].Judge, tr); v.Status != judge.StatusPass {
		t.Fatalf("verdict %s: %s", v.Status, v.Reasoning)
	}
	calls := model.Calls()
	if len(calls) != before+1 {
		t.Fatalf("%d calls to the judge's model, want 1", len(calls)-before)
	}
	return calls[before].Messages[0].Content
}

// The file gavel calibrate --disagreements writes is what a judge's
// examples: reads back, the same examples; the judge shows them to its
// model; Env.Examples sees them with the file's absolute path and decides
// which the judge is given.
func TestExamplesFileRoundTrip(t *testing.T) {
	var file bytes.Buffer
	if err := spec.WriteExamples(&file, overruled, "Judgments people overruled,\nwritten by gavel calibrate --disagreements."); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(file.String(), "# Judgments people overruled,\n# written by gavel calibrate --disagreements.\n- source:") {
		t.Errorf("the file does not start with its header and a list:\n%s", file.String())
	}
	dir := suiteDir(t, map[string]string{
		"gavel.yaml":           agentYAML + "models: {judge: 'seen:judge'}\ncases:\n  - {id: a, input: hi, judges: [{rubric: polite, examples: judges/examples.yaml}]}\n",
		"judges/examples.yaml": file.String(),
		"judges/unused.yaml":   "[]\n",
	})
	got, err := spec.ReadExamples(filepath.Join(dir, "judges", "examples.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(overruled, got); diff != "" {
		t.Errorf("examples read back (-want +got):\n%s", diff)
	}

	model := &llmtest.Scripted{Rules: []llmtest.Rule{{Text: `{"reasoning":"polite","score":0.9}`}}}
	system := systemPrompt(t, dir, seenEnv(model), model)
	for _, want := range []string{"Example 1.", "Sure.", "The people's verdict: fail", "no 30 days\nno how-to", "Example 2.", "Explains returns.", "End of the examples."} {
		if !strings.Contains(system, want) {
			t.Errorf("the judge's system message has no %q:\n%s", want, system)
		}
	}
	if strings.Contains(system, "20261121-044512-b2b9fb") {
		t.Errorf("the judge's model is shown where an example came from:\n%s", system)
	}

	env := seenEnv(model)
	var files []string
	env.Examples = func(file string, examples []gavel.Example) []gavel.Example {
		files = append(files, file)
		return nil
	}
	if system := systemPrompt(t, dir, env, model); strings.Contains(system, "Example 1.") {
		t.Errorf("Env.Examples gave the judge none, and it shows some:\n%s", system)
	}
	if want := []string{filepath.Join(dir, "judges", "examples.yaml")}; !cmp.Equal(files, want) {
		t.Errorf("Env.Examples saw files %q, want %q", files, want)
	}
}

// A judge's examples may be written in the suite.
func TestExamplesInline(t *testing.T) {
	dir := suiteDir(t, map[string]string{"gavel.yaml": agentYAML + `models: {judge: 'seen:judge'}
cases:
  - id: a
    input: hi
    judges:
      - rubric: Is it polite?
        examples:
          - {request: hi, response: "go away", verdict: fail, reason: rude}
`})
	model := &llmtest.Scripted{Rules: []llmtest.Rule{{Text: `{"reasoning":"polite","score":0.9}`}}}
	if system := systemPrompt(t, dir, seenEnv(model), model); !strings.Contains(system, "go away") || !strings.Contains(system, "The people's verdict: fail") {
		t.Errorf("the inline example is not in the system message:\n%s", system)
	}
}

// A file of examples with mistakes is refused, each mistake at its line
// of the file, and the judges that name it say so; so is an inline
// example without a verdict, a file that is not there, and examples on a
// pairwise judge. A dry run (gavel validate) finds them too.
func TestExamplesProblems(t *testing.T) {
	const judges = "models: {judge: 'fake:judge'}\ncases:\n  - {id: a, input: hi, judges: [{rubric: polite, examples: examples.yaml}]}\n"
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"a verdict missing", map[string]string{
			"gavel.yaml":    agentYAML + judges,
			"examples.yaml": "# header\n- request: hi\n  response: hello\n  verdict: pass\n- request: hi\n  response: go away\n",
		}, []string{
			"examples.yaml:5:3: examples[1]: no verdict: give the people's verdict",
			"gavel.yaml:4:33: case a: the case: judges[0] (rubric): examples: examples.yaml has mistakes, each reported at its line",
		}},
		{"an unknown field", map[string]string{
			"gavel.yaml":    agentYAML + judges,
			"examples.yaml": "- response: hello\n  verdict: pass\n  verdcit: fail\n",
		}, []string{`examples.yaml:3:3: unknown field "verdcit" in an example`}},
		{"a source without its case", map[string]string{
			"gavel.yaml":    agentYAML + judges,
			"examples.yaml": "- response: hello\n  verdict: pass\n  source: {run: r1, trial: 1}\n",
		}, []string{"examples.yaml:1:3: examples[0]: source: no case"}},
		{"not a list", map[string]string{
			"gavel.yaml":    agentYAML + judges,
			"examples.yaml": "response: hello\nverdict: pass\n",
		}, []string{"examples.yaml:1:1: a file of examples is a YAML list of examples"}},
		{"not YAML", map[string]string{
			"gavel.yaml":    agentYAML + judges,
			"examples.yaml": "- response: [hello\n",
		}, []string{"examples.yaml:"}},
		{"no file", map[string]string{"gavel.yaml": agentYAML + judges},
			[]string{"gavel.yaml:4:33: case a: the case: judges[0] (rubric): examples: open examples.yaml: no such file"}},
		{"inline, a verdict that is a text", map[string]string{
			"gavel.yaml": agentYAML + "models: {judge: 'fake:judge'}\ncases:\n  - id: a\n    input: hi\n    judges:\n      - rubric: polite?\n        examples:\n          - {response: hi, verdict: \"fail\\nrude\"}\n",
		}, []string{`gavel.yaml:9:13: examples[0]: verdict "fail\nrude": a verdict is a category`}},
		{"pairwise", map[string]string{
			"gavel.yaml": agentYAML + "models: {judge: 'fake:judge'}\ncases:\n  - {id: a, input: hi, judges: [{pairwise: {criteria: c, baseline: b}, examples: [{response: hi, verdict: win}]}]}\n",
		}, []string{"gavel.yaml:4:33: case a: the case: judges[0] (pairwise): pairwise: examples do not apply"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := suiteDir(t, tc.files)
			for _, dry := range []bool{false, true} {
				env := testEnv()
				env.DryRun = dry
				b, err := spec.Open(dir, env)
				if b != nil {
					b.Close()
				}
				hasProblems(t, dir, err, tc.want...)
			}
		})
	}
	if _, err := os.Stat("examples.yaml"); err == nil {
		t.Errorf("a test wrote examples.yaml in the package's directory")
	}
}
