package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/gavelhq/gavel/spec"
)

// The case form's judges: an editor adds judges of any kind the registry
// knows (spec.Kinds) but the Local ones, fills their fields, and saves
// them as the case's judges: list. The inputs come from the kinds' fields
// (spec.FieldInfo): a text box, a checkbox, a number, a select of an
// enumeration's values, a list written one item a line, and YAML for what
// holds judges or other structures (a jury's jurors, a criteria's axes).
// Adding and removing a judge posts the form and shows it again, without
// saving: it needs no script.

// maxJudges bounds the judges one form holds.
const maxJudges = 50

// A JudgeInput is one judge of a CaseInput: the mapping a suite file
// writes under judges:, as docs/judges.md lists them: one kind's key and
// that kind's fields ({"contains": "refund", "ignore_case": true}).
type JudgeInput map[string]any

// UnmarshalJSON reads a judge sent as JSON, keeping the order of its
// objects' keys (a criteria's axes are in the order written) and the
// type of its values (a string of digits stays a string).
func (j *JudgeInput) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := jsonNode(dec)
	if err != nil {
		return err
	}
	if n.Kind != yaml.MappingNode {
		return errors.New(`a judge is an object that gives one kind's key, such as {"contains": "refund"}`)
	}
	*j = JudgeInput{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		(*j)[n.Content[i].Value] = n.Content[i+1]
	}
	return nil
}

// jsonNode reads the next JSON value of dec as a YAML node.
func jsonNode(dec *json.Decoder) (*yaml.Node, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	scalar := func(tag, value string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: value} }
	switch v := tok.(type) {
	case json.Delim:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		if v == '{' {
			n.Kind, n.Tag = yaml.MappingNode, "!!map"
		}
		for dec.More() {
			if n.Kind == yaml.MappingNode {
				key, err := dec.Token()
				if err != nil {
					return nil, err
				}
				n.Content = append(n.Content, scalar("!!str", key.(string)))
			}
			item, err := jsonNode(dec)
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, item)
		}
		_, err := dec.Token() // the closing delimiter
		return n, err
	case string:
		return scalar("!!str", v), nil
	case json.Number:
		if _, err := v.Int64(); err == nil {
			return scalar("!!int", v.String()), nil
		}
		return scalar("!!float", v.String()), nil
	case bool:
		return scalar("!!bool", strconv.FormatBool(v)), nil
	}
	return scalar("!!null", "null"), nil
}

// MarshalYAML writes the judge as a suite file would: its kind's key
// first, then its fields in the reference's order, name and soft, and any
// other key (which checking refuses) in sorted order. A value may be a
// *yaml.Node, written as it is.
func (j JudgeInput) MarshalYAML() (any, error) {
	var order []string
	for _, k := range kindInfos() {
		if _, ok := j[k.Name]; ok {
			order = append(order, k.Name)
			for _, f := range k.Fields {
				order = append(order, strings.Split(f.Path, ".")[0])
			}
			break
		}
	}
	order = append(order, "name", "soft")
	var rest []string
	for key := range j {
		if !slices.Contains(order, key) {
			rest = append(rest, key)
		}
	}
	slices.Sort(rest)
	n := &yaml.Node{Kind: yaml.MappingNode}
	seen := map[string]bool{}
	for _, key := range append(order, rest...) {
		v, ok := j[key]
		if !ok || seen[key] {
			continue
		}
		seen[key] = true
		value := &yaml.Node{}
		if err := value.Encode(v); err != nil {
			return nil, fmt.Errorf("write field %s: %w", key, err)
		}
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: key}, value)
	}
	return n, nil
}

// kindInfos are the kinds of judge, read once.
var kindInfos = sync.OnceValue(spec.Kinds)

// formKind returns the kind of this name the form writes: any but a
// Local one.
func formKind(name string) (spec.KindInfo, bool) {
	for _, k := range kindInfos() {
		if k.Name == name && !k.Local {
			return k, true
		}
	}
	return spec.KindInfo{}, false
}

// A kindGroup is a group of kinds, for the form's select.
type kindGroup struct {
	Name  string
	Kinds []spec.KindInfo
}

