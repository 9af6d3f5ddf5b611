package spec

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/gavelhq/gavel/internal/suggest"
	"github.com/gavelhq/gavel/llm"
)

// DefaultFiles are the names a suite file has in a directory given
// instead of a file, in the order they are tried.
var DefaultFiles = []string{"gavel.yaml", "gavel.yml", "suite.yaml", "suite.yml"}

// A Loaded suite is a suite file and its cases, read and checked for
// unknown fields and types, but not yet built.
type Loaded struct {
	// File is the suite file; Dir its directory, against which relative
	// paths in it resolve.
	File, Dir string
	Suite     SuiteFile
	Cases     []LoadedCase
	// Prices are the suite's prices: of models, checked.
	Prices llm.Prices
	// Unreadable is true when the suite file could not be parsed at all:
	// building it would only report what is missing.
	Unreadable bool

	root *yaml.Node // the suite file's, for the places of Build's problems
	// bad, if set, is called by eachCase as soon as it finds a problem
	// in the cases it reads, before it reads on: a reader that runs each
	// case as it comes stops there (see Stream).
	bad func()
}

// A LoadedCase is a case and where it was written.
type LoadedCase struct {
	Spec *CaseSpec
	File string
	Line int
	// Definition is the case as written, in YAML (comments and all), as
	// the store keeps it.
	Definition []byte
	// Written is true for a case written in the web app, which the store
	// holds and no file does: File then only names it in problems, and
	// its Source is "", so that a run of it does not make it a file's.
	Written bool
	// offset is added to the lines of the case's nodes to find them in
	// File: a JSON Lines record is parsed alone, so its nodes are on
	// line 1.
	offset int
	// json is a JSON Lines case's line, whose YAML, Definition, is made
	// only when asked for (see YAML).
	json []byte
}

// YAML returns the case as written, in YAML: Definition, or a JSON Lines
// case's line turned into YAML.
func (c LoadedCase) YAML() []byte {
	if c.Definition != nil || c.json == nil {
		return c.Definition
	}
	n, err := jsonNode(c.json)
	if err != nil {
		return nil
	}
	return definition(n)
}

// Source returns "file:line", or "" for a case written in the web app.
func (c LoadedCase) Source() string {
	if c.Written {
		return ""
	}
	return fmt.Sprintf("%s:%d", c.File, c.Line)
}

// Load reads the suite at path (a file, or a directory holding one of
// DefaultFiles) and the case files it names. It reports every problem it
// finds at once, as Problems: syntax errors, unknown fields (with the
// field probably meant), values of the wrong type, case files that match
// nothing.
func Load(path string) (*Loaded, error) {
	l, fieldProblems, problems, err := loadSuiteFile(path)
	if err != nil {
		return nil, err
	}
	problems = append(problems, l.eachCase(fieldProblems, func(c LoadedCase) { l.Cases = append(l.Cases, c) })...)
	return l, problems.sorted()
}

// loadSuiteFile reads the suite file at path, without its cases: the
// problems of its fields (which the cases' decoding errors are checked
// against) and all its problems.
func loadSuiteFile(path string) (l *Loaded, fieldProblems, problems Problems, err error) {
	file, err := suiteFile(path)
	if err != nil {
		return nil, nil, nil, err
	}
	dir, err := filepath.Abs(filepath.Dir(file))
	if err != nil {
		return nil, nil, nil, err
	}
	l = &Loaded{File: file, Dir: dir}
	root, ps := parseYAML(file, 0)
	problems = append(problems, ps...)
	l.Unreadable, l.root = root == nil, root
	if root != nil {
		fieldProblems = checkFields(file, root, reflect.TypeFor[SuiteFile](), 0)
		problems = append(problems, fieldProblems...)
		if err := root.Decode(&l.Suite); err != nil {
			problems = append(problems, withoutTypeErrors(fieldProblems, yamlProblems(file, 0, err))...)
		}
		var ps Problems
		l.Prices, ps = suitePrices(file, root)
		problems = append(problems, ps...)
		problems = append(problems, l.loadEveryCase()...)
	}
	return l, fieldProblems, problems, nil
}

