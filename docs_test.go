package gavel_test

import (
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/gavelhq/gavel/internal/doccheck"
	"github.com/gavelhq/gavel/llm/providers"
	"github.com/gavelhq/gavel/spec"
)

// docBlocks returns the fenced code blocks of README.md and docs/ (see
// doccheck.Files) whose language is one of langs.
func docBlocks(t *testing.T, langs ...string) []doccheck.Block {
	t.Helper()
	files, err := doccheck.Files(".")
	if err != nil {
		t.Fatal(err)
	}
	var blocks []doccheck.Block
	for _, f := range files {
		bs, err := doccheck.Blocks(".", f)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range bs {
			if slices.Contains(langs, b.Lang) {
				blocks = append(blocks, b)
			}
		}
	}
	return blocks
}

// Every YAML block of the docs is one a reader copies into a suite, so
// the suite loader checks it as gavel validate would, offline: a whole
// suite as it is; a part of one (an agent:, prices:) or of a case (its
// judges:, expected_tool_calls:), told apart by their keys, completed
// with what it leaves out (a scripted agent and models, a case) and
// checked the same way; a list of cases as a case file; and a GitHub
// workflow's steps that use Gavel's action against the action's inputs
// (cmd/gavel's TestDocsCommands parses their gavel commands). A block
// that is none of these says how to read it in a comment on the line
// before it: <!-- doc: not a suite (why) --> only parses it.
func TestDocsYAML(t *testing.T) {
	for _, b := range docBlocks(t, "yaml", "yml") {
		t.Run(b.Where(), func(t *testing.T) {
			var doc yaml.Node
			if err := yaml.Unmarshal([]byte(b.Text), &doc); err != nil {
				t.Fatalf("%s: the YAML block is not YAML: %v", b.Where(), err)
			}
			if strings.HasPrefix(b.Mark, "not a suite") || len(doc.Content) == 0 {
				return
			}
			root := doc.Content[0]
			switch {
			case root.Kind == yaml.SequenceNode:
				suite := &yaml.Node{Kind: yaml.MappingNode}
				setKey(t, suite, "cases", "[]")
				suite.Content[1] = root
				checkSuiteBlock(t, b, completeFragment(t, b, suite))
			case root.Kind != yaml.MappingNode:
				t.Errorf("%s: a YAML block that is neither a suite, a case nor a list of cases (mark it <!-- doc: not a suite (why) -->)", b.Where())
			case hasKey(root, "jobs") || hasKey(root, "on"):
				checkWorkflowBlock(t, b, root)
			default:
				checkSuiteBlock(t, b, completeFragment(t, b, root))
			}
		})
	}
}

// completeFragment returns the suite a YAML block of a suite or of a case
// belongs to, with an agent, models and a case where the block gives
// none. Models are named, not opened: the check is offline.
func completeFragment(t *testing.T, b doccheck.Block, root *yaml.Node) *yaml.Node {
	t.Helper()
	keys := mappingKeys(root)
	suiteFields, caseFields := yamlFields(reflect.TypeFor[spec.SuiteFile]()), yamlFields(reflect.TypeFor[spec.CaseSpec]())
	suite := root
	switch {
	case subset(keys, suiteFields):
	case subset(keys, caseFields):
		if !hasKey(root, "id") {
			setKey(t, root, "id", "doc")
		}
		if !hasKey(root, "input") && !hasKey(root, "prompt") && !hasKey(root, "rounds") && !hasKey(root, "persona") {
			setKey(t, root, "input", "hi")
		}
		suite = &yaml.Node{Kind: yaml.MappingNode}
		suite.Content = append(suite.Content, scalar("cases"), &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{root}})
	default:
		var unknown []string
		for _, k := range keys {
			if !suiteFields[k] && !caseFields[k] {
				unknown = append(unknown, k)
			}
		}
		t.Fatalf("%s: the YAML block is neither a suite nor a case: %s is the field of neither (a typo? or mark the block <!-- doc: not a suite (why) -->)", b.Where(), strings.Join(unknown, ", "))
	}
	if !hasKey(suite, "agent") {
		setKey(t, suite, "agent", "{}")
	}
	if agent := valueOf(suite, "agent"); agent.Kind == yaml.MappingNode &&
		!hasKey(agent, "builtin") && !hasKey(agent, "http") && !hasKey(agent, "exec") && !hasKey(agent, "go") {
		setKey(t, agent, "builtin", "{model: openai:gpt-5-mini}")
	}
	if !hasKey(suite, "models") {
		setKey(t, suite, "models", "{judge: anthropic:claude-sonnet-4-5, user: anthropic:claude-haiku-4-5}")
	}
	if !hasKey(suite, "cases") {
		setKey(t, suite, "cases", "[{id: doc, input: hi, rules: [{contains: hi}]}]")
	}
	return suite
}

// setKey adds key to a mapping node, its value written in YAML.
func setKey(t *testing.T, n *yaml.Node, key, value string) {
	t.Helper()
	var v yaml.Node
	if err := yaml.Unmarshal([]byte(value), &v); err != nil {
		t.Fatal(err)
	}
	n.Content = append(n.Content, scalar(key), v.Content[0])
}

