package llmjudge

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The parsers read a model's answer leniently but safely. They accept, in
// this order:
//
//  1. the whole answer as one JSON object;
//  2. a JSON object within the answer: inside ``` fences or in prose, the
//     first balanced object that has one of the verdict's keys;
//  3. XML-like tags: <score>0.8</score><reasoning>…</reasoning>.
//
// Then they check every field: present, of the right type, in range. An
// answer that holds two different verdicts, a key given twice, a score out
// of range, NaN or infinite, or a missing field is an error, never a guess:
// a parser must not turn garbage into a pass.

const (
	// maxAnswer bounds the answers read. A verdict is a few hundred bytes;
	// the bound keeps the search for an object in prose cheap.
	maxAnswer = 64 << 10
	// maxCandidates bounds how many '{' the search in prose tries.
	maxCandidates = 256
	// maxDepth bounds the nesting of a JSON answer.
	maxDepth = 32
)

// errNoVerdict is the error for an answer with nothing to read in it.
var errNoVerdict = errors.New("no JSON object found in the answer")

// extract finds the verdict object in an answer. keys are the verdict's
// top-level keys (any one of them marks an object as the verdict); shape
// tells the XML reading which keys hold nested objects.
func extract(answer string, keys []string, shape shape) (map[string]any, error) {
	text := strings.TrimSpace(answer)
	switch {
	case text == "":
		return nil, errors.New("the answer is empty")
	case len(text) > maxAnswer:
		return nil, fmt.Errorf("the answer is %d bytes long, longer than any verdict", len(text))
	}
	if strings.HasPrefix(text, "{") {
		if m, err := decodeObject(text); err == nil {
			return m, nil
		}
	}
	m, bad, err := findObject(text, keys)
	if m != nil || err != nil {
		return m, err
	}
	if m, err := fromTags(text, shape); m != nil || err != nil {
		return m, err
	}
	if bad != nil {
		return nil, fmt.Errorf("no usable JSON object in the answer: %w", bad)
	}
	return nil, errNoVerdict
}

// findObject returns the first balanced JSON object in text that has one
// of keys, or nil. Two different such objects are an error: the answer is
// ambiguous (a model quoting an example, or the agent's reply, before its
// own verdict). bad is why the first span that looked like a JSON object
// (a brace, then a quote) did not decode, for the error when nothing else
// is found.
func findObject(text string, keys []string) (found map[string]any, bad, err error) {
	tries := 0
	for i := 0; i < len(text) && tries < maxCandidates; i++ {
		if text[i] != '{' {
			continue
		}
		tries++
		end := balanced(text, i)
		if end < 0 {
			continue
		}
		m, derr := decodeObject(text[i:end])
		if derr != nil {
			if bad == nil && strings.HasPrefix(strings.TrimLeft(text[i+1:end], " \t\r\n"), `"`) {
				bad = derr
			}
			continue
		}
		if !hasAny(m, keys) {
			continue
		}
		if found != nil && !reflect.DeepEqual(found, m) {
			return nil, nil, errors.New("the answer holds two different verdicts: give exactly one")
		}
		found = m
		i = end - 1
	}
	return found, bad, nil
}