// formKindGroups are the kinds the form writes, by group, in the
// reference's order.
func formKindGroups() []kindGroup {
	var out []kindGroup
	for _, k := range kindInfos() {
		if k.Local {
			continue
		}
		if len(out) == 0 || out[len(out)-1].Name != k.Group {
			out = append(out, kindGroup{Name: k.Group})
		}
		out[len(out)-1].Kinds = append(out[len(out)-1].Kinds, k)
	}
	return out
}

// localKinds are the names of the kinds written in suite files only.
func localKinds() []string {
	var out []string
	for _, k := range kindInfos() {
		if k.Local {
			out = append(out, k.Name)
		}
	}
	return out
}

// The controls of a judge's fields.
const (
	controlTrue     = "true"     // the kind's key, a boolean: always true, no input
	controlText     = "text"     // one line of text
	controlTextarea = "textarea" // text of several lines
	controlCheckbox = "checkbox" // a boolean
	controlInteger  = "integer"  // a whole number
	controlNumber   = "number"   // a number
	controlSelect   = "select"   // one of an enumeration's values
	controlLines    = "lines"    // a list of text, one item a line
	controlYAML     = "yaml"     // anything else, written as YAML
)

// serverFields are fields the form leaves out: they read files on the
// machine that judges (spec.JudgeSpec.ServerAccess).
var serverFields = []string{"prompt_file"}

// A formField is a field of a kind as the form shows it.
type formField struct {
	spec.FieldInfo
	Control string
}

// fieldsOf are the fields of kind k the form shows, in the reference's
// order. A mapping whose fields are listed (a jury's, length's) shows
// those instead of itself.
func fieldsOf(k spec.KindInfo) []formField {
	var out []formField
	for _, f := range k.Fields {
		if slices.Contains(serverFields, f.Path) || slices.ContainsFunc(k.Fields, func(g spec.FieldInfo) bool {
			return strings.HasPrefix(g.Path, f.Path+".")
		}) {
			continue
		}
		ff := formField{FieldInfo: f, Control: controlYAML}
		switch {
		case f.Path == k.Name && f.Type == "boolean":
			ff.Control = controlTrue
		case len(f.Enum) > 0:
			ff.Control = controlSelect
		case f.Type == "boolean":
			ff.Control = controlCheckbox
		case f.Type == "integer":
			ff.Control = controlInteger
		case f.Type == "number":
			ff.Control = controlNumber
		case f.Type == "text" && k.LLM && f.Path != "model":
			ff.Control = controlTextarea
		case f.Type == "text":
			ff.Control = controlText
		case f.Type == "list of text":
			ff.Control = controlLines
		}
		out = append(out, ff)
	}
	return out
}

// A judgeForm is one judge of the form, as typed.
type judgeForm struct {
	Kind, Name string
	Soft       bool
	// Values are the fields' values by their paths ("jury.strategy"); a
	// checked checkbox is "true".
	Values map[string]string
}

// judgeKindKey is the name of a judge's kind in the form: judges.N.kind.
var judgeKindKey = regexp.MustCompile(`^judges\.(\d+)\.kind$`)

// readJudges reads the judges of a form's POST, in their order, and
// applies the button pressed: action "add" adds a judge of the kind
// add_kind, "remove.N" removes judge N. It reports whether a button other
// than saving was pressed.
func readJudges(r *http.Request) (judges []judgeForm, edited bool) {
	var ns []int
	for key := range r.PostForm {
		if m := judgeKindKey.FindStringSubmatch(key); m != nil {
			if n, err := strconv.Atoi(m[1]); err == nil && n < maxJudges {
				ns = append(ns, n)
			}
		}
	}
	slices.Sort(ns)
	for _, n := range slices.Compact(ns) {
		prefix := fmt.Sprintf("judges.%d.", n)
		j := judgeForm{Kind: strings.TrimSpace(r.PostFormValue(prefix + "kind")), Name: strings.TrimSpace(r.PostFormValue(prefix + "name")),
			Soft: r.PostFormValue(prefix+"soft") != "", Values: map[string]string{}}
		k, _ := formKind(j.Kind)
		for _, f := range fieldsOf(k) {
			if v := strings.ReplaceAll(r.PostFormValue(prefix+"f."+f.Path), "\r\n", "\n"); strings.TrimSpace(v) != "" {
				j.Values[f.Path] = v
			}
		}
		judges = append(judges, j)
	}
	switch action := r.PostFormValue("action"); {
	case action == "add":
		if k, ok := formKind(r.PostFormValue("add_kind")); ok && len(judges) < maxJudges {
			judges = append(judges, judgeForm{Kind: k.Name, Values: map[string]string{}})
		}
		return judges, true
	case strings.HasPrefix(action, "remove."):
		if n, err := strconv.Atoi(strings.TrimPrefix(action, "remove.")); err == nil && n >= 0 && n < len(judges) {
			judges = slices.Delete(judges, n, n+1)
		}
		return judges, true
	}
	return judges, false
}

