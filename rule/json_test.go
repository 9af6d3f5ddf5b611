package rule_test

import (
	"testing"

	"github.com/gavelhq/gavel/judge"
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
	runVerdictCases(t, []verdictCase{
		{"valid JSON", func() (judge.Judge, error) { return rule.ValidJSON(rule.Final) }, conversation(` {"ok": true} `), pass, ""},
		{"invalid JSON", func() (judge.Judge, error) { return rule.ValidJSON(rule.Final) }, conversation(`{"ok": tru}`), fail, "is not valid JSON"},
		{"two values", func() (judge.Judge, error) { return rule.ValidJSON(rule.Final) }, conversation(`{} {}`), fail, "unexpected data after the JSON value"},
		{"fenced JSON is not JSON", func() (judge.Judge, error) { return rule.ValidJSON(rule.Final) }, conversation("```json\n{}\n```"), fail, ""},

		{"matches the schema", schema, conversation(`{"order_id": "12345", "status": "shipped", "items": [{"sku": "a", "qty": 2}]}`), pass, "matches the schema"},
		{"missing property", schema, conversation(`{"order_id": "12345"}`), fail, "missing property 'status'"},
		{"value not allowed", schema, conversation(`{"order_id": "12345", "status": "lost"}`), fail, "at '/status'"},
		{"nested $ref checked", schema, conversation(`{"order_id": "1", "status": "shipped", "items": [{"sku": "a", "qty": 0}]}`), fail, "at '/items/0/qty'"},
		{"1.0 is an integer in JSON Schema", schema, conversation(`{"order_id": "1", "status": "shipped", "items": [{"sku": "a", "qty": 1.0}]}`), pass, ""},
		{"not JSON at all", schema, conversation(`Order 12345 shipped.`), fail, "is not valid JSON"},
	})
}

func TestJSONSchemaRefusesBadSchemasWhenBuilt(t *testing.T) {
	runBuildErrorCases(t, []buildErrorCase{
		{"not JSON", func() (judge.Judge, error) { return rule.JSONSchema([]byte(`{type: object}`), rule.Final) }, "the schema is not JSON"},
		{"not a schema", func() (judge.Judge, error) { return rule.JSONSchema([]byte(`{"type": "nosuchtype"}`), rule.Final) }, "invalid schema"},
		{"remote reference", func() (judge.Judge, error) {
			return rule.JSONSchema([]byte(`{"$ref": "https://example.com/order.json"}`), rule.Final)
		}, "loads no schema from files or the network"},
	})
}
