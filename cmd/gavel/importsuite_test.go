package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/eval"
)

// gavel import --from promptfoo writes a suite that validates, prints
// every assertion it could not convert, and keeps each as a comment; a
// second import into the same directory is refused without --force.
func TestImportFromPromptfoo(t *testing.T) {
	config, err := filepath.Abs(filepath.Join("..", "..", "importer", "promptfoo", "testdata", "text", "promptfooconfig.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	code, stdout, stderr := gavelCmd(t, "import", "--from", "promptfoo", "-o", out, config)
	if code != eval.ExitPassed || !strings.Contains(stdout, "gavel.yaml: 6 cases, valid") {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	const want = `not converted: javascript assertion "output.length < 100"`
	cases, _ := os.ReadFile(filepath.Join(out, "cases.yaml"))
	if !strings.Contains(stderr, want) || !strings.Contains(string(cases), "# "+want) {
		t.Errorf("the JavaScript assertion is not reported:\nstderr: %s\ncases.yaml:\n%s", stderr, cases)
	}
	if code, _, stderr := gavelCmd(t, "import", "--from", "promptfoo", "-o", out, config); code != eval.ExitUsage || !strings.Contains(stderr, "already exists") {
		t.Errorf("a second import: exit %d, %s", code, stderr)
	}
	if code, _, stderr := gavelCmd(t, "import", "--from", "promptfoo", "--force", "-o", out, config); code != eval.ExitPassed {
		t.Errorf("--force: exit %d, %s", code, stderr)
	}
}

// gavel import --from openai-evals converts one eval of a registry file.
func TestImportFromOpenAIEvals(t *testing.T) {
	file, err := filepath.Abs(filepath.Join("..", "..", "importer", "openaievals", "testdata", "registry", "evals", "graded.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := gavelCmd(t, "import", "--from", "openai-evals", "--eval", "answers-fact", "-o", t.TempDir(), file)
	if code != eval.ExitPassed || !strings.Contains(stdout, "2 cases, valid") || !strings.Contains(stderr, "approximated: modelgraded spec fact") {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
}

// The flags of the two kinds of import do not mix, and say so.
func TestImportFromFlags(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--from", "promptfoo", "--format", "openai", "x.yaml"}, "--format is for importing transcripts"},
		{[]string{"--from", "promptfoo", "a.yaml", "b.yaml"}, "--from converts one source"},
		{[]string{"--from", "langsmith", "x.yaml"}, `--from "langsmith": want promptfoo or openai-evals`},
		{[]string{"--eval", "x", "chats.jsonl"}, "--eval goes with --from"},
		{[]string{"--from", "promptfoo", "-o", t.TempDir(), "no-such.yaml"}, "read the promptfoo configuration"},
	} {
		code, _, stderr := gavelCmd(t, append([]string{"import"}, tt.args...)...)
		if code != eval.ExitUsage || !strings.Contains(stderr, tt.want) {
			t.Errorf("gavel import %v: exit %d, %q, want %q", tt.args, code, stderr, tt.want)
		}
	}
}
