package spec

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Values a suite hands on as JSON (expected arguments, event payloads,
// metadata) are read from YAML nodes here, so that a scalar keeps the
// type its author wrote rather than the one YAML 1.1 guesses:
//
//   - a date or a time (2024-05-20) stays the string written, not a
//     timestamp (which JSON would write as "2024-05-20T00:00:00Z");
//   - an integer is a number only in plain decimal (42, -7): 01234 (a zip
//     code, octal to YAML), 0x1F, 0o17 and 1_000 stay the strings written;
//   - a float is a number when written in decimal (3.14, 1e3, .5); .inf
//     and .nan stay strings;
//   - true and false are booleans, null and ~ null;
//   - anything quoted, or tagged !!str, is a string.

// plainInt is an integer written in decimal, without leading zeros.
var plainInt = regexp.MustCompile(`^[-+]?(?:0|[1-9][0-9]*)$`)

// plainFloat is a float written in decimal.
var plainFloat = regexp.MustCompile(`^[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$`)

// yamlValue returns the value n holds, as JSON would hold it: strings,
// json.Number, booleans, nil, []any and map[string]any.
func yamlValue(n *yaml.Node) (any, error) {
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return yamlValue(n.Content[0])
	case yaml.AliasNode:
		return yamlValue(n.Alias)
	case yaml.SequenceNode:
		out := make([]any, len(n.Content))
		for i, item := range n.Content {
			v, err := yamlValue(item)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	case yaml.MappingNode:
		out := map[string]any{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			key, value := n.Content[i], n.Content[i+1]
			if key.ShortTag() == "!!merge" {
				merged, err := yamlValue(value)
				if err != nil {
					return nil, err
				}
				m, ok := merged.(map[string]any)
				if !ok {
					return nil, fmt.Errorf("line %d: << merges a mapping", key.Line)
				}
				for k, v := range m {
					if _, set := out[k]; !set {
						out[k] = v
					}
				}
				continue
			}
			if key.Kind != yaml.ScalarNode {
				return nil, fmt.Errorf("line %d: a key is a string, not a %s", key.Line, kindName(key))
			}
			v, err := yamlValue(value)
			if err != nil {
				return nil, err
			}
			out[key.Value] = v
		}
		return out, nil
	case yaml.ScalarNode:
		return yamlScalar(n)
	}
	return nil, fmt.Errorf("line %d: not a value", n.Line)
}

func yamlScalar(n *yaml.Node) (any, error) {
	switch n.ShortTag() {
	case "!!null":
		return nil, nil
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			return nil, err
		}
		return b, nil
	case "!!int":
		if plainInt.MatchString(n.Value) {
			return json.Number(strings.TrimPrefix(n.Value, "+")), nil
		}
	case "!!float":
		if plainFloat.MatchString(n.Value) {
			return json.Number(jsonDecimal(n.Value)), nil
		}
	}
	// !!str, !!timestamp, !!binary, an integer or float not in plain
	// decimal, a tag of the author's: the text as written.
	return n.Value, nil
}

// jsonDecimal writes a decimal number as JSON does: no plus sign, a
// digit before and after the point.
func jsonDecimal(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+") {
		if s[0] == '-' {
			sign = "-"
		}
		s = s[1:]
	}
	mant, exp, hasExp := strings.Cut(s, "e")
	if !hasExp {
		mant, exp, hasExp = strings.Cut(s, "E")
	}
	if strings.HasPrefix(mant, ".") {
		mant = "0" + mant
	}
	if strings.HasSuffix(mant, ".") {
		mant += "0"
	}
	// JSON allows leading zeros in no number: 007.5 is 7.5.
	for len(mant) > 1 && mant[0] == '0' && mant[1] != '.' {
		mant = mant[1:]
	}
	if hasExp {
		return sign + mant + "e" + exp
	}
	return sign + mant
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "list"
	}
	return "value"
}

// Args are the arguments of a tool call as a suite writes them: a
// mapping of argument names to values, each scalar of the type written
// (see yamlValue).
type Args map[string]any

// UnmarshalYAML reads a mapping, keeping the types written.
func (a *Args) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n.Kind != yaml.MappingNode {
		if n.ShortTag() == "!!null" {
			return nil
		}
		return typeError(n, "want a mapping of argument names to values, got a %s", kindName(n))
	}
	v, err := yamlValue(n)
	if err != nil {
		return typeError(n, "%v", err)
	}
	*a = v.(map[string]any)
	return nil
}

// Value is any value a suite hands on as JSON (an event's payload), each
// scalar of the type written (see yamlValue).
type Value struct {
	v   any
	set bool
}

// UnmarshalYAML reads any value, keeping the types written.
func (v *Value) UnmarshalYAML(n *yaml.Node) error {
	x, err := yamlValue(n)
	if err != nil {
		return typeError(n, "%v", err)
	}
	v.v, v.set = x, x != nil
	return nil
}

// JSON returns the value as JSON, or nil when none was given.
func (v Value) JSON() (json.RawMessage, error) {
	if !v.set {
		return nil, nil
	}
	return json.Marshal(v.v)
}

// Metadata is a case's metadata: names to text. A value may be a
// mapping or a list, kept as its JSON; a scalar is kept as written.
type Metadata map[string]string

// UnmarshalYAML reads a mapping of names to values.
func (m *Metadata) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n.Kind != yaml.MappingNode {
		if n.ShortTag() == "!!null" {
			return nil
		}
		return typeError(n, "metadata: want a mapping of names to values, got a %s", kindName(n))
	}
	out := Metadata{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, value := n.Content[i], n.Content[i+1]
		if value.Kind == yaml.AliasNode {
			value = value.Alias
		}
		if key.Kind != yaml.ScalarNode || key.ShortTag() == "!!merge" {
			return typeError(key, "metadata: a name is a string")
		}
		switch {
		case value.Kind == yaml.ScalarNode && value.ShortTag() == "!!null":
			out[key.Value] = ""
		case value.Kind == yaml.ScalarNode:
			out[key.Value] = value.Value // as written
		default:
			x, err := yamlValue(value)
			if err != nil {
				return typeError(value, "metadata %s: %v", key.Value, err)
			}
			b, err := json.Marshal(x)
			if err != nil {
				return typeError(value, "metadata %s: %v", key.Value, err)
			}
			out[key.Value] = string(b)
		}
	}
	*m = out
	return nil
}