// eachCase reads the suite's cases, inline and from the files its globs
// match, handing each to yield as it is read, and returns the problems
// found: a JSON Lines file is read a line at a time, so that a caller
// that lets each case go holds one at a time.
func (l *Loaded) eachCase(fieldProblems Problems, yield func(LoadedCase)) Problems {
	var problems Problems
	for _, e := range l.Suite.Cases {
		if e.errs != nil {
			problems = append(problems, withoutTypeErrors(fieldProblems, yamlProblems(l.File, 0, e.errs))...)
			l.problemFound()
		}
		if e.Case != nil {
			yield(LoadedCase{Spec: e.Case, File: l.File, Line: e.line, Definition: definition(e.node)})
			continue
		}
		if e.bad {
			continue
		}
		if strings.TrimSpace(e.Glob) == "" {
			problems = append(problems, Problem{File: l.File, Line: e.line, Message: "an empty glob of case files: give a path such as cases/*.yaml"})
			l.problemFound()
			continue
		}
		problems = append(problems, l.loadGlob(l.File, e, yield)...)
	}
	return problems
}

// problemFound tells bad, if set, that a case has a problem.
func (l *Loaded) problemFound() {
	if l.bad != nil {
		l.bad()
	}
}

// suiteFile resolves path to a suite file.
func suiteFile(path string) (string, error) {
	info, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("no suite at %s: %w", path, errors.Unwrap(err))
	}
	if !info.IsDir() {
		return path, nil
	}
	for _, name := range DefaultFiles {
		f := filepath.Join(path, name)
		if _, err := os.Stat(f); err == nil {
			return f, nil
		}
	}
	return "", fmt.Errorf("no suite in directory %s: it holds none of %s", path, strings.Join(DefaultFiles, ", "))
}

// loadGlob reads the case files a glob of the suite matches.
func (l *Loaded) loadGlob(suite string, e CaseEntry, yield func(LoadedCase)) Problems {
	files, err := l.globFiles(e)
	if err != nil {
		l.problemFound()
		return Problems{{File: suite, Line: e.line, Message: fmt.Sprintf("cases %q: %v", e.Glob, err)}}
	}
	if len(files) == 0 {
		l.problemFound()
		return Problems{{File: suite, Line: e.line, Message: fmt.Sprintf("cases %q match no file (relative to %s)", e.Glob, l.Dir)}}
	}
	var problems Problems
	for _, f := range files {
		if strings.HasSuffix(f, ".jsonl") {
			problems = append(problems, eachJSONLine(f, yield, l.bad)...)
			continue
		}
		cs, ps := loadCaseFile(f)
		if len(ps) > 0 {
			l.problemFound()
		}
		for _, c := range cs {
			yield(c)
		}
		problems = append(problems, ps...)
	}
	return problems
}

// globFiles returns the files a cases: glob of the suite matches.
func (l *Loaded) globFiles(e CaseEntry) ([]string, error) {
	pattern := e.Glob
	if !filepath.IsAbs(pattern) {
		pattern = filepath.Join(l.Dir, pattern)
	}
	return filepath.Glob(pattern)
}

// ParseCase reads one case's definition (YAML, as LoadedCase.Definition
// holds it, such as a case written in the web app and kept in the store);
// source names where it came from, for problems.
func ParseCase(source string, def []byte) (LoadedCase, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(def, &doc); err != nil {
		return LoadedCase{}, yamlProblems(source, 0, err).sorted()
	}
	if len(doc.Content) == 0 {
		return LoadedCase{}, Problems{{File: source, Message: "the case is empty"}}
	}
	c, problems := decodeCase(source, doc.Content[0], 0)
	if err := problems.sorted(); err != nil {
		return LoadedCase{}, err
	}
	return LoadedCase{Spec: c, File: source, Line: 1, Definition: def}, nil
}

