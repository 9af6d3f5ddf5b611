package spec

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkOpenJSONLines opens (loads, checks and builds, dry) a suite of
// 10,000 JSON Lines cases, each with an expected tool call, metadata and
// an LLM judge: what gavel validate does. bench/README.md has figures.
func BenchmarkOpenJSONLines(b *testing.B) {
	const cases = 10_000
	dir := jsonLinesSuite(b, cases)
	env := registryEnv(nil)
	env.DryRun = true
	b.ReportAllocs()
	for b.Loop() {
		built, err := Open(dir, env)
		if err != nil {
			b.Fatal(err)
		}
		built.Close()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/cases, "ns/case")
}

// jsonLinesSuite writes a suite of n JSON Lines cases, each with an
// expected tool call, metadata and an LLM judge.
func jsonLinesSuite(b testing.TB, cases int) string {
	dir := b.TempDir()
	f, err := os.Create(filepath.Join(dir, "cases.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for i := range cases {
		fmt.Fprintf(w, `{"id": "c%d", "input": "where is my order %d?", "expected_tool_calls": [{"name": "get_order_status", "args": {"order_id": "%d"}}], "judge_prompt": "The response gives the status.", "tags": ["lookup"], "metadata": {"source": "trace"}}`+"\n", i, 10000+i, 10000+i)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	suite := "agent: {exec: {command: [cat]}}\nmodels: {judge: 'fake:judge'}\ncases: [cases.jsonl]\n"
	if err := os.WriteFile(filepath.Join(dir, "gavel.yaml"), []byte(suite), 0o644); err != nil {
		b.Fatal(err)
	}
	return dir
}

// TestValidateIsOpen: Validate finds what Open finds, problems and cases,
// without keeping the suite.
func TestValidateIsOpen(t *testing.T) {
	broken := t.TempDir()
	os.MkdirAll(filepath.Join(broken, "cases"), 0o755)
	os.WriteFile(filepath.Join(broken, "gavel.yaml"), []byte(`agent: {exec: {command: [cat]}}
models: {judge: 'fake:judge'}
threshold: 1.5
cases:
  - {id: a, input: hi, judge_treshold: 0.7, judge_prompt: be nice}
  - {id: a, input: hello, expected_tools: [x]}
  - cases/*.jsonl
`), 0o644)
	os.WriteFile(filepath.Join(broken, "cases", "more.jsonl"), []byte(`{"id": "c", "input": "hi", "rules": [{"contanis": "x"}]}
{"id": "d", "input": "hi", "expected_tools": ["x"], "trials": "many"}
not json
`), 0o644)
	for _, dir := range []string{
		filepath.Join("..", "examples", "support-desk"),
		filepath.Join("..", "examples", "matchmaker"),
		filepath.Join("..", "examples", "property-desk"),
		broken,
	} {
		env := registryEnv(nil)
		env.DryRun = true
		env.Registry["script"] = env.Registry["fake"]
		built, openErr := Open(dir, env)
		v, validateErr := Validate(dir, env)
		if (dir == broken) != (validateErr != nil) {
			t.Errorf("%s: Validate says %v", dir, validateErr)
		}
		if fmt.Sprint(openErr) != fmt.Sprint(validateErr) {
			t.Errorf("%s: Open says\n%v\nValidate says\n%v", dir, openErr, validateErr)
		}
		if built != nil {
			if v == nil || v.Cases != len(built.Suite.Cases) || v.File != built.Suite.File {
				t.Errorf("%s: Validate found %+v, Open built %d cases of %s", dir, v, len(built.Suite.Cases), built.Suite.File)
			}
			built.Close()
		}
	}
}

// BenchmarkValidateJSONLines is BenchmarkOpenJSONLines with Validate:
// the cases are built and let go.
func BenchmarkValidateJSONLines(b *testing.B) {
	dir := jsonLinesSuite(b, 10_000)
	env := registryEnv(nil)
	env.DryRun = true
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Validate(dir, env); err != nil {
			b.Fatal(err)
		}
	}
}
