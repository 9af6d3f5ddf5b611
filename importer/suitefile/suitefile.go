package suitefile

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// M is a YAML mapping whose keys are written in the order they were added.
type M []KV

// A KV is one key of an M, with the comment written above it.
type KV struct {
	Key     string
	Value   any
	Comment string
}

// Set appends key with value, unless value is nil, and returns m.
func (m M) Set(key string, value any) M {
	if value == nil {
		return m
	}
	return append(m, KV{Key: key, Value: value})
}

// Get returns the value of key, or nil.
func (m M) Get(key string) any {
	for _, kv := range m {
		if kv.Key == key {
			return kv.Value
		}
	}
	return nil
}

// A Case is a case of the suite, or one that could not be converted.
type Case struct {
	// Fields are the case as the suite format spells it (id, input,
	// rules, judges...); nil for a case not converted at all.
	Fields M
	// Notes are written as comments above the case: what was
	// approximated or left out, one a line.
	Notes []string
}

// A Suite is what gavel.yaml and cases.yaml will say.
type Suite struct {
	// Head is written as comments at the top of gavel.yaml.
	Head []string
	// Fields are the suite's keys but cases (name, agent, models...).
	Fields M
	// Cases are written to cases.yaml, which the suite's cases: names.
	Cases []Case
	// Report says what was approximated and what was not converted.
	Report Report
}

// Files are the files Write writes in its directory.
var Files = []string{"gavel.yaml", "cases.yaml"}

// Write writes the suite to dir (created if need be) as gavel.yaml and
// cases.yaml. It refuses to replace either file unless overwrite is set.
func (s *Suite) Write(dir string, overwrite bool) error {
	suite, err := s.SuiteYAML()
	if err != nil {
		return err
	}
	cases, err := s.CasesYAML()
	if err != nil {
		return err
	}
	if !overwrite {
		for _, name := range Files {
			if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
				return fmt.Errorf("%s already exists: choose another directory, or replace it with --force", filepath.Join(dir, name))
			}
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for i, data := range [][]byte{suite, cases} {
		if err := os.WriteFile(filepath.Join(dir, Files[i]), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// SuiteYAML is gavel.yaml: the head comments, then the suite's fields and
// cases: [cases.yaml].
func (s *Suite) SuiteYAML() ([]byte, error) {
	var buf bytes.Buffer
	comment(&buf, "", s.Head)
	fields := append(slices.Clone(s.Fields), KV{Key: "cases", Value: []any{Files[1]}})
	data, err := marshal(fields)
	if err != nil {
		return nil, err
	}
	buf.Write(data)
	return buf.Bytes(), nil
}

// CasesYAML is cases.yaml: a YAML list of cases, each under the comments
// of its notes; a case not converted is its notes alone.
func (s *Suite) CasesYAML() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString("# The cases of gavel.yaml, converted by gavel import.\n")
	written := 0
	for _, c := range s.Cases {
		buf.WriteString("\n")
		comment(&buf, "", c.Notes)
		if c.Fields == nil {
			continue
		}
		data, err := marshal([]any{c.Fields})
		if err != nil {
			return nil, err
		}
		buf.Write(data)
		written++
	}
	if written == 0 {
		// An empty list, so that the file is still a list of cases.
		buf.WriteString("[]\n")
	}
	return buf.Bytes(), nil
}

// comment writes lines as YAML comments, each line of a multi-line note
// commented too.
func comment(buf *bytes.Buffer, indent string, lines []string) {
	for _, l := range lines {
		for _, part := range strings.Split(strings.TrimRight(l, "\n"), "\n") {
			if part == "" {
				buf.WriteString(indent + "#\n")
				continue
			}
			buf.WriteString(indent + "# " + part + "\n")
		}
	}
}

func marshal(v any) ([]byte, error) {
	n, err := Node(v)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(n); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Node is v as a YAML node: an M keeps its order, a map[string]any is
// written with its keys sorted, numbers as YAML numbers, lists of
// scalars in flow style when they are short.
func Node(v any) (*yaml.Node, error) {
	switch x := v.(type) {
	case *yaml.Node:
		return x, nil
	case M:
		n := &yaml.Node{Kind: yaml.MappingNode}
		for _, kv := range x {
			val, err := Node(kv.Value)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", kv.Key, err)
			}
			key := scalar(kv.Key)
			key.HeadComment = kv.Comment
			n.Content = append(n.Content, key, val)
		}
		return n, nil
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		m := make(M, 0, len(keys))
		for _, k := range keys {
			m = append(m, KV{Key: k, Value: x[k]})
		}
		return Node(m)
	case []string:
		items := make([]any, len(x))
		for i, s := range x {
			items[i] = s
		}
		return Node(items)
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode}
		flow, width := true, 0
		for _, item := range x {
			c, err := Node(item)
			if err != nil {
				return nil, err
			}
			if c.Kind != yaml.ScalarNode || strings.Contains(c.Value, "\n") {
				flow = false
			}
			width += len(c.Value) + 2
			n.Content = append(n.Content, c)
		}
		if flow && width <= 60 {
			n.Style = yaml.FlowStyle
		}
		return n, nil
	case string:
		return scalar(x), nil
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(x)}, nil
	case int:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(x)}, nil
	case int64:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(x, 10)}, nil
	case uint64:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatUint(x, 10)}, nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("%v is not a number a suite can hold", x)
		}
		if x == math.Trunc(x) && math.Abs(x) < 1e15 {
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: strconv.FormatFloat(x, 'f', 1, 64)}, nil
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: strconv.FormatFloat(x, 'g', -1, 64)}, nil
	case nil:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}, nil
	}
	return nil, fmt.Errorf("cannot write a %T", v)
}

// scalar is a string node, in literal style when it has several lines.
func scalar(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if strings.Contains(strings.TrimRight(s, "\n"), "\n") && !strings.ContainsAny(s, "\t\r") && noTrailingSpace(s) {
		n.Style = yaml.LiteralStyle
	}
	return n
}

// noTrailingSpace reports whether no line of s ends in a space, which a
// literal block cannot keep.
func noTrailingSpace(s string) bool {
	for _, l := range strings.Split(s, "\n") {
		if strings.HasSuffix(l, " ") {
			return false
		}
	}
	return true
}
