package main

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/internal/doccheck"
)

// A docCommand is a gavel command the docs show, and where.
type docCommand struct {
	where string
	args  []string
}

// ghExpression is a GitHub Actions expression, ${{ matrix.shard }}: the
// commands of a workflow are read with each one a number.
var ghExpression = regexp.MustCompile(`\$\{\{[^}]*\}\}`)

// docCommands returns the gavel commands of README.md's and docs/' shell
// blocks, of the run: steps of their GitHub workflows, and the gavel run
// that the args: of a step using Gavel's action makes.
func docCommands(t *testing.T) []docCommand {
	t.Helper()
	root := filepath.Join("..", "..")
	files, err := doccheck.Files(root)
	if err != nil {
		t.Fatal(err)
	}
	var cmds []docCommand
	add := func(b doccheck.Block, script string) {
		for _, c := range doccheck.Commands(script) {
			where := fmt.Sprintf("%s:%d", b.File, b.Line+c.Line)
			if b.Lang != "sh" && b.Lang != "bash" && b.Lang != "shell" {
				where = b.Where() + " (a run: step)"
			}
			cmds = append(cmds, docCommand{where, c.Args})
		}
	}
	for _, f := range files {
		blocks, err := doccheck.Blocks(root, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range blocks {
			switch b.Lang {
			case "sh", "bash", "shell":
				add(b, b.Text)
			case "yaml", "yml":
				var workflow struct {
					Jobs map[string]struct {
						Steps []struct {
							Run  string            `yaml:"run"`
							Uses string            `yaml:"uses"`
							With map[string]string `yaml:"with"`
						} `yaml:"steps"`
					} `yaml:"jobs"`
				}
				if yaml.Unmarshal([]byte(b.Text), &workflow) != nil {
					continue // not a workflow (TestDocsYAML checks it)
				}
				for _, job := range workflow.Jobs {
					for _, step := range job.Steps {
						add(b, ghExpression.ReplaceAllString(step.Run, "1"))
						if args := step.With["args"]; strings.HasPrefix(step.Uses, "gavelhq/gavel@") && args != "" {
							cmds = append(cmds, docCommand{b.Where() + " (the action's args)", append([]string{"run"}, doccheck.Words(args)...)})
						}
					}
				}
			}
		}
	}
	return cmds
}

// runsAsShown are the commands the docs' check runs as written: offline,
// quick, and writing nothing.
var runsAsShown = []string{"version", "schema", "judges", "completion"}

// Every gavel command the docs show is one the CLI takes: its command
// exists and its flags parse, with their values. Each runs with -h
// appended, which gavel reaches only once every flag before it parsed,
// so that nothing else runs; those of runsAsShown run as written. A
// command that no longer parses fails here, naming the page and line.
func TestDocsCommands(t *testing.T) {
	cmds := docCommands(t)
	if len(cmds) < 20 {
		t.Fatalf("found %d gavel commands in the docs: is the reading of shell blocks broken?", len(cmds))
	}
	for _, c := range cmds {
		args := c.args
		if len(args) == 0 || !slices.Contains(runsAsShown, args[0]) {
			args = append(slices.Clone(args), "-h")
		}
		if code, _, errs := gavelCmd(t, args...); code != eval.ExitPassed {
			t.Errorf("%s: gavel %s: exit %d, want 0\n%s", c.where, strings.Join(c.args, " "), code, errs)
		}
	}
}

// subcommands are the commands whose first argument names what they do
// (gavel users add), each with a -h of its own.
var subcommands = []string{"quarantine", "labels", "cases", "users"}

// flagName matches a flag a prose mention names: --tag, --out=x.json.
var flagName = regexp.MustCompile(`^--[a-z][a-z0-9-]*`)

// Every gavel command the docs mention in prose (`gavel run --tag`) is a
// command gavel has, and every flag the mention names is one of its
// flags. Mentions name flags without values, and placeholders in capitals,
// so they are checked against the command's -h rather than parsed.
func TestDocsMentions(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	files, err := doccheck.Files(root)
	if err != nil {
		t.Fatal(err)
	}
	helps := map[string]string{}
	checked := 0
	for _, f := range files {
		spans, err := doccheck.Spans(root, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range spans {
			words := strings.Fields(s.Text)
			if len(words) < 2 || words[0] != "gavel" || strings.ToUpper(words[1]) == words[1] {
				continue // not a command, or gavel COMMAND
			}
			cmd := words[1:2]
			if slices.Contains(subcommands, words[1]) && len(words) > 2 && !strings.HasPrefix(words[2], "-") && !strings.Contains(words[2], "|") {
				cmd = words[1:3]
			}
			key := strings.Join(cmd, " ")
			help, ok := helps[key]
			if !ok {
				code, out, errs := gavelCmd(t, append(slices.Clone(cmd), "-h")...)
				if code != eval.ExitPassed {
					t.Errorf("%s:%d: `%s`: gavel has no command %q (exit %d)\n%s", s.File, s.Line, s.Text, key, code, errs)
				}
				help = out + errs
				helps[key] = help
			}
			for _, w := range words[2:] {
				if flag := flagName.FindString(w); flag != "" && !regexp.MustCompile(regexp.QuoteMeta(flag)+`([^a-z0-9-]|$)`).MatchString(help) {
					t.Errorf("%s:%d: `%s`: gavel %s has no flag %s", s.File, s.Line, s.Text, key, flag)
				}
			}
			checked++
		}
	}
	if checked < 20 {
		t.Fatalf("checked %d mentions of gavel commands: is the reading of code spans broken?", checked)
	}
}
