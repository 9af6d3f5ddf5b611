package spec

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/mcp"
)

// SchemaID is the $id of the suite file's JSON Schema.
const SchemaID = "https://gavel.dev/schema/suite.json"

// Schema returns the JSON Schema (draft 2020-12) of a suite file, for
// editors: it completes field names, shows each field's description and
// marks unknown fields and values of the wrong type before gavel runs.
//
// It is generated from SuiteFile by reflection: a struct is an object
// whose properties are its yaml names, described by its doc tags, with no
// other properties allowed (unknown fields are errors). Each struct type
// is a definition under $defs named after it, so that a case file can be
// checked too: "suite.json#/$defs/CaseFile" is a YAML or JSON file of
// cases, "suite.json#/$defs/CaseSpec" one case (a line of a JSON Lines
// file).
//
// The schema says what the types say, and a little more (thresholds,
// the values of enumerations, required fields); Build checks the rest,
// such as "exactly one kind of rule per item".
func Schema() []byte {
	g := &schemaGen{defs: map[string]any{}, names: map[string]reflect.Type{}}
	g.ref(reflect.TypeFor[SuiteFile]())
	g.defs["CaseFile"] = map[string]any{
		"description": "A case file: a YAML or JSON list of cases. (A JSON Lines file, .jsonl, holds one case a line.)",
		"type":        "array",
		"items":       g.ref(reflect.TypeFor[CaseSpec]()),
	}
	doc := map[string]any{
		"$schema":     "https://json-schema.org/draft/2020-12/schema",
		"$id":         SchemaID,
		"title":       "Gavel suite",
		"description": "A Gavel suite file (gavel.yaml): the agent under test, the models that judge and play users, a threshold, and cases, inline or from case files.",
		"$ref":        "#/$defs/SuiteFile",
		"$defs":       g.defs,
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		// The schema is maps, slices, strings, numbers and booleans.
		panic("spec: encoding the schema: " + err.Error())
	}
	return b.Bytes()
}

// customSchemas are the schemas of the format's types that read
// themselves (UnmarshalYAML): reflection sees their Go fields, not what
// they accept. Every such type reachable from SuiteFile needs an entry
// here (TestSchemaCoversCustomTypes). ref returns a reference to the
// definition of a type.
var customSchemas map[reflect.Type]func(g *schemaGen) map[string]any

func init() {
	customSchemas = map[reflect.Type]func(g *schemaGen) map[string]any{
		reflect.TypeFor[JudgeSpec](): judgeSchema,
		reflect.TypeFor[EveryCaseSpec](): func(g *schemaGen) map[string]any {
			return map[string]any{"oneOf": []any{
				map[string]any{"type": "string", "description": "The path of a YAML file holding the judges (rules:, checks:, judges:), relative to the suite."},
				g.object(reflect.TypeFor[EveryCaseSpec]()),
			}}
		},
		reflect.TypeFor[axes](): func(*schemaGen) map[string]any {
			return map[string]any{"oneOf": []any{
				map[string]any{
					"type":                 "object",
					"description":          "Each axis's name, and what it measures, in the order reports list them.",
					"additionalProperties": map[string]any{"type": "string"},
					"minProperties":        1,
				},
				map[string]any{
					"type": "array",
					"items": map[string]any{
						"type":                 "object",
						"properties":           map[string]any{"name": map[string]any{"type": "string"}, "description": map[string]any{"type": "string"}},
						"required":             []any{"name", "description"},
						"additionalProperties": false,
					},
					"minItems": 1,
				},
			}}
		},
		reflect.TypeFor[exampleList](): func(g *schemaGen) map[string]any {
			return map[string]any{"oneOf": []any{
				map[string]any{"type": "string", "description": "A file of examples, relative to the suite: a YAML list of them, as gavel calibrate --disagreements writes it."},
				map[string]any{"type": "array", "items": g.ref(reflect.TypeFor[ExampleSpec]())},
			}}
		},
		reflect.TypeFor[Args](): func(*schemaGen) map[string]any {
			return map[string]any{
				"type":        "object",
				"description": "Argument names and their expected values: a value, or a matcher (a mapping of $ keys: $any_of, $regex, $approx with $tolerance, $eq, $subset, $exact, $optional, $normalize). Scalars keep the type written: 2024-05-20 and 01234 are strings.",
			}
		},
		reflect.TypeFor[Value](): func(*schemaGen) map[string]any {
			return map[string]any{"description": "Any value, sent as JSON; scalars keep the type written: 2024-05-20 and 01234 are strings."}
		},
		reflect.TypeFor[Metadata](): func(*schemaGen) map[string]any {
			return map[string]any{
				"type":        "object",
				"description": "Names and values: text, or mappings and lists (kept as their JSON).",
			}
		},
		reflect.TypeFor[CaseEntry](): func(g *schemaGen) map[string]any {
			return map[string]any{"oneOf": []any{
				map[string]any{
					"type":        "string",
					"description": "A glob of case files, relative to the suite: YAML or JSON lists of cases, or JSON Lines files (.jsonl) of one case a line.",
				},
				g.ref(reflect.TypeFor[CaseSpec]()),
			}}
		},
	}
}

