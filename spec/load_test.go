package spec_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel/spec"
)

// suiteDir writes files (path → content, paths relative and slashed)
// into a new temporary directory and returns the directory.
func suiteDir(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// problemLines returns err's problems one a line, as "file:line:col:
// message", with the paths relative to dir.
func problemLines(t *testing.T, dir string, err error) []string {
	t.Helper()
	var problems spec.Problems
	if !errors.As(err, &problems) {
		t.Fatalf("got error %v (%T), want spec.Problems", err, err)
	}
	lines := make([]string, len(problems))
	for i, p := range problems {
		lines[i] = strings.ReplaceAll(p.String(), dir+string(filepath.Separator), "")
	}
	return lines
}

// hasProblems fails the test unless each of want starts one of the
// problems of err (in any order).
func hasProblems(t *testing.T, dir string, err error, want ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no problems, want:\n%s", strings.Join(want, "\n"))
	}
	got := problemLines(t, dir, err)
	for _, w := range want {
		if !slices.ContainsFunc(got, func(line string) bool { return strings.HasPrefix(line, w) }) {
			t.Errorf("missing problem\nwant: %s\ngot:\n%s", w, strings.Join(got, "\n"))
		}
	}
}

// exactProblems fails the test unless err's problems are want, in order,
// each line starting with its want (so that a list of fields ending a
// message may grow).
func exactProblems(t *testing.T, dir string, err error, want ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no problems, want:\n%s", strings.Join(want, "\n"))
	}
	got := problemLines(t, dir, err)
	ok := len(got) == len(want)
	for i := 0; ok && i < len(got); i++ {
		ok = strings.HasPrefix(got[i], want[i])
	}
	if !ok {
		t.Errorf("problems:\ngot:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// placedProblems is exactProblems where a wanted problem of the suite
// file written without a place ("gavel.yaml: agent.go ...") must have a
// line and a column, which the comparison leaves out.
func placedProblems(t *testing.T, dir string, err error, want ...string) {
	t.Helper()
	var ps spec.Problems
	if !errors.As(err, &ps) {
		t.Fatalf("got %v, want problems", err)
	}
	placed := slices.Clone(ps)
	for i, p := range placed {
		if i >= len(want) || !strings.HasPrefix(want[i], "gavel.yaml: ") {
			continue
		}
		if p.Line == 0 || p.Column == 0 {
			t.Errorf("problem %q has no line and column", p)
		}
		placed[i].Line, placed[i].Column = 0, 0
	}
	exactProblems(t, dir, placed, want...)
}

// agentYAML is an agent that builds without starting anything.
const agentYAML = "agent: {exec: {command: [cat]}}\n"

func TestLoadProblems(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{
			name: "syntax error",
			files: map[string]string{"gavel.yaml": agentYAML + `cases:
	- id: a
`},
			want: []string{"gavel.yaml:3: found character that cannot start any token"},
		},
		{
			// The parser's errors came a line early (yaml.v3 counts their
			// lines from 0), and said nothing of what to do.
			name: "an unquoted question in a flow mapping",
			files: map[string]string{"gavel.yaml": agentYAML + `cases:
  - id: a
    rounds:
      - {prompt: "Where's order 12345?", expected_tools: [x]}
      - {prompt: Which order was it?, rules: [{contains: "12345"}]}
`},
			want: []string{`gavel.yaml:6:18: did not find expected ',' or '}': a value inside { } or [ ] that holds ": ", "?", "#" or "," needs quotes`},
		},
		{
			name: "key given twice",
			files: map[string]string{"gavel.yaml": agentYAML + `name: a
name: b
cases: []
`},
			want: []string{`gavel.yaml:3: mapping key "name" already defined at line 2`},
		},
		{
			name: "unknown case field",
			files: map[string]string{"gavel.yaml": agentYAML + `cases:
  - id: a
    input: hi
    judge_prompt: be nice
    judge_treshold: 0.7
`},
			want: []string{`gavel.yaml:6:5: unknown field "judge_treshold" in a case: did you mean "judge_threshold"?`},
		},
		{
			name: "unknown suite field",
			files: map[string]string{"gavel.yaml": agentYAML + `treshold: 0.8
cases: []
`},
			want: []string{`gavel.yaml:2:1: unknown field "treshold" in the suite: did you mean "threshold"?`},
		},
		{
			name: "unknown field, nothing close",
			files: map[string]string{"gavel.yaml": agentYAML + `xyzzy_plugh: 1
cases: []
`},
			want: []string{`gavel.yaml:2:1: unknown field "xyzzy_plugh" in the suite: the fields are `},
		},
		{
			name: "unknown fields deep down",
			files: map[string]string{"gavel.yaml": `agent:
  builtin:
    sytem_prompt: hi
    mcp:
      - {name: orders, comand: [orders-mcp]}
models: {jugde: script:judge.yaml}
cases:
  - id: a
    rounds:
      - promt: hi
        rules: [{contanis: x}]
    judges:
      - {rubrik: be nice}
      - jury: {jurors: [{rubric: x, treshold: 0.5}], stratgy: average}
    checks: [{sql: {dsn: x.db, qurey: SELECT 1}}]
    setup: [{comand: [true]}]
    persona: {name: Dana, goall: find out}
    expected_tool_calls: [{name: get, ags: {}}]
`},
			want: []string{
				`gavel.yaml:3:5: unknown field "sytem_prompt" in a builtin agent: did you mean "system_prompt"?`,
				`gavel.yaml:5:24: unknown field "comand" in an MCP server: did you mean "command"?`,
				`gavel.yaml:6:10: unknown field "jugde" in the models: did you mean "judge"?`,
				`gavel.yaml:10:9: unknown field "promt" in a round: did you mean "prompt"?`,
				`gavel.yaml:11:18: unknown kind of judge "contanis": did you mean "contains"?`,
				`gavel.yaml:13:10: unknown kind of judge "rubrik": did you mean "rubric"?`,
				`gavel.yaml:14:37: unknown field "treshold" in a rubric judge: did you mean "threshold"?`,
				`gavel.yaml:14:54: unknown field "stratgy" in a jury: did you mean "strategy"?`,
				`gavel.yaml:15:32: unknown field "qurey" in an SQL check: did you mean "query"?`,
				`gavel.yaml:16:14: unknown field "comand" in a setup step: did you mean "command"?`,
				`gavel.yaml:17:27: unknown field "goall" in a persona: did you mean "goal"?`,
				`gavel.yaml:18:39: unknown field "ags" in an expected tool call: did you mean "args"?`,
			},
		},
		{
			name: "values of the wrong type",
			files: map[string]string{"gavel.yaml": agentYAML + `trials: many
cases:
  - id: a
    input: hi
    expected_tools: get_order_status
`},
			want: []string{
				`gavel.yaml:2:9: trials: want a whole number, got a string ("many")`,
				`gavel.yaml:6:21: cases[0].expected_tools: want a list, got a string ("get_order_status")`,
			},
		},
		{
			name:  "glob matching nothing",
			files: map[string]string{"gavel.yaml": agentYAML + "cases: [cases/*.jsonl]\n"},
			want:  []string{`gavel.yaml:2: cases "cases/*.jsonl" match no file (relative to `},
		},
		{
			name:  "missing case file",
			files: map[string]string{"gavel.yaml": agentYAML + "cases:\n  - cases.yaml\n"},
			want:  []string{`gavel.yaml:3: cases "cases.yaml" match no file (relative to `},
		},
		{
			name:  "bad glob",
			files: map[string]string{"gavel.yaml": agentYAML + "cases: ['cases/[a.yaml']\n"},
			want:  []string{`gavel.yaml:2: cases "cases/[a.yaml": syntax error in pattern`},
		},
		{
			name: "case file that is not a list",
			files: map[string]string{
				"gavel.yaml": agentYAML + "cases: [cases.yaml]\n",
				"cases.yaml": "id: a\ninput: hi\n",
			},
			want: []string{"cases.yaml:1:1: a case file holds a list of cases"},
		},
		{
			name: "case that is not a mapping",
			files: map[string]string{
				"gavel.yaml": agentYAML + "cases: [cases.yaml]\n",
				"cases.yaml": "- id: a\n  input: hi\n- just a sentence\n",
			},
			want: []string{"cases.yaml:3:3: a case is a mapping of fields (id, input, ...)"},
		},
		{
			name: "empty case file",
			files: map[string]string{
				"gavel.yaml": agentYAML + "cases: [cases.yaml]\n",
				"cases.yaml": "# nothing yet\n",
			},
			want: []string{"cases.yaml: the file is empty"},
		},
		{
			name: "bad lines of a JSON Lines file",
			files: map[string]string{
				"gavel.yaml": agentYAML + "cases: [cases/*.jsonl]\n",
				"cases/a.jsonl": `{"id": "a", "input": "hi", "expected_tools": ["x"]}

{"id": "b", "inptu": "hi"}
{"id": "c", "input": "hi", "trials": "many"}
{"id": "d", "input": "hi"
[1, 2]
{"id": "e", "input": "hi", "rules": [{"contanis": "x"}]}
{"id": "f", "input": "hi", "rounds": [{"prompt": "a", "expected_tool_calls": [{"name": "x", "min": "two"}]}]}
`,
			},
			want: []string{
				`cases/a.jsonl:3:13: unknown field "inptu" in a case: did you mean "input"?`,
				`cases/a.jsonl:4:38: trials: want a whole number, got a string ("many")`,
				"cases/a.jsonl:5: not JSON: unexpected EOF",
				"cases/a.jsonl:6:1: a case is a mapping of fields (id, input, ...)",
				`cases/a.jsonl:7:39: unknown kind of judge "contanis": did you mean "contains"?`,
				`cases/a.jsonl:8:100: rounds[0].expected_tool_calls[0].min: want a whole number, got a string ("two")`,
			},
		},
		{
			name: "every problem of every file at once",
			files: map[string]string{
				"gavel.yaml": agentYAML + `trials: many
cases:
  - id: a
    input: hi
    expected_tols: [x]
  - cases/*.yaml
  - cases/*.jsonl
  - more/*.yaml
`,
				"cases/b.yaml":  "- id: b\n  input: hi\n  forbiden_tools: [x]\n",
				"cases/c.yaml":  "- id: c\n  input: [hi]\n",
				"cases/d.jsonl": `{"id": "d", "input": "hi", "expected_tool_calls": [{"name": "x", "args": {}, "arg": 1}]}` + "\n",
			},
			want: []string{
				"cases/b.yaml:3:3: unknown field \"forbiden_tools\" in a case: did you mean \"forbidden_tools\"?",
				"cases/c.yaml:2:10: input: want a string, got a list",
				"cases/d.jsonl:1:78: unknown field \"arg\" in an expected tool call: did you mean \"args\"?",
				`gavel.yaml:2:9: trials: want a whole number, got a string ("many")`,
				"gavel.yaml:6:5: unknown field \"expected_tols\" in a case: did you mean \"expected_tools\"?",
				"gavel.yaml:9: cases \"more/*.yaml\" match no file",
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := suiteDir(t, tc.files)
			_, err := spec.Load(dir)
			exactProblems(t, dir, err, tc.want...)
		})
	}
}

func TestLoadNoSuite(t *testing.T) {
	dir := suiteDir(t, map[string]string{"README.md": "not a suite"})
	for _, tc := range []struct {
		name, path, want string
	}{
		{"no such path", filepath.Join(dir, "missing.yaml"), "no suite at "},
		{"directory without a suite file", dir, "no suite in directory "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := spec.Load(tc.path)
			var problems spec.Problems
			if err == nil || errors.As(err, &problems) || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("got %v, %v; want an error starting %q that is no spec.Problems", l, err, tc.want)
			}
		})
	}
}

