package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// A WireField is one value of a vendor's answer that a provider checks
// before trusting it: where it is, as the vendor's documentation names it
// ("usage.prompt_tokens"), and its raw JSON (nil when absent).
type WireField struct {
	Path  string
	Value json.RawMessage
}

// CheckText says what is wrong with the first of fields that should hold
// text, or returns "": a value present must be a string or null. Vendors'
// SDKs take a number where text belongs as its digits; Gavel would then
// judge the number as the model's words.
func CheckText(fields ...WireField) string {
	for _, f := range fields {
		if kind := JSONKind(f.Value); kind != "a string" && kind != "null" && kind != "nothing" {
			return fmt.Sprintf("%s is %s, want a string or null", f.Path, kind)
		}
	}
	return ""
}

// CheckCounts says what is wrong with the first of fields that should hold
// a token count, or returns "": a value present must be a whole number from
// 0 to MaxTokenCount (ReadCount). A negative count, or one no call can
// spend, would be summed into usage and budgets.
func CheckCounts(fields ...WireField) string {
	for _, f := range fields {
		if JSONKind(f.Value) == "nothing" || JSONKind(f.Value) == "null" {
			continue
		}
		if _, problem := ReadCount(f.Value); problem != "" {
			return f.Path + " " + problem
		}
	}
	return ""
}

// JSONKind names the kind of a JSON value for an error message: "a
// string", "a number", "an object", "an array", "a boolean", "null", or
// "nothing" when absent. It looks at the first byte only: raw is taken to
// be valid JSON.
func JSONKind(raw json.RawMessage) string {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return "nothing"
	}
	switch t[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// IsObject reports whether raw is a JSON object.
func IsObject(raw json.RawMessage) bool {
	var fields map[string]json.RawMessage
	return json.Unmarshal(raw, &fields) == nil && fields != nil
}

// ToolArguments returns a tool call's arguments as a provider sends them
// back in a conversation's history: the JSON object, {} when there are
// none. Anything else (the JSON string a model's invalid arguments are
// kept in, an array, a number) is an error: sent back as they came, a
// model's broken arguments made a llama.cpp server answer 500 to every
// later request.
func ToolArguments(args json.RawMessage) (json.RawMessage, error) {
	if len(args) == 0 {
		return json.RawMessage("{}"), nil
	}
	if !IsObject(args) {
		return nil, fmt.Errorf("the arguments are not a JSON object: %.80s", args)
	}
	return args, nil
}