// schemaField names a field of the format by the struct that declares it
// and its yaml name.
type schemaField struct {
	in   reflect.Type
	name string
}

// fieldSchemas add to the schemas of some fields what their Go types
// cannot say: ranges checked by Build, and the values of enumerations.
// Every entry must name a field (TestSchemaFieldTable).
var fieldSchemas = map[schemaField]map[string]any{
	{reflect.TypeFor[SuiteFile](), "threshold"}:                  {"exclusiveMinimum": 0, "maximum": 1},
	{reflect.TypeFor[Expectations](), "judge_threshold"}:         {"minimum": 0, "maximum": 1},
	{reflect.TypeFor[ToolCallExpectations](), "tool_call_order"}: {"enum": []any{"strict", "any", "subset"}},
	{reflect.TypeFor[ToolCallExpectations](), "tool_call_f1"}:    {"minimum": 0, "maximum": 1},
	{reflect.TypeFor[ToolCallSpec](), "min"}:                     {"minimum": 0},
	{reflect.TypeFor[ToolCallSpec](), "max"}:                     {"minimum": 1},
	{reflect.TypeFor[ExecSpec](), "mode"}:                        {"enum": []any{agent.ExecPerSession, agent.ExecShared}},
	{reflect.TypeFor[PriceSpec](), "input"}:                      {"minimum": 0},
	{reflect.TypeFor[PriceSpec](), "output"}:                     {"minimum": 0},
	{reflect.TypeFor[PriceSpec](), "cached_input"}:               {"minimum": 0},
	{reflect.TypeFor[MCPSpec](), "share"}:                        {"enum": []any{shareRun, shareCase, shareTrial}},
	{reflect.TypeFor[MCPSpec](), "transport"}: {"anyOf": []any{
		map[string]any{"enum": []any{mcp.TransportStdio, mcp.TransportStreamable, mcp.TransportSSE}},
		map[string]any{"pattern": `\$\{`}, // read from the environment
	}},
}

// requiredFields are the fields Build refuses to do without.
var requiredFields = map[reflect.Type][]string{
	reflect.TypeFor[SuiteFile]():         {"agent", "cases"},
	reflect.TypeFor[PriceSpec]():         {"input", "output"},
	reflect.TypeFor[ExampleSpec]():       {"response", "verdict"},
	reflect.TypeFor[ExampleSourceSpec](): {"case", "run", "trial"},
}

// schemaGen generates schemas, collecting the definitions of named types.
type schemaGen struct {
	defs  map[string]any
	names map[string]reflect.Type // the type each definition is of
}

