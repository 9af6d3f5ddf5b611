package rule

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math/big"
	"reflect"
	"regexp"
	"strconv"
	"strings"
)

// decodeJSON decodes one JSON value with numbers kept as json.Number, so
// that jsonEqual compares them exactly. Anything but white space after the
// value is an error.
func decodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("no JSON value")
		}
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("unexpected data after the JSON value")
	}
	return v, nil
}

// jsonEqual reports whether two decoded JSON values are equal as JSON:
// numbers by value (1 equals 1.0 and 1e0), objects by their keys whatever
// the order, arrays element by element in order. It expects values decoded
// by decodeJSON (json.Number for numbers) and also accepts float64 and the
// integer types.
func jsonEqual(a, b any) bool {
	if x, ok := jsonNumber(a); ok {
		y, ok := jsonNumber(b)
		return ok && numbersEqual(x, y)
	}
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !jsonEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !jsonEqual(xv, yv) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}

// jsonNumber returns v as the text of a number, if v is one.
func jsonNumber(v any) (string, bool) {
	switch n := v.(type) {
	case json.Number:
		return n.String(), true
	case float64:
		return strconv.FormatFloat(n, 'g', -1, 64), true
	case float32:
		return strconv.FormatFloat(float64(n), 'g', -1, 32), true
	case int:
		return strconv.FormatInt(int64(n), 10), true
	case int64:
		return strconv.FormatInt(n, 10), true
	case int32:
		return strconv.FormatInt(int64(n), 10), true
	case uint64:
		return strconv.FormatUint(n, 10), true
	}
	return "", false
}

// numbersEqual compares two numbers written in decimal by value; numbers
// too large to compare as rationals (see decimalRat) compare as text.
func numbersEqual(a, b string) bool {
	x, okx := decimalRat(a)
	y, oky := decimalRat(b)
	if okx && oky {
		return x.Cmp(y) == 0
	}
	return a == b
}

// decimalSyntax is a decimal number: an optional sign, digits with an
// optional fraction, an optional exponent. It covers JSON numbers and how
// databases print numbers.
var decimalSyntax = regexp.MustCompile(`^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$`)

// maxExponent bounds the exponent decimalRat accepts: big.Rat would spend
// memory and time in proportion to it, and a file written by an agent can
// hold 1e999999999.
const maxExponent = 10000

// decimalRat parses a decimal number (see decimalSyntax) exactly. It
// reports false for anything else, including numbers whose exponent is
// beyond ±maxExponent.
func decimalRat(s string) (*big.Rat, bool) {
	if !decimalSyntax.MatchString(s) {
		return nil, false
	}
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		exp, err := strconv.Atoi(s[i+1:])
		if err != nil || exp > maxExponent || exp < -maxExponent {
			return nil, false
		}
	}
	r, ok := new(big.Rat).SetString(strings.TrimPrefix(s, "+"))
	return r, ok
}

// renderJSON formats a decoded JSON value compactly for a reasoning, cut
// to about max runes.
func renderJSON(v any, max int) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "(unprintable value)"
	}
	s := strings.TrimSuffix(buf.String(), "\n")
	if r := []rune(s); len(r) > max {
		return string(r[:max]) + "…"
	}
	return s
}

// jsonKind names the JSON type of a decoded value, for reasonings.
func jsonKind(v any) string {
	if _, ok := jsonNumber(v); ok {
		return "a number"
	}
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return "not a JSON value"
}