// loadCaseFile reads a YAML or JSON file holding a list of cases.
func loadCaseFile(file string) ([]LoadedCase, Problems) {
	root, problems := parseYAML(file, 0)
	if root == nil {
		return nil, problems
	}
	if root.Kind != yaml.SequenceNode {
		return nil, append(problems, Problem{File: file, Line: root.Line, Column: root.Column, Message: "a case file holds a list of cases"})
	}
	var cases []LoadedCase
	for _, n := range root.Content {
		c, ps := decodeCase(file, n, 0)
		problems = append(problems, ps...)
		if c != nil {
			cases = append(cases, LoadedCase{Spec: c, File: file, Line: n.Line, Definition: definition(n)})
		}
	}
	return cases, problems
}

// loadJSONLines reads a JSON Lines file, one case a line; blank lines are
// skipped.
func loadJSONLines(file string) ([]LoadedCase, Problems) {
	var cases []LoadedCase
	problems := eachJSONLine(file, func(c LoadedCase) { cases = append(cases, c) }, nil)
	return cases, problems
}

// eachJSONLine reads a JSON Lines file of cases a line at a time, handing
// each case to yield; bad, if set, is called at each problem, as it is
// found.
func eachJSONLine(file string, yield func(LoadedCase), bad func()) Problems {
	found := func(ps Problems) Problems {
		if len(ps) > 0 && bad != nil {
			bad()
		}
		return ps
	}
	f, err := os.Open(file)
	if err != nil {
		return found(Problems{{File: file, Message: err.Error()}})
	}
	defer f.Close()
	var problems Problems
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for line := 1; sc.Scan(); line++ {
		text := sc.Bytes()
		if len(bytes.TrimSpace(text)) == 0 {
			continue
		}
		// Each line must be JSON; it is read into the node tree YAML
		// makes of it, for the positions of unknown fields and wrong types.
		node, err := jsonNode(text)
		if err != nil {
			problems = append(problems, found(Problems{{File: file, Line: line, Message: "not JSON: " + err.Error() + " (a JSON Lines file holds one JSON object per line)"}})...)
			continue
		}
		c, ps := decodeCase(file, node, line-1)
		problems = append(problems, found(ps)...)
		if c != nil {
			// The line is kept, not its YAML: it is written only if the case
			// is stored (LoadedCase.YAML).
			yield(LoadedCase{Spec: c, File: file, Line: line, json: bytes.Clone(text), offset: line - 1})
		}
	}
	if err := sc.Err(); err != nil {
		problems = append(problems, found(Problems{{File: file, Message: err.Error()}})...)
	}
	return problems
}

// definition is a case's node as YAML, or nil if it cannot be written.
func definition(n *yaml.Node) []byte {
	if n == nil {
		return nil
	}
	out, err := yaml.Marshal(n)
	if err != nil {
		return nil
	}
	return out
}

// LoadCases reads a file of cases: a YAML (or JSON) list, or JSON Lines
// (.jsonl), as a suite's cases: globs name them. Problems are reported
// all at once, as Problems.
func LoadCases(file string) ([]LoadedCase, error) {
	var cases []LoadedCase
	var problems Problems
	if strings.HasSuffix(file, ".jsonl") {
		cases, problems = loadJSONLines(file)
	} else {
		cases, problems = loadCaseFile(file)
	}
	if err := problems.sorted(); err != nil {
		return nil, err
	}
	return cases, nil
}

func decodeCase(file string, n *yaml.Node, offset int) (*CaseSpec, Problems) {
	if n.Kind != yaml.MappingNode {
		return nil, Problems{{File: file, Line: n.Line + offset, Column: n.Column, Message: "a case is a mapping of fields (id, input, ...)"}}
	}
	problems := checkFields(file, n, reflect.TypeFor[CaseSpec](), offset)
	c := new(CaseSpec)
	if err := n.Decode(c); err != nil {
		return nil, append(problems, withoutTypeErrors(problems, yamlProblems(file, offset, err))...)
	}
	return c, problems
}

