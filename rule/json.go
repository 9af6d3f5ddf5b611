package rule

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/gavelhq/gavel/judge"
)

// ValidJSON passes when the text, less surrounding whitespace, is one JSON
// value. It is strict: a reply wrapped in a Markdown code fence fails, as
// it would fail a program that parses the reply.
func ValidJSON(scope Scope) (judge.Judge, error) {
	return passageRule("valid_json", scope, func(p passage) (bool, string) {
		if _, err := decodeJSON([]byte(p.text)); err != nil {
			return false, fmt.Sprintf("%s is not valid JSON: %v (got %s)", p.where, err, excerpt(p.text, 120))
		}
		return true, fmt.Sprintf("%s is valid JSON", p.where)
	})
}

// schemaURL is where a JSONSchema rule's schema is registered; it appears
// in no message a user reads.
const schemaURL = "gavel:///schema.json"

// JSONSchema passes when the text is JSON that validates against schema
// (JSON Schema draft 2020-12 unless the schema's $schema says otherwise).
// A schema that is not JSON or not a valid schema is an error now, not when
// judging. References ($ref) must point inside the schema: Gavel loads no
// schema from files or the network while judging.
func JSONSchema(schema []byte, scope Scope) (judge.Judge, error) {
	compiled, err := compileSchema("json_schema", schema)
	if err != nil {
		return nil, err
	}
	return passageRule("json_schema", scope, func(p passage) (bool, string) {
		value, err := jsonschema.UnmarshalJSON(strings.NewReader(p.text))
		if err != nil {
			return false, fmt.Sprintf("%s is not valid JSON: %v (got %s)", p.where, err, excerpt(p.text, 120))
		}
		if n := uncheckableNumber(value); n != "" {
			if len(n) > 40 { // a JSON number is ASCII
				n = n[:40] + "…"
			}
			return false, fmt.Sprintf("%s holds the number %s, beyond what a schema can be checked against (exponents up to ±1000000)", p.where, n)
		}
		if err := compiled.Validate(value); err != nil {
			return false, fmt.Sprintf("%s does not match the schema: %s", p.where, schemaErrorText(err))
		}
		return true, fmt.Sprintf("%s matches the schema", p.where)
	})
}

// compileSchema compiles a JSON Schema for the rule name. A schema that
// is not JSON or not a valid schema is an error.
func compileSchema(name string, schema []byte) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return nil, fmt.Errorf("%s: the schema is not JSON: %w", name, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(noSchemaLoading{})
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	compiled, err := c.Compile(schemaURL)
	if err != nil {
		return nil, fmt.Errorf("%s: invalid schema: %s", name, schemaErrorText(err))
	}
	return compiled, nil
}

// maxJSONStarts bounds how many places ContainsJSON tries to read JSON
// from, so that a long text full of braces costs a bounded time.
const maxJSONStarts = 200

// ContainsJSON passes when the text holds a JSON object or array
// somewhere: alone, in prose or in a Markdown fence (promptfoo's
// contains-json). With a schema (nil for none) one of the values found
// must be valid against it. The schema is checked now, as JSONSchema's.
func ContainsJSON(schema []byte, scope Scope) (judge.Judge, error) {
	var compiled *jsonschema.Schema
	if schema != nil {
		var err error
		if compiled, err = compileSchema("contains_json", schema); err != nil {
			return nil, err
		}
	}
	return passageRule("contains_json", scope, func(p passage) (bool, string) {
		found, why := 0, ""
		tried := 0
		for i := 0; i < len(p.text) && tried < maxJSONStarts; i++ {
			if p.text[i] != '{' && p.text[i] != '[' {
				continue
			}
			tried++
			dec := json.NewDecoder(strings.NewReader(p.text[i:]))
			dec.UseNumber()
			var v any
			if dec.Decode(&v) != nil {
				continue
			}
			raw := p.text[i : i+int(dec.InputOffset())]
			i += len(raw) - 1 // the values inside it are part of it
			found++
			if compiled == nil {
				return true, fmt.Sprintf("%s holds JSON: %s", p.where, excerpt(raw, 120))
			}
			value, err := jsonschema.UnmarshalJSON(strings.NewReader(raw))
			if err != nil {
				continue
			}
			if n := uncheckableNumber(value); n != "" {
				if len(n) > 40 { // a JSON number is ASCII
					n = n[:40] + "…"
				}
				why = fmt.Sprintf("holds the number %s, beyond what a schema can be checked against", n)
				continue
			}
			if err := compiled.Validate(value); err != nil {
				why = "does not match the schema: " + schemaErrorText(err)
				continue
			}
			return true, fmt.Sprintf("%s holds JSON that matches the schema: %s", p.where, excerpt(raw, 120))
		}
		if found == 0 {
			return false, fmt.Sprintf("%s holds no JSON object or array (got %s)", p.where, excerpt(p.text, 120))
		}
		return false, fmt.Sprintf("%s holds JSON, but none that matches the schema: the last one %s", p.where, why)
	})
}

// uncheckableNumber returns the first number in v that the schema
// validator cannot compare, or "". The validator reads numbers with
// big.Rat, which refuses exponents beyond ±1000000 (and the validator then
// crashes), so such a number in a reply is refused before it gets there.
func uncheckableNumber(v any) string {
	switch x := v.(type) {
	case json.Number:
		if _, ok := new(big.Rat).SetString(x.String()); !ok {
			return x.String()
		}
	case []any:
		for _, e := range x {
			if n := uncheckableNumber(e); n != "" {
				return n
			}
		}
	case map[string]any:
		for _, e := range x {
			if n := uncheckableNumber(e); n != "" {
				return n
			}
		}
	}
	return ""
}

// schemaErrorText flattens the validator's multi-line report into one line,
// without the header that names the schema's internal URL.
func schemaErrorText(err error) string {
	lines := strings.Split(err.Error(), "\n")
	if len(lines) > 1 && strings.HasPrefix(lines[0], "jsonschema validation failed") {
		lines = lines[1:]
	}
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(strings.TrimSpace(l), "- ")
	}
	return strings.ReplaceAll(strings.Join(lines, "; "), schemaURL, "schema")
}

// noSchemaLoading refuses every $ref outside the schema itself.
type noSchemaLoading struct{}

func (noSchemaLoading) Load(url string) (any, error) {
	return nil, fmt.Errorf("$ref %q points outside the schema; Gavel loads no schema from files or the network, so inline it (under $defs)", url)
}
