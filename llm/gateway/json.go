package gateway

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Helpers to read JSON as the vendors' validators do.

// isNull reports whether raw is absent or the JSON null.
func isNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || string(t) == "null"
}

// jsonObject decodes raw when it is a JSON object.
func jsonObject(raw json.RawMessage) (map[string]any, bool) {
	if isNull(raw) {
		return nil, false
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return nil, false
	}
	return m, true
}

// strictProblem says why schema breaks the rules of OpenAI's strict mode
// (every object schema has additionalProperties false and requires every
// property), in the words of the real API, or returns "".
func strictProblem(schema map[string]any) string {
	return strictAt(schema, nil)
}

func strictAt(s map[string]any, context []string) string {
	where := "In context=(" + quoteAll(context) + "), "
	if isObjectSchema(s) {
		if ap, ok := s["additionalProperties"].(bool); !ok || ap {
			return where + "'additionalProperties' is required to be supplied and to be false."
		}
		props, _ := s["properties"].(map[string]any)
		required := map[string]bool{}
		if list, ok := s["required"].([]any); ok {
			for _, r := range list {
				if name, ok := r.(string); ok {
					required[name] = true
				}
			}
		}
		for _, name := range slices.Sorted(maps.Keys(props)) {
			if !required[name] {
				return where + "'required' is required to be supplied and to be an array including every key in properties. Missing '" + name + "'."
			}
		}
		for _, name := range slices.Sorted(maps.Keys(props)) {
			if sub, ok := props[name].(map[string]any); ok {
				if p := strictAt(sub, append(slices.Clip(context), "properties", name)); p != "" {
					return p
				}
			}
		}
	}
	if items, ok := s["items"].(map[string]any); ok {
		if p := strictAt(items, append(slices.Clip(context), "items")); p != "" {
			return p
		}
	}
	for _, key := range []string{"anyOf", "allOf", "oneOf"} {
		list, _ := s[key].([]any)
		for i, v := range list {
			if sub, ok := v.(map[string]any); ok {
				if p := strictAt(sub, append(slices.Clip(context), key, strconv.Itoa(i))); p != "" {
					return p
				}
			}
		}
	}
	for _, key := range []string{"$defs", "definitions"} {
		defs, _ := s[key].(map[string]any)
		for _, name := range slices.Sorted(maps.Keys(defs)) {
			if sub, ok := defs[name].(map[string]any); ok {
				if p := strictAt(sub, append(slices.Clip(context), key, name)); p != "" {
					return p
				}
			}
		}
	}
	return ""
}

// isObjectSchema reports whether s describes objects.
func isObjectSchema(s map[string]any) bool {
	switch t := s["type"].(type) {
	case string:
		return t == "object"
	case []any:
		return slices.Contains(t, any("object"))
	case nil:
		_, ok := s["properties"]
		return ok
	}
	return false
}

func quoteAll(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = "'" + s + "'"
	}
	return strings.Join(q, ", ")
}
