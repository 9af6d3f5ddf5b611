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
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return nil, fmt.Errorf("json_schema: the schema is not JSON: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(noSchemaLoading{})
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, fmt.Errorf("json_schema: %w", err)
	}
	compiled, err := c.Compile(schemaURL)
	if err != nil {
		return nil, fmt.Errorf("json_schema: invalid schema: %s", schemaErrorText(err))
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
