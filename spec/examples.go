package spec

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/llmjudge"
)

// An LLM judge's examples: judgments people made, shown to its model as
// few-shot examples (llmjudge.Example), written in the suite or in a file
// of their own, the file gavel calibrate --disagreements writes:
//
//	- source: {run: 20261121-044512-b2b9fb, case: returns_policy, trial: 1}
//	  request: can I return a lamp I bought last week?
//	  response: Sure, you can return it.
//	  judged: pass
//	  verdict: fail
//	  reason: it never gives the 30 days
//
// The same list is what a judge's examples: takes inline.

// ExampleSpec is one example, as a file of examples or a judge's inline
// examples: list write it.
type ExampleSpec struct {
	Source   *ExampleSourceSpec `yaml:"source,omitempty" doc:"The labelled judgment the example was made from (gavel calibrate --disagreements writes it): gavel calibrate --compare-examples never scores an example on the case it came from. Leave it out of an example written by hand."`
	Request  string             `yaml:"request,omitempty" doc:"What the user asked."`
	Response string             `yaml:"response" doc:"The agent's reply that was judged."`
	Criteria string             `yaml:"criteria,omitempty" doc:"What the reply was judged against, when it is not the judge's own criteria (another case's judge_prompt)."`
	Judged   string             `yaml:"judged,omitempty" doc:"What the judge said, which people overruled; for people reading the file, never shown to the judge's model."`
	Verdict  string             `yaml:"verdict" doc:"The people's verdict, the correct one: pass, fail, or a category of the judge's scale (4 of 1..5)."`
	Reason   string             `yaml:"reason,omitempty" doc:"Why, in the people's words."`
}

// ExampleSourceSpec names a labelled judgment.
type ExampleSourceSpec struct {
	Run      string `yaml:"run" doc:"The run's id."`
	Case     string `yaml:"case" doc:"The case's id."`
	Trial    int    `yaml:"trial" doc:"The trial's number, from 1."`
	Judgment string `yaml:"judgment,omitempty" doc:"The judgment's path in the verdict (tiered/jury/tone); empty for the verdict."`
}

// MarshalYAML writes a source on one line: {run: ..., case: ..., trial: 1}.
func (s ExampleSourceSpec) MarshalYAML() (any, error) {
	type plain ExampleSourceSpec // without this method
	var n yaml.Node
	if err := n.Encode(plain(s)); err != nil {
		return nil, err
	}
	n.Style = yaml.FlowStyle
	return &n, nil
}

// exampleList is a judge's examples: key: a file of examples, relative to
// the suite, or the examples themselves.
type exampleList struct {
	// File is the file named, as written; "" for inline examples.
	File string
	// Inline are the examples written in the suite.
	Inline []gavel.Example
}

// UnmarshalYAML reads a file's name or a list of examples.
func (l *exampleList) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.ScalarNode:
		if strings.TrimSpace(n.Value) == "" {
			return typeError(n, "examples: give a file of examples (gavel calibrate --disagreements writes one), or a list of them")
		}
		l.File = n.Value
		return nil
	case yaml.SequenceNode:
		examples, problems := readExamples("", n)
		if len(problems) > 0 {
			errs := make([]string, len(problems))
			for i, p := range problems {
				errs[i] = fmt.Sprintf("line %d:%d: %s", p.Line, p.Column, p.Message)
			}
			return &yaml.TypeError{Errors: errs}
		}
		l.Inline = examples
		return nil
	}
	return typeError(n, "examples: a file of examples, relative to the suite, or a list of examples (request, response, verdict, reason)")
}

// set reports whether the judge was given examples.
func (l exampleList) set() bool { return l.File != "" || l.Inline != nil }

// ReadExamples reads a file of examples, as a judge's examples: names
// it and gavel calibrate --disagreements writes it: a YAML list of
// examples (ExampleSpec). Every mistake is a Problem at its line of the
// file: an unknown field, an example without a response or a verdict, a
// verdict that is not a category.
func ReadExamples(path string) ([]gavel.Example, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err // "open PATH: ..."
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, Problems{yamlProblem(path, err)}
	}
	n := &root
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	if n.Kind != yaml.SequenceNode {
		return nil, Problems{{File: path, Line: n.Line, Column: n.Column, Message: "a file of examples is a YAML list of examples (request, response, verdict, reason), as gavel calibrate --disagreements writes it"}}
	}
	examples, problems := readExamples(path, n)
	if len(problems) > 0 {
		return nil, problems.sorted()
	}
	return examples, nil
}

// readExamples reads a list of examples, reporting mistakes at their
// lines of file.
func readExamples(file string, list *yaml.Node) ([]gavel.Example, Problems) {
	problems := checkFieldsAt(file, list, reflect.TypeFor[[]ExampleSpec](), 0, "examples")
	if len(problems) > 0 {
		return nil, problems
	}
	examples := []gavel.Example{}
	for i, item := range list.Content {
		at := func(format string, args ...any) {
			problems = append(problems, Problem{File: file, Line: item.Line, Column: item.Column, Message: fmt.Sprintf("examples[%d]: ", i) + fmt.Sprintf(format, args...)})
		}
		var s ExampleSpec
		if err := item.Decode(&s); err != nil {
			at("%v", err)
			continue
		}
		e := gavel.Example{
			Example: llmjudge.Example{Request: s.Request, Response: s.Response, Criteria: s.Criteria, Verdict: s.Verdict, Reason: s.Reason},
			Judged:  s.Judged,
		}
		if s.Source != nil {
			e.Source = gavel.ExampleSource{Run: s.Source.Run, Case: s.Source.Case, Trial: s.Source.Trial, Judgment: s.Source.Judgment}
			if e.Source.Case == "" {
				at("source: no case: a source names the run, case and trial the example was made from")
				continue
			}
		}
		if err := e.Check(); err != nil {
			at("%v", err)
			continue
		}
		examples = append(examples, e)
	}
	return examples, problems
}

// yamlProblem places a YAML syntax error in file.
func yamlProblem(file string, err error) Problem {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	var line int
	if _, scanErr := fmt.Sscanf(msg, "line %d:", &line); scanErr == nil {
		msg = strings.TrimSpace(msg[strings.Index(msg, ":")+1:])
	}
	return Problem{File: file, Line: line, Message: msg}
}

// WriteExamples writes examples as a file of examples (see ReadExamples),
// after header, written as comment lines: what a judge's examples: names.
func WriteExamples(w io.Writer, examples []gavel.Example, header string) error {
	var b bytes.Buffer
	for _, line := range strings.Split(strings.TrimSpace(header), "\n") {
		b.WriteString(strings.TrimSpace("# "+line) + "\n")
	}
	specs := make([]ExampleSpec, len(examples))
	for i, e := range examples {
		specs[i] = ExampleSpec{Request: e.Request, Response: e.Response, Criteria: e.Criteria, Judged: e.Judged, Verdict: e.Verdict, Reason: e.Reason}
		if !e.Source.IsZero() {
			s := e.Source
			specs[i].Source = &ExampleSourceSpec{Run: s.Run, Case: s.Case, Trial: s.Trial, Judgment: s.Judgment}
		}
	}
	if len(specs) == 0 {
		b.WriteString("[]\n")
	}
	for i, spec := range specs { // an example at a time, a blank line between them
		if i > 0 {
			b.WriteString("\n")
		}
		out, err := yaml.Marshal([]ExampleSpec{spec})
		if err != nil {
			return fmt.Errorf("write examples: %w", err)
		}
		b.Write(out)
	}
	_, err := w.Write(b.Bytes())
	return err
}
