package rule_test

import (
	"testing"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/judge/judgetest"
	"github.com/gavelhq/gavel/rule"
)

const orderSchema = `{
	"type": "object",
	"required": ["order_id", "status"],
	"properties": {
		"order_id": {"type": "string", "pattern": "^[0-9]+$"},
		"status": {"enum": ["shipped", "processing", "cancelled"]},
		"items": {"type": "array", "items": {"$ref": "#/$defs/item"}}
	},
	"$defs": {"item": {"type": "object", "required": ["sku"], "properties": {"qty": {"type": "integer", "minimum": 1}}}}
}`

func TestJSONRules(t *testing.T) {
	pass, fail := judge.StatusPass, judge.StatusFail
	schema := func() (judge.Judge, error) { return rule.JSONSchema([]byte(orderSchema), rule.Final) }
	judgetest.RunCases(t, []judgetest.Case{
		{Name: "valid JSON", Build: func() (judge.Judge, error) { return rule.ValidJSON(rule.Final) }, Transcript: conversation(` {"ok": true} `), WantStatus: pass},
		{Name: "invalid JSON", Build: func() (judge.Judge, error) { return rule.ValidJSON(rule.Final) }, Transcript: conversation(`{"ok": tru}`), WantStatus: fail, WantIn: []string{"is not valid JSON"}},
		{Name: "two values", Build: func() (judge.Judge, error) { return rule.ValidJSON(rule.Final) }, Transcript: conversation(`{} {}`), WantStatus: fail, WantIn: []string{"unexpected data after the JSON value"}},
		{Name: "fenced JSON is not JSON", Build: func() (judge.Judge, error) { return rule.ValidJSON(rule.Final) }, Transcript: conversation("```json\n{}\n```"), WantStatus: fail},

		{Name: "matches the schema", Build: schema, Transcript: conversation(`{"order_id": "12345", "status": "shipped", "items": [{"sku": "a", "qty": 2}]}`), WantStatus: pass, WantIn: []string{"matches the schema"}},
		{Name: "missing property", Build: schema, Transcript: conversation(`{"order_id": "12345"}`), WantStatus: fail, WantIn: []string{"missing property 'status'"}},
		{Name: "value not allowed", Build: schema, Transcript: conversation(`{"order_id": "12345", "status": "lost"}`), WantStatus: fail, WantIn: []string{"at '/status'"}},
		{Name: "nested $ref checked", Build: schema, Transcript: conversation(`{"order_id": "1", "status": "shipped", "items": [{"sku": "a", "qty": 0}]}`), WantStatus: fail, WantIn: []string{"at '/items/0/qty'"}},
		{Name: "1.0 is an integer in JSON Schema", Build: schema, Transcript: conversation(`{"order_id": "1", "status": "shipped", "items": [{"sku": "a", "qty": 1.0}]}`), WantStatus: pass},
		{Name: "a number too large for the validator fails instead of crashing it", Build: func() (judge.Judge, error) { return rule.JSONSchema([]byte(`{"maximum": 0}`), rule.Final) }, Transcript: conversation(`{"n": 1e1000001}`), WantStatus: fail, WantIn: []string{"holds the number 1e1000001"}},
		{Name: "not JSON at all", Build: schema, Transcript: conversation(`Order 12345 shipped.`), WantStatus: fail, WantIn: []string{"is not valid JSON"}},
	})
}

func TestJSONSchemaRefusesBadSchemasWhenBuilt(t *testing.T) {
	judgetest.RunBuildErrorCases(t, []judgetest.BuildErrorCase{
		{Name: "not JSON", Build: func() (judge.Judge, error) { return rule.JSONSchema([]byte(`{type: object}`), rule.Final) }, WantErr: "the schema is not JSON"},
		{Name: "not a schema", Build: func() (judge.Judge, error) { return rule.JSONSchema([]byte(`{"type": "nosuchtype"}`), rule.Final) }, WantErr: "invalid schema"},
		{Name: "remote reference", Build: func() (judge.Judge, error) {
			return rule.JSONSchema([]byte(`{"$ref": "https://example.com/order.json"}`), rule.Final)
		}, WantErr: "loads no schema from files or the network"},
	})
}

// ContainsJSON finds JSON in prose or a Markdown fence, as promptfoo's
// contains-json does, and with a schema wants one value that matches it.
func TestContainsJSON(t *testing.T) {
	pass, fail := judge.StatusPass, judge.StatusFail
	anyJSON := func() (judge.Judge, error) { return rule.ContainsJSON(nil, rule.Final) }
	schema := func() (judge.Judge, error) { return rule.ContainsJSON([]byte(orderSchema), rule.Final) }
	judgetest.RunCases(t, []judgetest.Case{
		{Name: "JSON alone", Build: anyJSON, Transcript: conversation(`{"ok": true}`), WantStatus: pass, WantIn: []string{"holds JSON"}},
		{Name: "JSON in prose", Build: anyJSON, Transcript: conversation(`Sure! Here it is: {"ok": true}. Anything else?`), WantStatus: pass},
		{Name: "fenced JSON", Build: anyJSON, Transcript: conversation("```json\n[1, 2]\n```"), WantStatus: pass},
		{Name: "no JSON", Build: anyJSON, Transcript: conversation(`Order {12345} shipped [today].`), WantStatus: fail, WantIn: []string{"holds no JSON object or array"}},
		{Name: "a bare number is not an object or array", Build: anyJSON, Transcript: conversation(`42`), WantStatus: fail},
		{Name: "the second value matches", Build: schema, Transcript: conversation(`Draft: {"order_id": "x"} Final: {"order_id": "12345", "status": "shipped"}`), WantStatus: pass, WantIn: []string{"matches the schema"}},
		{Name: "none matches", Build: schema, Transcript: conversation(`Here: {"order_id": "12345"}`), WantStatus: fail, WantIn: []string{"missing property 'status'"}},
		{Name: "a number too large for the validator fails instead of crashing it", Build: func() (judge.Judge, error) { return rule.ContainsJSON([]byte(`{"maximum": 0}`), rule.Final) }, Transcript: conversation(`x {"n": 1e1000001}`), WantStatus: fail, WantIn: []string{"holds the number 1e1000001"}},
	})
	if _, err := rule.ContainsJSON([]byte(`{"type": 3}`), rule.Final); err == nil {
		t.Error("an invalid schema was accepted")
	}
}
