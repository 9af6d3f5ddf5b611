package spec_test

import (
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/openai"
	"github.com/gavelhq/gavel/spec"
)

// writeSuite writes a gavel.yaml into a new temporary directory.
func writeSuite(suite string) (dir string) {
	dir, err := os.MkdirTemp("", "gavel-example")
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "gavel.yaml"), []byte(suite), 0o644); err != nil {
		log.Fatal(err)
	}
	return dir
}

// Open loads and builds a suite. A dry run checks the model references
// without opening the models, so it needs no key: it is what
// `gavel validate` does.
func ExampleOpen() {
	dir := writeSuite(`name: support-desk
threshold: 0.8
agent: {exec: {command: [./support-agent]}}
models: {judge: 'openai:gpt-5-mini'}
cases:
  - id: case_005
    input: cancel my order 12345
    expected_tools: [get_order_status]
    forbidden_tools: [cancel_order]
    judge_prompt: The agent asks for explicit confirmation before cancelling anything.
    judge_threshold: 0.7
`)
	defer os.RemoveAll(dir)

	built, err := spec.Open(dir, spec.Env{Registry: llm.Registry{"openai": openai.Open}, DryRun: true})
	if err != nil {
		log.Fatal(err)
	}
	defer built.Close()
	fmt.Printf("%s: %d case, threshold %v\n", built.Suite.Name, len(built.Suite.Cases), built.Suite.Threshold)
	for _, c := range built.Suite.Cases {
		fmt.Printf("%s (%s): %s\n", c.ID, filepath.Base(c.Source), c.Expected)
	}
	// Output:
	// support-desk: 1 case, threshold 0.8
	// case_005 (gavel.yaml:6): calls get_order_status; never calls cancel_order; The agent asks for explicit confirmation before cancelling anything.
}

// Load reports every problem of a suite at once, where it was written,
// with the field probably meant.
func ExampleLoad() {
	dir := writeSuite(`agent: {exec: {command: [./support-agent]}}
cases:
  - id: case_005
    input: cancel my order 12345
    forbiden_tools: [cancel_order]
    judge_prompt: The agent asks for explicit confirmation before cancelling anything.
    judge_treshold: 0.7
`)
	defer os.RemoveAll(dir)

	_, err := spec.Load(dir)
	var problems spec.Problems
	if errors.As(err, &problems) {
		for _, p := range problems {
			fmt.Printf("%s:%d:%d: %s\n", filepath.Base(p.File), p.Line, p.Column, p.Message)
		}
	}
	// Output:
	// gavel.yaml:5:5: unknown field "forbiden_tools" in a case: did you mean "forbidden_tools"?
	// gavel.yaml:7:5: unknown field "judge_treshold" in a case: did you mean "judge_threshold"?
}
