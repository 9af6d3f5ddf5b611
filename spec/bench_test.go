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