// parseYAML reads file into its document's root node.
func parseYAML(file string, offset int) (*yaml.Node, Problems) {
	data, err := os.ReadFile(file)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, Problems{{File: file, Message: "no such file"}}
		}
		return nil, Problems{{File: file, Message: err.Error()}}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, yamlProblems(file, offset, err)
	}
	if len(doc.Content) == 0 {
		return nil, Problems{{File: file, Message: "the file is empty"}}
	}
	return doc.Content[0], nil
}

// checkFields walks n along t and reports every mapping key that names no
// field, with the field probably meant, and every value of the wrong type,
// with the path of its field (rounds[0].trials).
func checkFields(file string, n *yaml.Node, t reflect.Type, offset int) Problems {
	return checkFieldsAt(file, n, t, offset, "")
}

func checkFieldsAt(file string, n *yaml.Node, t reflect.Type, offset int, path string) Problems {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	join := func(key string) string {
		if path == "" {
			return key
		}
		return path + "." + key
	}
	switch {
	case t == reflect.TypeFor[JudgeSpec]():
		if n.Kind == yaml.MappingNode {
			return checkItem(file, n, offset, path)
		}
	case t == reflect.TypeFor[CaseEntry]():
		if n.Kind == yaml.MappingNode {
			return checkFieldsAt(file, n, reflect.TypeFor[CaseSpec](), offset, path)
		}
	case t == reflect.TypeFor[EveryCaseSpec]():
		if n.Kind == yaml.MappingNode {
			return checkFieldsAt(file, n, reflect.TypeFor[everyCaseFields](), offset, path)
		}
	case reflect.PointerTo(t).Implements(reflect.TypeFor[yaml.Unmarshaler]()):
		// A type that reads itself (Args, Value, Metadata) says what is wrong.
	case t.Kind() == reflect.Struct && n.Kind == yaml.MappingNode:
		return checkMapping(file, n, yamlFields(t), describe(t), offset, path)
	case t.Kind() == reflect.Slice && n.Kind == yaml.SequenceNode:
		var problems Problems
		for i, item := range n.Content {
			problems = append(problems, checkFieldsAt(file, item, t.Elem(), offset, fmt.Sprintf("%s[%d]", path, i))...)
		}
		return problems
	case t.Kind() == reflect.Map && n.Kind == yaml.MappingNode:
		var problems Problems
		for i := 0; i+1 < len(n.Content); i += 2 {
			problems = append(problems, checkFieldsAt(file, n.Content[i+1], t.Elem(), offset, join(n.Content[i].Value))...)
		}
		return problems
	default:
		if want, got := wrongType(n, t); want != "" {
			where := path
			if where == "" {
				where = "the value"
			}
			return Problems{{File: file, Line: n.Line + offset, Column: n.Column, Message: fmt.Sprintf("%s: want %s, got %s", where, want, got)}}
		}
	}
	return nil
}

// checkMapping checks the keys of mapping n, what names for messages, by
// fields (their yaml names and types), and their values by their types.
func checkMapping(file string, n *yaml.Node, fields map[string]reflect.Type, what string, offset int, path string) Problems {
	var problems Problems
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, value := n.Content[i], n.Content[i+1]
		ft, ok := fields[key.Value]
		if !ok {
			problems = append(problems, unknownField(file, key, what, fields, offset))
			continue
		}
		field := key.Value
		if path != "" {
			field = path + "." + key.Value
		}
		problems = append(problems, checkFieldsAt(file, value, ft, offset, field)...)
	}
	return problems
}