// valueOf returns the value of key in a mapping node, or nil.
func valueOf(n *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

func scalar(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

// checkSuiteBlock validates a suite made of a block, as gavel validate
// does, in a directory of its own; a block marked <!-- doc: suite in
// DIR --> finds the files it names (scripts, prompts) in DIR. Variables
// that hold secrets are set, others not, so defaults apply.
func checkSuiteBlock(t *testing.T, b doccheck.Block, suite *yaml.Node) {
	t.Helper()
	data, err := yaml.Marshal(suite)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if from, ok := strings.CutPrefix(b.Mark, "suite in "); ok {
		entries, err := os.ReadDir(from)
		if err != nil {
			t.Fatalf("%s: %v", b.Where(), err)
		}
		for _, e := range entries {
			abs, err := filepath.Abs(filepath.Join(from, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(abs, filepath.Join(dir, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
		os.Remove(filepath.Join(dir, "gavel.yaml"))
	}
	path := filepath.Join(dir, "gavel.yaml")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	getenv := func(name string) string {
		if secretName.MatchString(name) {
			return "doc-secret"
		}
		return ""
	}
	env := spec.Env{Registry: providers.Registry(), Getenv: getenv, DryRun: true}
	if _, err := spec.Validate(path, env); err != nil {
		t.Errorf("%s: the block is not a valid suite: %v\nchecked as:\n%s", b.Where(), err, data)
	}
}

var secretName = regexp.MustCompile(`KEY|TOKEN|SECRET|PASSWORD`)

// checkWorkflowBlock checks the steps of a GitHub workflow that use
// Gavel's action: each input they give is one action.yml declares.
func checkWorkflowBlock(t *testing.T, b doccheck.Block, root *yaml.Node) {
	t.Helper()
	var action struct {
		Inputs map[string]any `yaml:"inputs"`
	}
	data, err := os.ReadFile("action.yml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, &action); err != nil {
		t.Fatal(err)
	}
	var workflow struct {
		Jobs map[string]struct {
			Steps []struct {
				Uses string         `yaml:"uses"`
				With map[string]any `yaml:"with"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := root.Decode(&workflow); err != nil {
		t.Fatalf("%s: not a GitHub workflow: %v", b.Where(), err)
	}
	for name, job := range workflow.Jobs {
		for i, step := range job.Steps {
			if !strings.HasPrefix(step.Uses, "gavelhq/gavel@") {
				continue
			}
			for input := range step.With {
				if _, ok := action.Inputs[input]; !ok {
					t.Errorf("%s: job %s, step %d: Gavel's action has no input %q (action.yml)", b.Where(), name, i+1, input)
				}
			}
		}
	}
}

func hasKey(n *yaml.Node, key string) bool { return slices.Contains(mappingKeys(n), key) }

func mappingKeys(n *yaml.Node) []string {
	var keys []string
	for i := 0; i+1 < len(n.Content); i += 2 {
		keys = append(keys, n.Content[i].Value)
	}
	return keys
}

func subset(keys []string, fields map[string]bool) bool {
	for _, k := range keys {
		if !fields[k] {
			return false
		}
	}
	return true
}

// yamlFields returns the YAML names of a struct's fields, inline ones
// included.
func yamlFields(t reflect.Type) map[string]bool {
	fields := map[string]bool{}
	for f := range t.Fields() {
		name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		switch {
		case opts == "inline":
			for k := range yamlFields(f.Type) {
				fields[k] = true
			}
		case name != "" && name != "-":
			fields[name] = true
		}
	}
	return fields
}

// Every shell block of the docs is shell.
func TestDocsShell(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	for _, b := range docBlocks(t, "sh", "bash", "shell") {
		cmd := exec.Command("bash", "-n")
		cmd.Stdin = strings.NewReader(b.Text)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: the shell block is not shell: %v\n%s", b.Where(), err, out)
		}
	}
}

// Every Go block of the docs is Go: a file, declarations, or statements,
// as a reader would paste it. Names it uses are not resolved: a snippet
// leaves out what its page says around it.
func TestDocsGo(t *testing.T) {
	for _, b := range docBlocks(t, "go") {
		var err error
		for _, src := range []string{b.Text, "package doc\n" + b.Text, "package doc\nfunc _() {\n" + b.Text + "\n}"} {
			if _, err = parser.ParseFile(token.NewFileSet(), b.Where(), src, 0); err == nil {
				break
			}
		}
		if err != nil {
			t.Errorf("%s: the Go block is not Go: %v", b.Where(), err)
		}
	}
}

// docMention is a docs page named in prose: docs/statistics.md.
var docMention = regexp.MustCompile(`\bdocs/[a-z0-9/-]+\.md\b`)

// Every relative link of README.md and docs/ leads to a file that exists,
// and to a heading of it when it names one; every docs page named in
// prose exists.
func TestDocsLinks(t *testing.T) {
	files, err := doccheck.Files(".")
	if err != nil {
		t.Fatal(err)
	}
	anchors := map[string]map[string]bool{}
	for _, f := range files {
		links, err := doccheck.Links(".", f)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range links {
			if _, err := os.Stat(l.Path); err != nil {
				t.Errorf("%s:%d: the link %s leads nowhere: %s does not exist", l.File, l.Line, l.Target, l.Path)
				continue
			}
			if l.Anchor == "" || !strings.HasSuffix(l.Path, ".md") {
				continue
			}
			if anchors[l.Path] == nil {
				if anchors[l.Path], err = doccheck.Anchors(".", l.Path); err != nil {
					t.Fatal(err)
				}
			}
			if !anchors[l.Path][l.Anchor] {
				t.Errorf("%s:%d: the link %s leads nowhere: %s has no heading #%s", l.File, l.Line, l.Target, l.Path, l.Anchor)
			}
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range docMention.FindAllString(string(data), -1) {
			if _, err := os.Stat(m); err != nil {
				t.Errorf("%s names %s, which does not exist", f, m)
			}
		}
	}
}