// judgeKey is the form's name of judge i's field path, or of the judge
// itself when path is "": its problems show there.
func judgeKey(i int, path string) string {
	if path == "" {
		return fmt.Sprintf("judges.%d", i)
	}
	return fmt.Sprintf("judges.%d.f.%s", i, path)
}

// input builds the judge j describes, the i-th of the form, or says what
// is wrong with its fields, by their form names. It checks what the form
// must read (a number, YAML, a value of an enumeration); the rest is
// checking the case's job.
func (j judgeForm) input(i int) (JudgeInput, map[string]string) {
	errs := map[string]string{}
	k, ok := formKind(j.Kind)
	if !ok {
		errs[judgeKey(i, "")] = fmt.Sprintf("%q is not a kind of judge the form writes: pick one from the list (%s are written in suite files only).",
			j.Kind, strings.Join(localKinds(), ", "))
		return nil, errs
	}
	out := JudgeInput{}
	nested := map[string]*yaml.Node{} // a mapping's fields, by the mapping's name
	set := func(path string, v any) {
		top, sub, ok := strings.Cut(path, ".")
		if !ok {
			out[top] = v
			return
		}
		m := nested[top]
		if m == nil {
			m = &yaml.Node{Kind: yaml.MappingNode}
			nested[top] = m
			out[top] = m
		}
		value := &yaml.Node{}
		if err := value.Encode(v); err == nil {
			m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: sub}, value)
		}
	}
	for _, f := range fieldsOf(k) {
		raw, given := j.Values[f.Path]
		if f.Control == controlTrue {
			set(f.Path, true)
			continue
		}
		if !given {
			if f.Path == k.Name {
				errs[judgeKey(i, f.Path)] = fmt.Sprintf("Fill %s: it is what a %s judge checks.", f.Path, k.Name)
			}
			continue
		}
		v, err := fieldValue(f, raw)
		if err != nil {
			errs[judgeKey(i, f.Path)] = err.Error()
			continue
		}
		set(f.Path, v)
	}
	if _, ok := out[k.Name]; !ok { // a mapping with no field filled
		out[k.Name] = &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
	}
	if j.Name != "" {
		out["name"] = j.Name
	}
	if j.Soft {
		out["soft"] = true
	}
	return out, errs
}

// fieldValue reads a field's value as typed, or says what to fix.
func fieldValue(f formField, raw string) (any, error) {
	switch f.Control {
	case controlCheckbox:
		return raw == "true", nil
	case controlInteger:
		n, err := strconv.Atoi(strings.TrimSpace(raw))
		if err != nil {
			return nil, fmt.Errorf("%q is not a whole number: %s", raw, f.Doc)
		}
		return n, nil
	case controlNumber:
		n, err := strconv.ParseFloat(strings.TrimSpace(raw), 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number: %s", raw, f.Doc)
		}
		return n, nil
	case controlSelect:
		if !slices.Contains(f.Enum, raw) {
			return nil, fmt.Errorf("%q is not one of %s", raw, strings.Join(f.Enum, ", "))
		}
		return raw, nil
	case controlLines:
		var items []string
		for line := range strings.SplitSeq(raw, "\n") {
			if line = strings.TrimSpace(line); line != "" {
				items = append(items, line)
			}
		}
		return items, nil
	case controlYAML:
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(raw), &doc); err != nil {
			return nil, fmt.Errorf("this is not YAML: %s", strings.TrimPrefix(err.Error(), "yaml: "))
		}
		if len(doc.Content) == 0 {
			return nil, nil
		}
		return doc.Content[0], nil
	}
	return raw, nil
}