// checkItem checks the fields of a judge by its kind's config, or, when
// it gives no kind's key, names the kind each unknown key probably meant.
func checkItem(file string, n *yaml.Node, offset int, path string) Problems {
	found := itemKinds(n)
	switch len(found) {
	case 1:
		k := kinds[found[0]]
		return checkMapping(file, n, itemFields(k), fmt.Sprintf("a %s judge", k.name), offset, path)
	case 0:
		commons := yamlFields(reflect.TypeFor[commonFields]())
		var problems Problems
		for i := 0; i+1 < len(n.Content); i += 2 {
			key := n.Content[i]
			if _, ok := commons[key.Value]; ok {
				continue
			}
			msg := fmt.Sprintf("unknown kind of judge %q", key.Value)
			if s, ok := suggest.Closest(key.Value, kindNames); ok {
				msg += fmt.Sprintf(": did you mean %q?", s)
			} else {
				msg += ": docs/judges.md lists the kinds (contains, regex, rubric, jury, ...)"
			}
			problems = append(problems, Problem{File: file, Line: key.Line + offset, Column: key.Column, Message: msg})
		}
		return problems
	}
	return nil // several kinds: the decoder says so
}

// typeProblem marks the problems checkFieldsAt finds in a value's type,
// so that yaml's own message for them ("cannot unmarshal !!str into
// int"), which names no field, is dropped.
const typeProblem = ": want "

// wrongType says what a value of type t is written as and what n is, when
// yaml would refuse to decode n into t; "" when it would not.
func wrongType(n *yaml.Node, t reflect.Type) (want, got string) {
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" {
		return "", ""
	}
	gotKind := func() string {
		switch n.Kind {
		case yaml.MappingNode:
			return "a mapping"
		case yaml.SequenceNode:
			return "a list"
		}
		switch n.ShortTag() {
		case "!!str":
			return fmt.Sprintf("a string (%q)", n.Value)
		case "!!int", "!!float":
			return "a number (" + n.Value + ")"
		case "!!bool":
			return n.Value
		}
		return n.Value
	}
	scalarIs := func(tags ...string) bool { return n.Kind == yaml.ScalarNode && slices.Contains(tags, n.ShortTag()) }
	switch t.Kind() {
	case reflect.String:
		if n.Kind != yaml.ScalarNode {
			return "a string", gotKind()
		}
	case reflect.Bool:
		// yaml also reads YAML 1.1's yes, no, on, off, y and n as booleans.
		yaml11 := []string{"y", "yes", "on", "n", "no", "off"}
		if !scalarIs("!!bool") && !(scalarIs("!!str") && slices.Contains(yaml11, strings.ToLower(n.Value))) {
			return "true or false", gotKind()
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		// yaml would cut 1.5 down to 1 without a word.
		if f, err := strconv.ParseFloat(n.Value, 64); !scalarIs("!!int") && !(scalarIs("!!float") && err == nil && f == math.Trunc(f)) {
			return "a whole number", gotKind()
		}
	case reflect.Float32, reflect.Float64:
		if !scalarIs("!!int", "!!float") {
			return "a number", gotKind()
		}
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			return "a list", gotKind()
		}
	case reflect.Struct, reflect.Map:
		if n.Kind != yaml.MappingNode {
			return "a mapping", gotKind()
		}
	}
	return "", ""
}

// withoutTypeErrors drops yaml's messages about a value's type on the
// lines where ours names the field.
func withoutTypeErrors(ours, theirs Problems) Problems {
	lines := map[int]bool{}
	for _, p := range ours {
		if strings.Contains(p.Message, typeProblem) {
			lines[p.Line] = true
		}
	}
	var out Problems
	for _, p := range theirs {
		if lines[p.Line] && strings.HasPrefix(p.Message, "cannot unmarshal") {
			continue
		}
		out = append(out, p)
	}
	return out
}

