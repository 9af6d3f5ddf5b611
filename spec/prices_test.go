package spec_test

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/spec"
)

// A suite prices the models Gavel's table does not know (or prices them
// otherwise), in US dollars per million tokens; the built suite lists
// them, and every model it opens, for a cost budget to check.
func TestSuitePrices(t *testing.T) {
	dir := suiteDir(t, map[string]string{"gavel.yaml": agentYAML + `models: {judge: 'fake:my-judge'}
prices:
  my-judge: {input: 0.5, output: 1.5, cached_input: 0.05}
  my-agent: {input: 0, output: 0}
cases:
  - {id: a, input: hi, judge_prompt: be kind}
`})
	env := testEnv()
	env.DryRun = true
	b, err := spec.Open(dir, env)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	want := llm.Prices{"my-judge": {Input: 0.5, Output: 1.5, CachedInput: 0.05}, "my-agent": {}}
	if diff := cmp.Diff(want, b.Prices); diff != "" {
		t.Errorf("prices (-want +got):\n%s", diff)
	}
	if !containsRef(b.Models, llm.Ref{Provider: "fake", Model: "my-judge"}) {
		t.Errorf("models %v, want fake:my-judge among them", b.Models)
	}
}

func containsRef(refs []llm.Ref, want llm.Ref) bool {
	for _, r := range refs {
		if r == want {
			return true
		}
	}
	return false
}

// A price must say both what input and output cost, neither negative,
// and name the model as its vendor does.
func TestPriceProblems(t *testing.T) {
	dir := suiteDir(t, map[string]string{"gavel.yaml": agentYAML + `models: {judge: 'fake:judge'}
prices:
  no-output: {input: 1}
  negative: {input: -1, output: 2}
  openai:gpt-5-mini: {input: 1, output: 2}
  typo: {input: 1, ouput: 2}
cases:
  - {id: a, input: hi, judge_prompt: be kind}
`})
	_, err := spec.Open(dir, testEnv())
	hasProblems(t, dir, err,
		`gavel.yaml:4:3: prices: no-output: give both input and output`,
		`gavel.yaml:5:3: prices: negative: input -1`,
		`gavel.yaml:6:3: prices: "openai:gpt-5-mini": name the model as its vendor does ("gpt-5-mini")`,
		`gavel.yaml:7:20: unknown field "ouput" in a price: did you mean "output"?`,
	)
}

// gavel run --prices reads a file of the same shape, YAML or JSON.
func TestLoadPrices(t *testing.T) {
	dir := suiteDir(t, map[string]string{
		"prices.yaml": "my-model: {input: 0.5, output: 1.5, cached_input: 0.05}\n",
		"prices.json": `{"my-model": {"input": 0.5, "output": 1.5}}`,
		"bad.yaml":    "my-model: {input: 0.5}\nother: {input: 1, output: x}\n",
		"list.yaml":   "- my-model\n",
	})
	got, err := spec.LoadPrices(filepath.Join(dir, "prices.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(llm.Prices{"my-model": {Input: 0.5, Output: 1.5, CachedInput: 0.05}}, got); diff != "" {
		t.Errorf("prices.yaml (-want +got):\n%s", diff)
	}
	got, err = spec.LoadPrices(filepath.Join(dir, "prices.json"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(llm.Prices{"my-model": {Input: 0.5, Output: 1.5}}, got); diff != "" {
		t.Errorf("prices.json (-want +got):\n%s", diff)
	}
	_, err = spec.LoadPrices(filepath.Join(dir, "bad.yaml"))
	hasProblems(t, dir, err, "bad.yaml:1:1: prices: my-model: give both input and output", "bad.yaml:2:")
	_, err = spec.LoadPrices(filepath.Join(dir, "list.yaml"))
	hasProblems(t, dir, err, "list.yaml:1:1: a prices file maps model names to prices")
	_, err = spec.LoadPrices(filepath.Join(dir, "none.yaml"))
	hasProblems(t, dir, err, "none.yaml: no such file")
}
