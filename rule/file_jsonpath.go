package rule

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// A valuePath is a parsed JSON path: the steps from the root of a document
// to one value in it. Its syntax is "$" (the root) followed by steps:
// ".key", `["key with spaces"]` (a JSON string) or "[0]" (an array index),
// as in "$.items[0].name". The leading "$" may be left out.
type valuePath []pathStep

// A pathStep is one step of a valuePath: an object key, or an array index
// when isIndex is set.
type pathStep struct {
	key     string
	index   int
	isIndex bool
}

// parseValuePath parses a JSON path (see valuePath).
func parseValuePath(s string) (valuePath, error) {
	if strings.TrimSpace(s) == "" {
		return nil, errors.New("empty JSON path (use $ for the whole document)")
	}
	rest, added := strings.TrimPrefix(s, "$"), 0
	if rest != "" && rest == s && rest[0] != '.' && rest[0] != '[' {
		rest, added = "."+rest, 1 // "items[0]" reads as "$.items[0]"
	}
	var p valuePath
	for rest != "" {
		at := len(s) - len(rest) + 1 + added // 1-based column of the step, for errors
		switch rest[0] {
		case '.':
			end := strings.IndexAny(rest[1:], ".[")
			if end < 0 {
				end = len(rest) - 1
			}
			key := rest[1 : 1+end]
			if key == "" {
				return nil, fmt.Errorf("JSON path %q: empty key at column %d", s, at)
			}
			p = append(p, pathStep{key: key})
			rest = rest[1+end:]
		case '[':
			step, n, err := parseBracket(rest)
			if err != nil {
				return nil, fmt.Errorf("JSON path %q: %v at column %d", s, err, at)
			}
			p = append(p, step)
			rest = rest[n:]
		default:
			return nil, fmt.Errorf("JSON path %q: unexpected %q at column %d: want .key, [\"key\"] or [index]", s, rest[0], at)
		}
	}
	return p, nil
}

// parseBracket parses a step in brackets at the start of s, which begins
// with '[', and returns it with the number of bytes it takes.
func parseBracket(s string) (pathStep, int, error) {
	if len(s) > 1 && s[1] == '"' {
		// Find the closing quote, skipping escaped characters.
		i := 2
		for i < len(s) && s[i] != '"' {
			if s[i] == '\\' {
				i++
			}
			i++
		}
		if i+1 >= len(s) || s[i+1] != ']' {
			return pathStep{}, 0, errors.New(`unterminated ["key"]`)
		}
		var key string
		if err := json.Unmarshal([]byte(s[1:i+1]), &key); err != nil {
			return pathStep{}, 0, fmt.Errorf("bad key string %s", s[1:i+1])
		}
		return pathStep{key: key}, i + 2, nil
	}
	end := strings.IndexByte(s, ']')
	if end < 0 {
		return pathStep{}, 0, errors.New("unterminated [")
	}
	inner := s[1:end]
	n, err := strconv.Atoi(inner)
	if err != nil || n < 0 || strings.HasPrefix(inner, "+") {
		return pathStep{}, 0, fmt.Errorf("[%s] is not an array index (a number from 0) nor a quoted key", inner)
	}
	return pathStep{index: n, isIndex: true}, end + 1, nil
}

// identifier is a key that String writes as ".key" rather than `["key"]`.
var identifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)

// String writes p in the canonical form, starting with "$".
func (p valuePath) String() string {
	var b strings.Builder
	b.WriteString("$")
	for _, s := range p {
		switch {
		case s.isIndex:
			fmt.Fprintf(&b, "[%d]", s.index)
		case identifier.MatchString(s.key):
			b.WriteString("." + s.key)
		default:
			k, _ := json.Marshal(s.key)
			b.WriteString("[" + string(k) + "]")
		}
	}
	return b.String()
}

// lookup returns the value at p in the decoded document doc. When a step
// cannot be taken, it returns an error that says which step and why, e.g.
// `$.items has no index 3 (it has 2 elements)`.
func (p valuePath) lookup(doc any) (any, error) {
	v := doc
	for i, s := range p {
		at := p[:i]
		if s.isIndex {
			arr, ok := v.([]any)
			if !ok {
				return nil, fmt.Errorf("%s is %s, not an array", at, jsonKind(v))
			}
			if s.index >= len(arr) {
				return nil, fmt.Errorf("%s has no index %d (it has %d elements)", at, s.index, len(arr))
			}
			v = arr[s.index]
			continue
		}
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s is %s, not an object", at, jsonKind(v))
		}
		next, ok := obj[s.key]
		if !ok {
			return nil, fmt.Errorf("%s has no key %q", at, s.key)
		}
		v = next
	}
	return v, nil
}