// loadedCase is what TestLoadCases compares of a spec.LoadedCase.
type loadedCase struct {
	ID, Input, Source string
}

func TestLoadCases(t *testing.T) {
	dir := suiteDir(t, map[string]string{
		// Not gavel.yaml: the other default names are tried in order.
		"suite.yml": agentYAML + `cases:
  - id: inline
    input: hi
  - cases/*.yaml
  - cases/*.jsonl
  - cases/*.json
`,
		"cases/b.yaml": `# Cases in YAML.
- id: yaml-1
  input: one

- id: yaml-2
  prompt: two
`,
		"cases/a.yaml": "- {id: yaml-0, input: zero}\n",
		"cases/c.jsonl": `{"id": "jsonl-1", "input": "one"}

{"id": "jsonl-3", "input": "three"}
`,
		"cases/d.json": `[
  {"id": "json-1", "input": "one"}
]
`,
	})
	l, err := spec.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := l.File, filepath.Join(dir, "suite.yml"); got != want {
		t.Errorf("suite file: got %s, want %s", got, want)
	}
	var got []loadedCase
	for _, c := range l.Cases {
		got = append(got, loadedCase{c.Spec.ID, c.Spec.Input + c.Spec.Prompt, strings.TrimPrefix(c.Source(), dir+string(filepath.Separator))})
	}
	want := []loadedCase{
		{"inline", "hi", "suite.yml:3"},
		{"yaml-0", "zero", "cases/a.yaml:1"},
		{"yaml-1", "one", "cases/b.yaml:2"},
		{"yaml-2", "two", "cases/b.yaml:5"},
		{"jsonl-1", "one", "cases/c.jsonl:1"},
		{"jsonl-3", "three", "cases/c.jsonl:3"},
		{"json-1", "one", "cases/d.json:2"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("cases (-want +got):\n%s", diff)
	}
}

// The store keeps each case as written, whatever file it came from.
func TestDefinitions(t *testing.T) {
	dir := suiteDir(t, map[string]string{
		"gavel.yaml": agentYAML + "models: {judge: 'fake:judge'}\ncases:\n  - id: inline # a comment\n    input: hi\n    expected_tools: [x]\n  - more.jsonl\n",
		"more.jsonl": `{"id": "line", "input": "hello", "expected_tools": ["y"]}` + "\n",
	})
	b, err := spec.Open(dir, testEnv())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for id, want := range map[string]string{"inline": "id: inline # a comment", "line": `"id": "line"`} {
		if got := string(b.Definition(id)); !strings.Contains(got, want) {
			t.Errorf("definition of %s:\n%s\nwant it to hold %q", id, got, want)
		}
	}
	cases, err := spec.LoadCases(filepath.Join(dir, "more.jsonl"))
	if err != nil || len(cases) != 1 || cases[0].Spec.ID != "line" {
		t.Errorf("LoadCases: %+v, %v", cases, err)
	}
}
