package spec

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/gavelhq/gavel"
)

// TestStreamIsOpen: a Stream's cases, read with Each, are Open's, in the
// same order, with the same definitions, and its problems are Open's,
// on the examples and on a suite full of mistakes; Each read twice
// gives the same cases again.
func TestStreamIsOpen(t *testing.T) {
	broken := t.TempDir()
	os.MkdirAll(filepath.Join(broken, "cases"), 0o755)
	os.WriteFile(filepath.Join(broken, "gavel.yaml"), []byte(`agent: {exec: {command: [cat]}}
models: {judge: 'fake:judge'}
cases:
  - {id: a, input: hi, judge_treshold: 0.7, judge_prompt: be nice}
  - {id: a, input: hello, expected_tools: [x]}
  - cases/*.jsonl
`), 0o644)
	os.WriteFile(filepath.Join(broken, "cases", "more.jsonl"), []byte(`{"id": "c", "input": "hi", "rules": [{"contanis": "x"}]}
{"id": "d", "input": "hi", "expected_tools": ["x"], "trials": "many"}
not json
`), 0o644)
	brokenHead := t.TempDir()
	os.WriteFile(filepath.Join(brokenHead, "gavel.yaml"), []byte("agent: {exec: {command: [cat]}}\nthreshold: 1.5\ncases: [{id: a, input: hi, judge_prompt: be nice}, {id: a, input: hi}]\n"), 0o644)
	for _, dir := range []string{
		filepath.Join("..", "examples", "support-desk"),
		filepath.Join("..", "examples", "matchmaker"),
		filepath.Join("..", "examples", "property-desk"),
		jsonLinesSuite(t, 50),
		broken,
		brokenHead,
	} {
		env := registryEnv(nil)
		env.DryRun = true
		env.Registry["script"] = env.Registry["fake"]
		built, openErr := Open(dir, env)
		s, streamErr := OpenStream(dir, env)
		var streamed [][]string
		for range 2 {
			if s == nil {
				break
			}
			var got []string
			streamErr = s.Each(func(c *gavel.Case, lc LoadedCase) bool {
				got = append(got, c.ID+" "+c.Source+" "+string(lc.YAML()))
				return true
			})
			streamed = append(streamed, got)
		}
		if fmt.Sprint(openErr) != fmt.Sprint(streamErr) {
			t.Errorf("%s: Open says\n%v\nthe stream says\n%v", dir, openErr, streamErr)
		}
		if built == nil {
			continue
		}
		var want []string
		for _, c := range built.Suite.Cases {
			want = append(want, c.ID+" "+c.Source+" "+string(built.Definition(c.ID)))
		}
		for i, got := range streamed {
			if !slices.Equal(got, want) {
				t.Errorf("%s: reading %d streamed\n%q\nOpen built\n%q", dir, i+1, got, want)
			}
		}
		if fmt.Sprint(s.Warnings) != fmt.Sprint(built.Warnings) {
			t.Errorf("%s: the stream warns\n%v\nOpen warns\n%v", dir, s.Warnings, built.Warnings)
		}
		if !s.Rereadable() {
			t.Errorf("%s: not rereadable, though its files are regular files", dir)
		}
		built.Close()
		s.Close()
	}
}

// A case with a problem stops the cases handed over: those after it are
// read, for their problems, but not handed to a run.
func TestStreamStopsAtAProblem(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "gavel.yaml"), []byte("agent: {exec: {command: [cat]}}\ncases: [cases.jsonl]\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "cases.jsonl"), []byte(`{"id": "a", "input": "hi", "expected_tools": ["x"]}
{"id": "b", "input": "hi", "expected_tools": ["x"], "trials": "many"}
{"id": "c", "input": "hi", "expected_tools": ["x"]}
{"id": "d", "input": "hi"}
`), 0o644)
	env := registryEnv(nil)
	env.DryRun = true
	s, err := OpenStream(dir, env)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var got []string
	err = s.Each(func(c *gavel.Case, _ LoadedCase) bool { got = append(got, c.ID); return true })
	if !slices.Equal(got, []string{"a"}) {
		t.Errorf("cases handed over: %v, want [a]", got)
	}
	want := filepath.Join(dir, "cases.jsonl") + ":2:"
	if err == nil || !containsAll(err.Error(), want, "case d: nothing to judge") {
		t.Errorf("Each says %v, want the problems of lines 2 and 4", err)
	}
}

// A FIFO can be read once: a suite whose cases are in one is not
// Rereadable.
func TestStreamOfAPipeIsNotRereadable(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "gavel.yaml"), []byte("agent: {exec: {command: [cat]}}\ncases: [cases.jsonl]\n"), 0o644)
	if err := syscall.Mkfifo(filepath.Join(dir, "cases.jsonl"), 0o600); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	env := registryEnv(nil)
	env.DryRun = true
	s, err := OpenStream(dir, env)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Rereadable() {
		t.Error("a suite whose cases are in a FIFO is rereadable")
	}
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}
