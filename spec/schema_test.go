package spec

import (
	"bytes"
	"encoding"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"

	"github.com/gavelhq/gavel/internal/golden"
)

func TestSchemaGolden(t *testing.T) {
	got := Schema()
	if !bytes.Equal(got, Schema()) {
		t.Fatal("two calls of Schema differ")
	}
	golden.Check(t, "suite.schema.json", string(got))
}

// compileSchema compiles Schema() and returns the schema at the fragment
// ("" for a suite file, "#/$defs/CaseSpec" for a case).
func compileSchema(t *testing.T, fragment string) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(Schema()))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(SchemaID, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(SchemaID + fragment)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// yamlInstance reads YAML as JSON reads it, for validation.
func yamlInstance(t *testing.T, data []byte) any {
	t.Helper()
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	j, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(j))
	if err != nil {
		t.Fatal(err)
	}
	return inst
}

func TestSchemaValidatesSupportDesk(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "examples", "support-desk", "gavel.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := compileSchema(t, "").Validate(yamlInstance(t, data)); err != nil {
		t.Errorf("examples/support-desk/gavel.yaml is invalid: %v", err)
	}
}

func TestSchemaSuites(t *testing.T) {
	suite := compileSchema(t, "")
	for _, tc := range []struct {
		name string
		yaml string
		// want is "" for a valid suite, or a part of the validation error.
		want string
	}{
		{
			name: "smallest suite",
			yaml: "agent: {exec: {command: [cat]}}\ncases: [cases/*.jsonl]\n",
		},
		{
			name: "seed case schemas",
			yaml: `agent: {builtin: {model: 'openai:gpt-5-mini', system_prompt: Be brief.}}
models: {judge: 'anthropic:claude-opus-4-5'}
threshold: 0.8
cases:
  - id: case_001
    input: "where's my order #12345?"
    expected_tool_calls: [{name: get_order_status, args: {order_id: "12345"}}]
    expected_response_traits: [mentions delivery date, no false apology]
    tags: [happy_path, lookup]
    difficulty: easy
    metadata: {source: trace_2026_03_09, owner: evals-team}
  - id: get_listing_details
    prompt: What are the details of my Beach House listing?
    expected_tools: [get_listing_details]
    judge_prompt: The response names the listing.
    judge_threshold: 0.7
  - id: multi_round_conversation
    rounds:
      - prompt: What are my listings?
        judge_prompt: Should list all properties
      - prompt: What's the occupancy for the first one?
        judge_prompt: Should show occupancy data
    test_agent_revival: true
`,
		},
		{
			name: "a jury of juries",
			yaml: `agent: {http: {url: 'http://127.0.0.1:8080/chat'}}
cases:
  - id: a
    input: hi
    judges:
      - jury:
          strategy: average
          jurors:
            - {rubric: polite}
            - {jury: {jurors: [{traits: [short]}, {correctness: answers}]}}
        threshold: 0.6
`,
		},
		{
			name: "unknown suite field",
			yaml: "agent: {exec: {command: [cat]}}\ntreshold: 0.8\ncases: [a.yaml]\n",
			want: "at '': additional properties 'treshold' not allowed",
		},
		{
			name: "unknown case field",
			yaml: "agent: {exec: {command: [cat]}}\ncases: [{id: a, input: hi, judge_treshold: 0.7}]\n",
			want: "at '/cases/0': additional properties 'judge_treshold' not allowed",
		},
		{
			name: "unknown field in a round's rule",
			yaml: "agent: {exec: {command: [cat]}}\ncases: [{id: a, rounds: [{prompt: hi, rules: [{contanis: x}]}]}]\n",
			want: "at '/cases/0/rounds/0/rules/0': additional properties 'contanis' not allowed",
		},
		{
			name: "string for an integer",
			yaml: "agent: {exec: {command: [cat]}}\ntrials: many\ncases: [a.yaml]\n",
			want: "at '/trials': got string, want integer",
		},
		{
			name: "string for a list",
			yaml: "agent: {exec: {command: [cat]}}\ncases: [{id: a, input: hi, expected_tools: get_order_status}]\n",
			want: "at '/cases/0/expected_tools': got string, want array",
		},
		{
			name: "case that is a list",
			yaml: "agent: {exec: {command: [cat]}}\ncases: [[a]]\n",
			want: "at '/cases/0': got array, want object",
		},
		{
			name: "threshold above 1",
			yaml: "agent: {exec: {command: [cat]}}\nthreshold: 1.5\ncases: [a.yaml]\n",
			want: "at '/threshold': maximum: got 1.5, want 1",
		},
		{
			name: "threshold 0",
			yaml: "agent: {exec: {command: [cat]}}\nthreshold: 0\ncases: [a.yaml]\n",
			want: "at '/threshold': exclusiveMinimum: got 0, want 0",
		},
		{
			name: "judge_threshold above 1",
			yaml: "agent: {exec: {command: [cat]}}\ncases: [{id: a, input: hi, judge_prompt: x, judge_threshold: 1.5}]\n",
			want: "at '/cases/0/judge_threshold': maximum: got 1.5, want 1",
		},
		{
			name: "unknown strategy",
			yaml: "agent: {exec: {command: [cat]}}\ncases: [{id: a, input: hi, judges: [{jury: {strategy: loudest, jurors: [{rubric: x}]}}]}]\n",
			want: "at '/cases/0/judges/0/jury/strategy': value must be one of ",
		},
		{
			name: "no agent",
			yaml: "cases: [a.yaml]\n",
			want: "missing property 'agent'",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := suite.Validate(yamlInstance(t, []byte(tc.yaml)))
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("got %v, want valid", err)
			case tc.want != "" && err == nil:
				t.Errorf("got valid, want an error with %q", tc.want)
			case tc.want != "" && !strings.Contains(err.Error(), tc.want):
				t.Errorf("got %v, want an error with %q", err, tc.want)
			}
		})
	}
}

