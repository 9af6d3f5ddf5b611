package rule_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/rule"
)

// FileContent checks a file the agent wrote in its workspace; a relative
// path is resolved against the transcript's workspace.
func ExampleFileContent() {
	workspace, err := os.MkdirTemp("", "gavel-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(workspace)
	// What the agent left behind.
	if err := os.WriteFile(filepath.Join(workspace, "greeting.txt"), []byte("Hello, world!\n"), 0o644); err != nil {
		panic(err)
	}
	t := &judge.Transcript{Workspace: workspace}

	for _, want := range []string{"world", "moon"} {
		j, err := rule.FileContent("greeting.txt", rule.MatchContains, want)
		if err != nil {
			panic(err)
		}
		got := judge.Run(context.Background(), j, t)
		fmt.Println(got.Name, got.Status, "-", got.Reasoning)
	}
	// Output:
	// file_content "greeting.txt" PASS - file "greeting.txt" contains "world"
	// file_content "greeting.txt" FAIL - file "greeting.txt" does not contain "moon"; it holds "Hello, world!\n"
}

// Command runs a program in the workspace and checks its exit code and
// output; each appears as a check in the judgment.
func ExampleCommand() {
	workspace, err := os.MkdirTemp("", "gavel-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(workspace)

	j, err := rule.Command(rule.Cmd{Args: []string{"go", "version"}, Stdout: `^go version go\d`})
	if err != nil {
		panic(err)
	}
	got := judge.Run(context.Background(), j, &judge.Transcript{Workspace: workspace})
	fmt.Println(got.Name, got.Status)
	for _, c := range got.Checks {
		fmt.Printf("%s: %v (%s)\n", c.Name, c.Passed, c.Message)
	}
	// Output:
	// command "go version" PASS
	// exit code: true (exit code 0)
	// stdout: true (stdout matches /^go version go\d/)
}
