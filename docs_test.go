package gavel_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/gavelhq/gavel/spec"
)

// fence finds the fenced code blocks of a Markdown file: the language
// after the opening fence, and the block.
var fence = regexp.MustCompile("(?ms)^```([a-z]*)\n(.*?)^```")

// A block of the documentation is one a reader copies: every YAML block
// of README.md and docs/ must be YAML (a suite's cases valid cases, with
// no field the loader does not know), and every shell block must be
// shell. A case of README's "Writing a suite" was not YAML, and its error
// named no column.
func TestDocsBlocksParse(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("docs", "*.md"))
	more, _ := filepath.Glob(filepath.Join("web", "*.md"))
	files = append(append([]string{"README.md"}, files...), more...)
	_, bashErr := exec.LookPath("bash")
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		for _, m := range fence.FindAllStringSubmatchIndex(text, -1) {
			lang, block := text[m[2]:m[3]], text[m[4]:m[5]]
			where := fmt.Sprintf("%s:%d", file, strings.Count(text[:m[0]], "\n")+1)
			switch lang {
			case "yaml":
				checkYAMLBlock(t, where, block)
			case "sh", "bash", "shell":
				if bashErr != nil {
					continue
				}
				cmd := exec.Command("bash", "-n")
				cmd.Stdin = strings.NewReader(block)
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Errorf("%s: the shell block is not shell: %v\n%s", where, err, out)
				}
			}
		}
	}
}

// checkYAMLBlock checks a YAML block: it parses, and the cases of one
// that holds cases are valid cases.
func checkYAMLBlock(t *testing.T, where, block string) {
	t.Helper()
	var doc struct {
		Cases []yaml.Node `yaml:"cases"`
	}
	dec := yaml.NewDecoder(strings.NewReader(block))
	for {
		var node yaml.Node
		if err := dec.Decode(&node); err != nil {
			if err.Error() != "EOF" {
				t.Errorf("%s: the YAML block is not YAML: %v", where, err)
			}
			return
		}
		if node.Decode(&doc) != nil {
			continue // not a mapping: no cases
		}
		for i, c := range doc.Cases {
			if c.Kind != yaml.MappingNode {
				continue // a file of cases, named
			}
			def, err := yaml.Marshal(&c)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := spec.ParseCase(fmt.Sprintf("%s case %d", where, i+1), def); err != nil {
				t.Errorf("%s: case %d: %v", where, i+1, err)
			}
		}
	}
}
