package llm_test

import (
	"encoding/json"
	"testing"

	"github.com/gavelhq/gavel/llm"
)

func TestCheckWire(t *testing.T) {
	field := func(v string) llm.WireField {
		if v == "" {
			return llm.WireField{Path: "x"}
		}
		return llm.WireField{Path: "x", Value: json.RawMessage(v)}
	}
	texts := []struct{ value, want string }{
		{``, ""},
		{`null`, ""},
		{`"hi"`, ""},
		{`42`, "x is a number, want a string or null"},
		{`{"a":1}`, "x is an object, want a string or null"},
		{`["a"]`, "x is an array, want a string or null"},
		{`true`, "x is a boolean, want a string or null"},
	}
	for _, tc := range texts {
		if got := llm.CheckText(field(tc.value)); got != tc.want {
			t.Errorf("CheckText(%s) = %q, want %q", tc.value, got, tc.want)
		}
	}
	counts := []struct{ value, want string }{
		{``, ""},
		{`null`, ""},
		{`0`, ""},
		{`1999150`, ""},
		{`-1`, "x is -1, want a count of at least 0"},
		{`1.5`, "x is 1.5, want a count of at least 0"},
		{`"12"`, `x is "12", want a count of at least 0`},
	}
	for _, tc := range counts {
		if got := llm.CheckCounts(field(tc.value)); got != tc.want {
			t.Errorf("CheckCounts(%s) = %q, want %q", tc.value, got, tc.want)
		}
	}
}