// TestSchemaCaseFiles checks the definitions case files refer to.
func TestSchemaCaseFiles(t *testing.T) {
	for _, tc := range []struct {
		name, fragment, doc string
		valid               bool
	}{
		{"a JSON Lines case", "#/$defs/CaseSpec", `{"id": "case_001", "input": "where's my order #12345?", "expected_tool_calls": [{"name": "get_order_status", "args": {"order_id": "12345"}}]}`, true},
		{"a JSON Lines case with an unknown field", "#/$defs/CaseSpec", `{"id": "case_001", "inptu": "where's my order?"}`, false},
		{"a YAML case file", "#/$defs/CaseFile", "- {id: a, input: hi, expected_tools: [x]}\n- {id: b, prompt: hello, forbidden_tools: [y]}\n", true},
		{"a case file that is one case", "#/$defs/CaseFile", "id: a\ninput: hi\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := compileSchema(t, tc.fragment).Validate(yamlInstance(t, []byte(tc.doc)))
			if got := err == nil; got != tc.valid {
				t.Errorf("valid: got %v (%v), want %v", got, err, tc.valid)
			}
		})
	}
}

// reachable returns every type a suite file's values may have, from
// SuiteFile down.
func reachable() []reflect.Type {
	var out []reflect.Type
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type)
	walk = func(t reflect.Type) {
		if seen[t] {
			return
		}
		seen[t] = true
		out = append(out, t)
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array:
			walk(t.Elem())
		case reflect.Map:
			walk(t.Key())
			walk(t.Elem())
		case reflect.Struct:
			for i := range t.NumField() {
				if t.Field(i).IsExported() { // the loader sees no other
					walk(t.Field(i).Type)
				}
			}
		}
	}
	walk(reflect.TypeFor[SuiteFile]())
	return out
}

// TestSchemaCoversCustomTypes fails when a type of the format reads
// itself from YAML (UnmarshalYAML, or UnmarshalText, which yaml uses for
// scalars) but customSchemas does not say what it accepts.
func TestSchemaCoversCustomTypes(t *testing.T) {
	textUnmarshaler := reflect.TypeFor[encoding.TextUnmarshaler]()
	for _, typ := range reachable() {
		p := reflect.PointerTo(typ)
		_, yamlMethod := p.MethodByName("UnmarshalYAML")
		if !yamlMethod && !p.Implements(textUnmarshaler) {
			continue
		}
		if _, ok := customSchemas[typ]; !ok {
			t.Errorf("%v reads itself from YAML, but customSchemas has no entry for it: add one saying what it accepts", typ)
		}
	}
}

// TestSchemaFieldTables fails when fieldSchemas or requiredFields name a
// field that does not exist (renamed, or moved to another struct).
func TestSchemaFieldTables(t *testing.T) {
	for f := range fieldSchemas {
		if _, ok := yamlFields(f.in)[f.name]; !ok {
			t.Errorf("fieldSchemas: %s has no field %q", f.in.Name(), f.name)
		}
	}
	for typ, names := range requiredFields {
		for _, name := range names {
			if _, ok := yamlFields(typ)[name]; !ok {
				t.Errorf("requiredFields: %s has no field %q", typ.Name(), name)
			}
		}
	}
}

// TestSchemaMatchesLoader checks that every struct's definition has as
// properties exactly the fields the loader knows (and reports unknown
// fields against).
func TestSchemaMatchesLoader(t *testing.T) {
	var doc struct {
		Defs map[string]struct {
			Properties map[string]any `json:"properties"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(Schema(), &doc); err != nil {
		t.Fatal(err)
	}
	for _, typ := range reachable() {
		if typ.Kind() != reflect.Struct || typ.Name() == "" || typ == reflect.TypeFor[Expectations]() || typ == reflect.TypeFor[ToolCallExpectations]() {
			continue // Expectations and ToolCallExpectations are inline: their fields are their parents'
		}
		if _, custom := customSchemas[typ]; custom {
			continue
		}
		def, ok := doc.Defs[typ.Name()]
		if !ok {
			t.Errorf("no definition of %s", typ.Name())
			continue
		}
		var want, got []string
		for name := range yamlFields(typ) {
			want = append(want, name)
		}
		for name := range def.Properties {
			got = append(got, name)
		}
		slices.Sort(want)
		slices.Sort(got)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: properties (-loader +schema):\n%s", typ.Name(), diff)
		}
	}
}