// schema returns the schema of a value of type t.
func (g *schemaGen) schema(t reflect.Type) map[string]any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem() // a pointer is optional, which every field is
	}
	if _, custom := customSchemas[t]; custom || (t.Kind() == reflect.Struct && t.Name() != "") {
		return g.ref(t)
	}
	switch t.Kind() {
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return map[string]any{"type": "integer"}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer", "minimum": 0}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.Slice, reflect.Array:
		return map[string]any{"type": "array", "items": g.schema(t.Elem())}
	case reflect.Map:
		s := map[string]any{"type": "object"}
		if t.Elem().Kind() != reflect.Interface {
			s["additionalProperties"] = g.schema(t.Elem())
		}
		return s
	case reflect.Struct:
		return g.object(t)
	}
	return map[string]any{} // any: an interface
}

// ref returns a reference to the definition of the named type t, adding
// the definition on first use.
func (g *schemaGen) ref(t reflect.Type) map[string]any {
	name := t.Name()
	if other, taken := g.names[name]; taken && other != t {
		name = strings.ReplaceAll(t.PkgPath(), "/", ".") + "." + name
	}
	if _, done := g.names[name]; !done {
		g.names[name] = t // before recursing, so that a recursive type refers to itself
		if custom, ok := customSchemas[t]; ok {
			g.defs[name] = custom(g)
		} else {
			g.defs[name] = g.object(t)
		}
	}
	return map[string]any{"$ref": "#/$defs/" + name}
}

// object returns the schema of a struct: its fields, inline ones
// included, as the loader reads them.
func (g *schemaGen) object(t reflect.Type) map[string]any {
	props := map[string]any{}
	g.fields(t, props)
	s := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if req := requiredFields[t]; len(req) > 0 {
		s["required"] = slices.Sorted(slices.Values(req))
	}
	return s
}

// fields adds t's fields to props, by the rules of yamlFields: a field
// is named by its yaml tag, and one without a name is unknown to the
// loader unless it is inline.
func (g *schemaGen) fields(t reflect.Type, props map[string]any) {
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if slices.Contains(strings.Split(opts, ","), "inline") {
			if ft := derefType(f.Type); ft.Kind() == reflect.Struct {
				g.fields(ft, props)
			}
			continue
		}
		if !f.IsExported() || name == "" || name == "-" {
			continue
		}
		s := g.schema(f.Type)
		if doc := f.Tag.Get("doc"); doc != "" {
			s["description"] = doc
		}
		for k, v := range tagSchema(f.Tag) {
			s[k] = v
		}
		for k, v := range fieldSchemas[schemaField{t, name}] {
			s[k] = v
		}
		props[name] = s
	}
}

func derefType(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// tagSchema is what a field's schema tags add to its schema: enum (a
// comma-separated list of values), minimum and maximum.
func tagSchema(tag reflect.StructTag) map[string]any {
	out := map[string]any{}
	if enum := tag.Get("enum"); enum != "" {
		var values []any
		for _, v := range strings.Split(enum, ",") {
			values = append(values, v)
		}
		out["enum"] = values
	}
	for _, key := range []string{"minimum", "maximum"} {
		if v := tag.Get(key); v != "" {
			n, err := strconv.ParseFloat(v, 64)
			if err != nil {
				panic("spec: a " + key + " tag is not a number: " + v)
			}
			out[key] = n
		}
	}
	return out
}

// judgeSchema is the schema of an item of rules:, judges: or checks:: one
// of the kinds, each an object that requires its key.
func judgeSchema(g *schemaGen) map[string]any {
	var oneOf []any
	for _, name := range KindNames() {
		k := kinds[name]
		props := map[string]any{}
		g.fields(reflect.TypeFor[commonFields](), props)
		g.fields(k.config, props)
		g.defs[kindDef(name)] = map[string]any{
			"description":          k.doc,
			"type":                 "object",
			"properties":           props,
			"required":             []any{name},
			"additionalProperties": false,
		}
		oneOf = append(oneOf, map[string]any{"$ref": "#/$defs/" + kindDef(name)})
	}
	return map[string]any{
		"description": "A judge: a mapping that gives exactly one kind's key (docs/judges.md lists the kinds).",
		"oneOf":       oneOf,
	}
}

// kindDef names the definition of a kind's item.
func kindDef(name string) string { return "judge." + name }