func unknownField(file string, key *yaml.Node, what string, fields map[string]reflect.Type, offset int) Problem {
	names := make([]string, 0, len(fields))
	for name := range fields {
		names = append(names, name)
	}
	slices.Sort(names)
	msg := fmt.Sprintf("unknown field %q in %s", key.Value, what)
	if s, ok := suggest.Closest(key.Value, names); ok {
		msg += fmt.Sprintf(": did you mean %q?", s)
	} else {
		msg += ": the fields are " + strings.Join(names, ", ")
	}
	return Problem{File: file, Line: key.Line + offset, Column: key.Column, Message: msg}
}

// yamlFields maps the yaml names of t's fields, inline ones included, to
// their types. The map is made once per type and shared: callers must not
// change it.
func yamlFields(t reflect.Type) map[string]reflect.Type {
	if m, ok := fieldsOf.Load(t); ok {
		return m.(map[string]reflect.Type)
	}
	m := readFields(t)
	fieldsOf.Store(t, m)
	return m
}

// fieldsOf caches yamlFields: a file of a hundred thousand cases asks for
// the same few types millions of times.
var fieldsOf sync.Map // reflect.Type → map[string]reflect.Type

func readFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		switch {
		case opts == "inline":
			for k, v := range yamlFields(f.Type) {
				out[k] = v
			}
		case name != "" && name != "-":
			out[name] = f.Type
		}
	}
	return out
}

// describe names a format type for messages.
func describe(t reflect.Type) string {
	switch t {
	case reflect.TypeFor[SuiteFile]():
		return "the suite"
	case reflect.TypeFor[CaseSpec]():
		return "a case"
	case reflect.TypeFor[RoundSpec]():
		return "a round"
	}
	if w, ok := formatTypeNames[t.Name()]; ok {
		return w
	}
	return t.Name()
}

// formatTypeNames name the format's types for messages, by Go name.
var formatTypeNames = map[string]string{
	"AgentSpec": "the agent", "BuiltinSpec": "a builtin agent", "HTTPSpec": "an http agent", "ExecSpec": "an exec agent",
	"MCPSpec": "an MCP server", "ModelsSpec": "the models", "PersonaSpec": "a persona", "EventSpec": "an event",
	"ToolCallSpec": "an expected tool call", "JudgeSpec": "a judge",
	"StepSpec": "a setup step", "SQLStepSpec": "an SQL step",
	"jurySettings": "a jury", "sqlQuery": "an SQL check", "fileContent": "a file_content check", "fileJSON": "a file_json check",
	"lengthBounds": "a length rule", "pairwiseSettings": "a pairwise judge", "buildSettings": "a build check", "weightedPart": "a weighted part",
	"PriceSpec": "a price", "ExampleSpec": "an example", "ExampleSourceSpec": "an example's source",
}

// pathStep is a step of a field's path: a key, and an index or -1.
var pathStep = regexp.MustCompile(`^([a-z_]+)(?:\[(\d+)\])?$`)

// leadingPath is the field path a message starts with, such as
// "agent.builtin.mcp[0].transport" in `agent.builtin.mcp[0].transport
// "websocket": want ...`; "" when it starts with none.
func leadingPath(msg string) string {
	end := strings.IndexAny(msg, ": ")
	if end < 0 {
		return ""
	}
	return msg[:end]
}

// fieldNode finds the key of the field at path (dotted keys, with [i]
// for an item of a list) in the mapping n; nil when it is not there.
func fieldNode(n *yaml.Node, path string) *yaml.Node {
	if n == nil || path == "" {
		return nil
	}
	var found *yaml.Node
	for _, step := range strings.Split(path, ".") {
		m := pathStep.FindStringSubmatch(step)
		if m == nil || n.Kind != yaml.MappingNode {
			return found
		}
		var value *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == m[1] {
				found, value = n.Content[i], n.Content[i+1]
			}
		}
		if value == nil {
			return found
		}
		n = value
		if m[2] != "" {
			i, _ := strconv.Atoi(m[2])
			if n.Kind != yaml.SequenceNode || i >= len(n.Content) {
				return found
			}
			n, found = n.Content[i], n.Content[i]
		}
	}
	return found
}
