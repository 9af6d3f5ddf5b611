package importer

import (
	"bytes"
	"fmt"
	"io"
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/gavelhq/gavel/judge"
)

// caseYAML is a case of the suite format as WriteCases writes it: a
// subset of spec.CaseSpec's fields, spelled as suite files spell them.
type caseYAML struct {
	ID              string            `yaml:"id"`
	Name            string            `yaml:"name,omitempty"`
	Input           string            `yaml:"input,omitempty"`
	Rounds          []roundYAML       `yaml:"rounds,omitempty"`
	ExpectedTools   []string          `yaml:"expected_tools,omitempty"`
	ExpectedNoCalls *[]string         `yaml:"expected_tool_calls,omitempty,flow"`
	Tags            []string          `yaml:"tags,flow"`
	Metadata        map[string]string `yaml:"metadata,omitempty"`
}

type roundYAML struct {
	Prompt string `yaml:"prompt"`
}

// CasesHeader opens a file WriteCases writes.
const CasesHeader = `# Cases imported by gavel import from conversations recorded elsewhere:
# each case's script is the conversation's user turns (input: for one,
# rounds: for several). Their judges are only what the recorded agent did
# (expected_tools: the tools it called successfully; expected_tool_calls: []
# when it called none), so that the file is a valid suite file: review
# each case and write the judges it deserves before it gates anything.
`

// WriteCases writes cases as a YAML list of suite cases, for a suite's
// cases: (a golden set grown from production conversations). Each
// case's script is its first conversation's user turns: input: for one,
// rounds: for several; its tags are "imported"; its metadata the
// conversation's (source, trace_id...). A case whose conversation has no
// user turn cannot be replayed and is left out: its id is in skipped.
func WriteCases(w io.Writer, cases []Case) (written int, skipped []string, err error) {
	var out []caseYAML
	for i := range cases {
		c := &cases[i]
		if len(c.Trials) == 0 || c.Trials[0].Transcript == nil {
			skipped = append(skipped, c.ID)
			continue
		}
		t := c.Trials[0].Transcript
		var prompts []string
		var tools []string
		for _, turn := range t.Turns {
			switch turn.Role {
			case judge.RoleUser:
				prompts = append(prompts, turn.Content)
			case judge.RoleAgent:
				for _, call := range turn.ToolCalls {
					if !call.IsError && !slices.Contains(tools, call.Name) {
						tools = append(tools, call.Name)
					}
				}
			}
		}
		if len(prompts) == 0 {
			skipped = append(skipped, c.ID)
			continue
		}
		y := caseYAML{ID: c.ID, Name: c.Name, Tags: []string{"imported"}, Metadata: c.Metadata}
		for _, tag := range c.Tags {
			if !slices.Contains(y.Tags, tag) {
				y.Tags = append(y.Tags, tag)
			}
		}
		if len(prompts) == 1 {
			y.Input = prompts[0]
		} else {
			for _, p := range prompts {
				y.Rounds = append(y.Rounds, roundYAML{Prompt: p})
			}
		}
		if len(tools) > 0 {
			y.ExpectedTools = tools
		} else {
			y.ExpectedNoCalls = &[]string{}
		}
		out = append(out, y)
	}
	var b bytes.Buffer
	b.WriteString(CasesHeader)
	if len(out) == 0 {
		b.WriteString("[]\n")
	} else {
		enc := yaml.NewEncoder(&b)
		enc.SetIndent(2)
		if err := enc.Encode(out); err != nil {
			return 0, nil, fmt.Errorf("write cases: %w", err)
		}
		if err := enc.Close(); err != nil {
			return 0, nil, fmt.Errorf("write cases: %w", err)
		}
	}
	if _, err := w.Write(b.Bytes()); err != nil {
		return 0, nil, fmt.Errorf("write cases: %w", err)
	}
	return len(out), skipped, nil
}