// balanced returns the end (exclusive) of the brace-balanced span of text
// that starts with the '{' at start, skipping braces inside JSON strings,
// or -1.
func balanced(text string, start int) int {
	depth, inString, escaped := 0, false, false
	for i := start; i < len(text); i++ {
		c := text[i]
		switch {
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case inString && c == '"':
			inString = false
		case inString:
		case c == '"':
			inString = true
		case c == '{':
			depth++
		case c == '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return -1
}

func hasAny(m map[string]any, keys []string) bool {
	for _, k := range keys {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

// decodeObject decodes text as exactly one JSON object, keeping numbers as
// json.Number. Unlike json.Unmarshal, it refuses a key given twice (which
// of {"score": 0.1, "score": 0.9} is meant?) and nesting deeper than
// maxDepth.
func decodeObject(text string) (map[string]any, error) {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if tok != json.Delim('{') {
		return nil, errors.New("not a JSON object")
	}
	m, err := readObject(dec, 1)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("text after the JSON object")
	}
	return m, nil
}

func readObject(dec *json.Decoder, depth int) (map[string]any, error) {
	m := map[string]any{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, ok := tok.(string)
		if !ok {
			return nil, errors.New("object key is not a string")
		}
		if _, dup := m[key]; dup {
			return nil, fmt.Errorf("key %q appears twice", key)
		}
		v, err := readValue(dec, depth)
		if err != nil {
			return nil, err
		}
		m[key] = v
	}
	if _, err := dec.Token(); err != nil { // the closing '}'
		return nil, err
	}
	return m, nil
}

func readValue(dec *json.Decoder, depth int) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return tok, nil
	}
	if depth >= maxDepth {
		return nil, errors.New("JSON nested too deeply")
	}
	if d == '{' {
		return readObject(dec, depth+1)
	}
	var list []any
	for dec.More() {
		v, err := readValue(dec, depth+1)
		if err != nil {
			return nil, err
		}
		list = append(list, v)
	}
	if _, err := dec.Token(); err != nil { // the closing ']'
		return nil, err
	}
	return list, nil
}

// A shape tells the reading of XML-like tags which keys a verdict has and
// which of them hold nested keys (a nil shape is a leaf).
type shape map[string]shape

// fromTags reads a verdict written as XML-like tags,
// <score>7</score><reasoning>…</reasoning>, nested as shape says: leaves
// become strings. It returns nil when none of shape's keys is tagged. A
// tag given twice with different contents is an error.
func fromTags(text string, s shape) (map[string]any, error) {
	m := map[string]any{}
	for _, key := range slices.Sorted(maps.Keys(s)) {
		inner := s[key]
		content, ok, err := tagContent(text, key)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		if inner == nil {
			m[key] = unescapeXML(strings.TrimSpace(content))
			continue
		}
		nested, err := fromTags(content, inner)
		if err != nil {
			return nil, fmt.Errorf("<%s>: %w", key, err)
		}
		if nested == nil {
			nested = map[string]any{}
		}
		m[key] = nested
	}
	if len(m) == 0 {
		return nil, nil
	}
	return m, nil
}

// tagContent returns what lies between <key> and the next </key>.
func tagContent(text, key string) (string, bool, error) {
	open, close := "<"+key+">", "</"+key+">"
	var found string
	ok := false
	for rest := text; ; {
		i := strings.Index(rest, open)
		if i < 0 {
			break
		}
		rest = rest[i+len(open):]
		j := strings.Index(rest, close)
		if j < 0 {
			break
		}
		content := rest[:j]
		rest = rest[j+len(close):]
		if ok && strings.TrimSpace(content) != strings.TrimSpace(found) {
			return "", false, fmt.Errorf("<%s> is given twice with different contents: give exactly one", key)
		}
		found, ok = content, true
	}
	return found, ok, nil
}

var xmlEntities = strings.NewReplacer("&lt;", "<", "&gt;", ">", "&quot;", `"`, "&apos;", "'", "&amp;", "&")

func unescapeXML(s string) string { return xmlEntities.Replace(s) }

// decimal is how a number may be written as text: no NaN, no infinity, no
// hex, no fractions, no percent.
var decimal = regexp.MustCompile(`^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$`)

// number reads m[key] as a finite number within lo..hi. It accepts a JSON
// number or a string holding a plain decimal number (as tags give, and as
// models sometimes quote).
func number(m map[string]any, key string, lo, hi float64) (float64, error) {
	v, ok := m[key]
	if !ok {
		return 0, fmt.Errorf("%q is missing", key)
	}
	var text string
	switch v := v.(type) {
	case json.Number:
		text = string(v)
	case string:
		text = strings.TrimSpace(v)
		if !decimal.MatchString(text) {
			return 0, fmt.Errorf("%q is %s, want a number from %s to %s", key, quoteShort(v), formatNum(lo), formatNum(hi))
		}
	default:
		return 0, fmt.Errorf("%q is %s, want a number from %s to %s", key, typeName(v), formatNum(lo), formatNum(hi))
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("%q is %s, not a finite number", key, quoteShort(text))
	}
	if f < lo || f > hi {
		return 0, fmt.Errorf("%q is %s, outside %s..%s", key, quoteShort(text), formatNum(lo), formatNum(hi))
	}
	return f, nil
}

// text reads m[key] as a string; required says it must not be blank.
func text(m map[string]any, key string, required bool) (string, error) {
	v, ok := m[key]
	if !ok {
		if required {
			return "", fmt.Errorf("%q is missing", key)
		}
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("%q is %s, want text", key, typeName(v))
	}
	if required && strings.TrimSpace(s) == "" {
		return "", fmt.Errorf("%q is empty", key)
	}
	return strings.TrimSpace(s), nil
}

// boolean reads m[key] as true or false: a JSON boolean, or the text true
// or false (any case), as tags give.
func boolean(m map[string]any, key string) (bool, error) {
	v, ok := m[key]
	if !ok {
		return false, fmt.Errorf("%q is missing", key)
	}
	switch v := v.(type) {
	case bool:
		return v, nil
	case string:
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
		return false, fmt.Errorf("%q is %s, want true or false", key, quoteShort(v))
	}
	return false, fmt.Errorf("%q is %s, want true or false", key, typeName(v))
}

// object reads m[key] as a nested object.
func object(m map[string]any, key string) (map[string]any, error) {
	v, ok := m[key]
	if !ok {
		return nil, fmt.Errorf("%q is missing", key)
	}
	o, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%q is %s, want an object", key, typeName(v))
	}
	return o, nil
}

func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "text"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("a %T", v)
}

// quoteShort quotes s for an error message, cut to 40 runes: parse errors
// go back to the model and into reports.
func quoteShort(s string) string {
	r := []rune(s)
	if len(r) > 40 {
		return strconv.Quote(string(r[:40])) + "…"
	}
	return strconv.Quote(s)
}

// formatNum formats a score for people: at most three decimals.
func formatNum(f float64) string {
	return strconv.FormatFloat(math.Round(f*1000)/1000, 'f', -1, 64)
}
