package spec

import "testing"

// The column of a YAML parser's error in a flow mapping is where the
// value that needs quotes starts (yaml.v3 gives a line alone).
func TestUnquotedFlowValue(t *testing.T) {
	tests := []struct {
		line string
		want int
	}{
		{`  - {prompt: Which order was it?, rules: [x]}`, 14},
		{`  - {prompt: "Which order?", note: a: b}`, 36},
		{`  - {prompt: hi, tags: [a, b], note: call me # soon}`, 38},
		{`  - {prompt: 'it is?', rules: [{contains: "x?"}]}`, 0},
		{`  - prompt: Which order was it?`, 0}, // not inside { }
		{``, 0},
	}
	for _, tt := range tests {
		if got := unquotedFlowValue(tt.line); got != tt.want {
			t.Errorf("unquotedFlowValue(%q) = %d, want %d", tt.line, got, tt.want)
		}
	}
}
