package spec

import (
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gavelhq/gavel/judge"
)

// The judges a suite file can name live in one registry. Each kind of
// judge is declared once, as a config struct registered under its key:
//
//	- contains: refund            # kind "contains", config containsRule
//	  ignore_case: true
//	- rubric: Is it polite?        # kind "rubric", config rubricJudge
//	  threshold: 0.8
//
// An item of rules:, judges: or checks: is a mapping that gives exactly
// one kind's key; the item's other keys are the rest of that kind's
// config (and the fields every kind takes, commonFields). The loader
// decodes the item into the config, checks its fields by the config's
// yaml tags, and the JSON Schema (Schema) and the reference
// (docs/judges.md, Reference) are generated from the same structs and
// their doc tags; the config's build method makes the judge. A new kind
// is one config struct, its build method and one register call.

// A kind is one kind of judge a suite file can name.
type kind struct {
	// name is the key that selects the kind; the config has a field of
	// the same yaml name.
	name string
	// group orders the reference: one of groups.
	group string
	// doc says what the judge does, for the reference and the schema.
	doc string
	// example is an item of a judges: list, as YAML; TestKindExamples
	// builds every one.
	example string
	// llm is true for a kind that asks a model: it runs in the LLM tier,
	// after every rule has passed. A composite is in that tier when any
	// of its parts is.
	llm bool
	// runsLocally is true for a kind that runs commands, reads files or
	// queries databases on the machine that judges, or starts servers
	// that do: the web app leaves such kinds to suite files.
	runsLocally bool
	// library names the Go constructors the kind spells (rule.Contains),
	// so that TestEveryConstructorHasAKind can check every one has a
	// suite-file spelling.
	library []string

	config reflect.Type // a struct; a pointer to it is a judgeConfig
}

// The groups of kinds, in the reference's order.
var groups = []string{"Text", "Style", "JSON", "Tool calls", "Limits", "Files and the world", "Programs", "LLM judges", "Composition"}

// A judgeConfig is a kind's settings, decoded from an item. build makes
// the judge, or says what is wrong with the settings (the builder adds
// where).
type judgeConfig interface {
	build(b *builder) (judge.Judge, error)
}

// A describer says what a judge expects, in a few words, for reports
// (Case.Expected). Kinds without one are described by their key's value.
type describer interface {
	words() string
}

// A composite has judges as parts; it runs in the LLM tier when one of
// them does.
type composite interface {
	parts() []JudgeSpec
}

// kinds are the registered kinds by name; kindNames in registration
// order.
var (
	kinds     = map[string]*kind{}
	kindNames []string
)

// register adds a kind whose config is C. It panics on a mistake in the
// declaration, which the package's tests then show.
func register[C any, P interface {
	*C
	judgeConfig
}](k kind) *kind {
	k.config = reflect.TypeFor[C]()
	if _, dup := kinds[k.name]; dup {
		panic("spec: kind " + k.name + " is registered twice")
	}
	if _, ok := yamlFields(k.config)[k.name]; !ok {
		panic("spec: kind " + k.name + "'s config has no field named " + k.name)
	}
	if !slices.Contains(groups, k.group) {
		panic("spec: kind " + k.name + " has an unknown group " + k.group)
	}
	kinds[k.name] = &k
	kindNames = append(kindNames, k.name)
	return &k
}

// commonFields are the fields every kind takes, beside its own.
type commonFields struct {
	Name string `yaml:"name" doc:"A name for reports, instead of the kind's."`
	Soft bool   `yaml:"soft" doc:"A failure is a finding handed to the LLM judges as context, not a failure of the case. Only for judges that ask no model."`
}