// judgeFormOf fills a judge of the form from an item of a definition's
// judges: list. It refuses an item the form cannot show as it is, so
// that saving the form never changes it.
func judgeFormOf(n *yaml.Node) (judgeForm, error) {
	if n.Kind != yaml.MappingNode {
		return judgeForm{}, errors.New("it is not a mapping")
	}
	var k spec.KindInfo
	for i := 0; i+1 < len(n.Content); i += 2 {
		for _, info := range kindInfos() {
			if info.Name == n.Content[i].Value {
				if info.Local {
					return judgeForm{}, fmt.Errorf("it is a judge of kind %s, which is written in suite files only", info.Name)
				}
				k = info
			}
		}
	}
	if k.Name == "" {
		return judgeForm{}, errors.New("it is of no kind the form writes")
	}
	j := judgeForm{Kind: k.Name, Values: map[string]string{}}
	fields := fieldsOf(k)
	var read func(prefix string, m *yaml.Node) error
	read = func(prefix string, m *yaml.Node) error {
		for i := 0; i+1 < len(m.Content); i += 2 {
			key, value := prefix+m.Content[i].Value, m.Content[i+1]
			switch {
			case key == "name" && value.Kind == yaml.ScalarNode:
				j.Name = value.Value
				continue
			case key == "soft" && value.Kind == yaml.ScalarNode:
				j.Soft = value.Value == "true"
				continue
			}
			at := slices.IndexFunc(fields, func(f formField) bool { return f.Path == key })
			if at < 0 {
				if value.Kind == yaml.MappingNode && slices.ContainsFunc(fields, func(f formField) bool { return strings.HasPrefix(f.Path, key+".") }) {
					if err := read(key+".", value); err != nil {
						return err
					}
					continue
				}
				return fmt.Errorf("the form does not edit its field %s", key)
			}
			text, err := formValue(fields[at], value)
			if err != nil {
				return fmt.Errorf("its %s is %w", key, err)
			}
			if text != "" {
				j.Values[key] = text
			}
		}
		return nil
	}
	return j, read("", n)
}

// formValue is a field's value as the form shows it.
func formValue(f formField, n *yaml.Node) (string, error) {
	switch f.Control {
	case controlYAML:
		out, err := yaml.Marshal(n)
		return strings.TrimSuffix(string(out), "\n"), err
	case controlLines:
		if n.Kind != yaml.SequenceNode {
			return "", errors.New("not a list")
		}
		var lines []string
		for _, item := range n.Content {
			if item.Kind != yaml.ScalarNode || strings.Contains(item.Value, "\n") || strings.TrimSpace(item.Value) != item.Value || item.Value == "" {
				return "", errors.New("a list with an item that is not one line of text")
			}
			lines = append(lines, item.Value)
		}
		return strings.Join(lines, "\n"), nil
	case controlTrue:
		if n.Value != "true" {
			return "", fmt.Errorf("%q, not true", n.Value)
		}
		return "", nil
	}
	if n.Kind != yaml.ScalarNode {
		return "", errors.New("not a single value")
	}
	if f.Control == controlText && strings.Contains(n.Value, "\n") {
		return "", errors.New("text of several lines")
	}
	return n.Value, nil
}

// A judgeBlock is a judge of the form as case_form.tmpl shows it.
type judgeBlock struct {
	Index int
	Kind  spec.KindInfo
	Name  string
	Soft  bool
	// Error is what is wrong with the judge as a whole.
	Error  string
	Fields []fieldBlock
}

// A fieldBlock is a field of a judge as case_form.tmpl shows it.
type fieldBlock struct {
	formField
	// Input is the field's name in the form: judges.N.f.PATH.
	Input, Value, Error string
}

// judgeBlocks are the form's judges as case_form.tmpl shows them, with
// the problems found.
func judgeBlocks(judges []judgeForm, errs map[string]string) []judgeBlock {
	out := make([]judgeBlock, len(judges))
	for i, j := range judges {
		k, _ := formKind(j.Kind)
		if k.Name == "" {
			k.Name = j.Kind
		}
		b := judgeBlock{Index: i, Kind: k, Name: j.Name, Soft: j.Soft, Error: errs[judgeKey(i, "")]}
		for _, f := range fieldsOf(k) {
			b.Fields = append(b.Fields, fieldBlock{formField: f, Input: judgeKey(i, f.Path), Value: j.Values[f.Path], Error: errs[judgeKey(i, f.Path)]})
		}
		out[i] = b
	}
	return out
}
