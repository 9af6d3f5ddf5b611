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
