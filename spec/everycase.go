package spec

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gavelhq/gavel/judge"
)

// EveryCaseSpec are the judges every case of a suite gets besides its
// own, such as a style guide's hard rules: written in the suite, or kept
// in a file of their own that the agent's prompts can read too, so that
// the rules the agent is told and the rules it is judged by never drift
// apart (seed 002's style file).
type EveryCaseSpec struct {
	everyCaseFields `yaml:",inline"`

	// File is the file they were read from, when every_case names one.
	File string `yaml:"-"`
	file string // as written, resolved by Load
	line int
}

// everyCaseFields are the fields of every_case, and of the file it names.
type everyCaseFields struct {
	Rules  []JudgeSpec `yaml:"rules" doc:"Judges of any kind (docs/judges.md), as a case's rules:."`
	Checks []JudgeSpec `yaml:"checks" doc:"Judges of any kind, as a case's checks:."`
	Judges []JudgeSpec `yaml:"judges" doc:"Judges of any kind, as a case's judges:."`
}

// UnmarshalYAML reads the judges, or the name of a file holding them.
func (e *EveryCaseSpec) UnmarshalYAML(n *yaml.Node) error {
	e.line = n.Line
	if n.Kind == yaml.ScalarNode {
		return n.Decode(&e.file)
	}
	type plain EveryCaseSpec // without this method
	return n.Decode((*plain)(e))
}

// loadEveryCase reads the file the suite's every_case names, if it names
// one.
func (l *Loaded) loadEveryCase() Problems {
	e := l.Suite.EveryCase
	if e == nil || e.file == "" {
		return nil
	}
	e.File = e.file
	if !filepath.IsAbs(e.File) {
		e.File = filepath.Join(l.Dir, e.File)
	}
	root, problems := parseYAML(e.File, 0)
	if root == nil {
		return append(problems, Problem{File: l.File, Line: e.line, Message: fmt.Sprintf("every_case: cannot read %s", e.file)})
	}
	fieldProblems := checkFields(e.File, root, reflect.TypeFor[everyCaseFields](), 0)
	problems = append(problems, fieldProblems...)
	if err := root.Decode(&e.everyCaseFields); err != nil {
		problems = append(problems, withoutTypeErrors(fieldProblems, yamlProblems(e.File, 0, err))...)
	}
	return problems
}

// everyCase builds the suite's every_case judges: the ones that ask no
// model, and the ones that do.
func (b *builder) everyCase() (hard, llm []judge.Judge, words []string) {
	e := b.l.Suite.EveryCase
	if e == nil {
		return nil, nil, nil
	}
	if e.File != "" {
		b.atFile = e.File
		defer func() { b.atFile = b.l.File }()
	}
	return b.expectations(Expectations{Rules: e.Rules, Checks: e.Checks, Judges: e.Judges}, everyCaseRound)
}

// everyCaseWords says what every case expects besides its own, briefly:
// the judges of a style file are named by the file.
func (b *builder) everyCaseWords() string {
	if e := b.l.Suite.EveryCase; e != nil && e.file != "" {
		return fmt.Sprintf("every case: the %d judges of %s", len(b.every.words), e.file)
	}
	return "every case: " + strings.Join(b.every.words, ", ")
}