// JudgeSpec is one item of rules:, judges: or checks:: a rule, a check,
// an LLM judge, a jury or a composition of judges, written as a mapping
// that gives exactly one kind's key (docs/judges.md lists the kinds).
type JudgeSpec struct {
	// Kind is the kind's name; Config its settings, a pointer to the
	// kind's config struct.
	Kind   string
	Config judgeConfig
	commonFields

	line, column int
	// errs are what was wrong with the item when it was read, as yaml's
	// messages ("line 3:5: ..."); the builder reports them. (Returned by
	// UnmarshalYAML, they would drop the item, and with it the case.)
	errs []string
	// bad marks an item that cannot be built: errs say why, or the loader
	// does (an unknown key).
	bad bool
}

// UnmarshalYAML reads an item: it finds the kind's key and decodes the
// item into the kind's config. Mistakes are kept in the item, for the
// builder to report.
func (s *JudgeSpec) UnmarshalYAML(n *yaml.Node) error {
	if err := s.read(n); err != nil {
		s.bad, s.errs = true, collect(err)
	}
	return nil
}

func (s *JudgeSpec) read(n *yaml.Node) error {
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	s.line, s.column = n.Line, n.Column
	if n.Kind != yaml.MappingNode {
		return typeError(n, "a judge is a mapping that gives one kind's key, such as contains: refund or rubric: ...; see docs/judges.md")
	}
	found := itemKinds(n)
	switch {
	case len(found) > 1:
		return typeError(n, "one judge per item: this one gives %s; write them as separate items, or combine them with all:, any: or weighted:", strings.Join(found, " and "))
	case len(found) == 0:
		s.bad = true
		if onlyCommon(n) {
			return typeError(n, "no kind of judge given: give one kind's key, such as contains, regex, rubric or jury (docs/judges.md lists them)")
		}
		return nil // checkFields names the unknown keys, with the kind probably meant
	}
	k := kinds[found[0]]
	s.Kind = k.name
	for i := 0; i+1 < len(n.Content); i += 2 {
		if v := n.Content[i+1]; n.Content[i].Value == k.name && v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
			return typeError(v, "%s: no value given (docs/judges.md shows an example)", k.name)
		}
	}
	own := &yaml.Node{Kind: yaml.MappingNode, Tag: n.Tag, Line: n.Line, Column: n.Column}
	common := &yaml.Node{Kind: yaml.MappingNode, Line: n.Line, Column: n.Column}
	commons := yamlFields(reflect.TypeFor[commonFields]())
	for i := 0; i+1 < len(n.Content); i += 2 {
		dst := own
		if _, ok := commons[n.Content[i].Value]; ok {
			if _, ok := yamlFields(k.config)[n.Content[i].Value]; !ok {
				dst = common
			}
		}
		dst.Content = append(dst.Content, n.Content[i], n.Content[i+1])
	}
	cfg := reflect.New(k.config)
	s.Config = cfg.Interface().(judgeConfig)
	errs := collect(own.Decode(cfg.Interface()))
	errs = append(errs, collect(common.Decode(&s.commonFields))...)
	// A value of the wrong type makes the item unusable; the loader says
	// so, naming the field (checkFieldsAt), where yaml's message names none.
	n0 := len(errs)
	errs = slices.DeleteFunc(errs, func(e string) bool { return yamlTypeError.MatchString(e) })
	s.bad = len(errs) < n0
	if len(errs) > 0 {
		return &yaml.TypeError{Errors: errs}
	}
	return nil
}

// typeError is a decoding error at n, in the form yamlProblems reads:
// "line L:C: message".
func typeError(n *yaml.Node, format string, args ...any) error {
	return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d:%d: %s", n.Line, n.Column, fmt.Sprintf(format, args...))}}
}

// collect returns the messages of a decoding error.
func collect(err error) []string {
	if err == nil {
		return nil
	}
	if te, ok := err.(*yaml.TypeError); ok {
		return te.Errors
	}
	return []string{err.Error()}
}

// yamlTypeError is the form of yaml's type errors: "line N: cannot
// unmarshal !!str `many` into int".
var yamlTypeError = regexp.MustCompile(`^line \d+: cannot unmarshal `)

