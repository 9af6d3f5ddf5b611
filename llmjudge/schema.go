package llmjudge

import (
	"bytes"
	"encoding/json"

	"github.com/gavelhq/gavel/llm"
)

// A property is one property of an object schema: its name and its
// schema, as JSON.
type property struct {
	name   string
	schema string
}

// objectSchema returns the JSON Schema of an object with exactly props, in
// order (vendors generate properties in schema order: the reasoning comes
// before the score), every one required and no other allowed, as strict
// structured output requires.
func objectSchema(props ...property) json.RawMessage {
	var b bytes.Buffer
	b.WriteString(`{"type":"object","properties":{`)
	names := make([]string, len(props))
	for i, p := range props {
		if i > 0 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(p.name)
		b.Write(name)
		b.WriteByte(':')
		b.WriteString(p.schema)
		names[i] = p.name
	}
	required, _ := json.Marshal(names)
	b.WriteString(`},"required":`)
	b.Write(required)
	b.WriteString(`,"additionalProperties":false}`)
	return b.Bytes()
}

// verdictSchema names a schema for strict structured output.
func verdictSchema(name string, schema json.RawMessage) *llm.Schema {
	return &llm.Schema{Name: name, Schema: schema, Strict: true}
}

const reasoningSchema = `{"type":"string","description":"a brief explanation, written before the score"}`