// itemKinds returns the kinds whose keys mapping n gives, in its order.
func itemKinds(n *yaml.Node) []string {
	var found []string
	for i := 0; i+1 < len(n.Content); i += 2 {
		if _, ok := kinds[n.Content[i].Value]; ok {
			found = append(found, n.Content[i].Value)
		}
	}
	return found
}

// onlyCommon reports whether every key of mapping n is a common field.
func onlyCommon(n *yaml.Node) bool {
	commons := yamlFields(reflect.TypeFor[commonFields]())
	for i := 0; i < len(n.Content); i += 2 {
		if _, ok := commons[n.Content[i].Value]; !ok {
			return false
		}
	}
	return true
}

// itemFields are the fields an item of kind k may give: its config's and
// the common ones.
func itemFields(k *kind) map[string]reflect.Type {
	fields := maps.Clone(yamlFields(reflect.TypeFor[commonFields]()))
	for name, t := range yamlFields(k.config) {
		fields[name] = t
	}
	return fields
}

// usesModel reports whether the judge s describes asks a model, and so
// belongs to the LLM tier.
func (s JudgeSpec) usesModel() bool {
	k := kinds[s.Kind]
	if k == nil {
		return false
	}
	if k.llm {
		return true
	}
	if c, ok := s.Config.(composite); ok {
		return slices.ContainsFunc(c.parts(), JudgeSpec.usesModel)
	}
	return false
}

// words says what the judge expects, for reports.
func (s JudgeSpec) words() string {
	if d, ok := s.Config.(describer); ok {
		return d.words()
	}
	v := reflect.ValueOf(s.Config).Elem()
	for i := range v.NumField() {
		name, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("yaml"), ",")
		if name != s.Kind {
			continue
		}
		switch f := v.Field(i); f.Kind() {
		case reflect.Bool:
			return s.Kind
		case reflect.String:
			return fmt.Sprintf("%s %q", s.Kind, oneLine(f.String()))
		case reflect.Pointer:
			if f.IsNil() {
				return s.Kind
			}
			return fmt.Sprintf("%s %v", s.Kind, f.Elem().Interface())
		case reflect.Slice:
			if f.Type().Elem().Kind() == reflect.String {
				return fmt.Sprintf("%s %s", s.Kind, strings.Join(f.Interface().([]string), ", "))
			}
		}
	}
	return s.Kind
}

// item builds the judge s describes; field says where it is written, for
// messages (judges[2], or jury.jurors[0] inside a composite).
func (b *builder) item(field string, s JudgeSpec) (judge.Judge, error) {
	if len(s.errs) > 0 {
		b.problems = append(b.problems, yamlProblems(b.atFile, b.atOffset, &yaml.TypeError{Errors: s.errs})...)
	}
	if s.bad || s.Config == nil {
		b.badItems++
		return nil, nil // reported
	}
	named, ownsName := s.Config.(interface{ setName(string) })
	if ownsName {
		named.setName(s.Name) // an LLM judge names its messages too
	}
	j, err := s.Config.build(b)
	if err != nil {
		return nil, fmt.Errorf("%s (%s): %w", field, s.Kind, err)
	}
	if j == nil {
		return nil, nil // a problem recorded already, such as an unknown model
	}
	if s.Name != "" && !ownsName {
		j = judge.Named(s.Name, j)
	}
	if s.Soft {
		if s.usesModel() {
			return nil, fmt.Errorf("%s (%s): soft is for judges that ask no model: an LLM judge's verdict is not a finding for another; remove soft", field, s.Kind)
		}
		j = judge.Soft(j)
	}
	return j, nil
}

// items builds a list of judges, field naming the list.
func (b *builder) items(field string, specs []JudgeSpec) ([]judge.Judge, error) {
	var out []judge.Judge
	for i, s := range specs {
		j, err := b.item(fmt.Sprintf("%s[%d]", field, i), s)
		if err != nil {
			return nil, err
		}
		if j == nil {
			return nil, nil
		}
		out = append(out, j)
	}
	return out, nil
}
