package spec

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"
)

// TestJSONNodeIsWhatYAMLReads: a JSON line read by jsonNode gives the
// node tree the YAML parser gives, so a case of a JSON Lines file is
// checked, decoded and stored (its YAML) as before.
func TestJSONNodeIsWhatYAMLReads(t *testing.T) {
	for _, line := range []string{
		`{"id": "c1", "input": "where is my order #12345?", "trials": 2, "tags": ["a", "b"]}`,
		`{"id":"c2","expected_tool_calls":[{"name":"book","args":{"date":"2024-05-20","zip":"01234","n":1.5,"big":12345678901,"ok":true,"none":null}}]}`,
		`{"id": "c3", "input": "unicode: café \u00e9 \"quoted\" \\ back\nslash", "metadata": {"nested": {"a": [1, 2]}}}`,
		`  {"id": "c4", "rules": [{"max_questions": 1e0}, {"contains": ""}], "rounds": []}`,
	} {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(line), &doc); err != nil {
			t.Fatal(err)
		}
		want := doc.Content[0]
		got, err := jsonNode([]byte(line))
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if diff := cmp.Diff(strip(want), strip(got)); diff != "" {
			t.Errorf("%s: the nodes differ (-yaml +json):\n%s", line, diff)
		}
		if a, b := string(definition(want)), string(definition(got)); a != b {
			t.Errorf("%s: the YAML differs:\n%s\n%s", line, a, b)
		}
	}
	for _, bad := range []string{`{"id": "x"`, `{"id": "x"} {}`, `[1,`} {
		if _, err := jsonNode([]byte(bad)); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// strip keeps what the loader reads of a node: kind, tag, value, style,
// line and column, and its content.
func strip(n *yaml.Node) map[string]any {
	out := map[string]any{"kind": n.Kind, "tag": n.ShortTag(), "value": n.Value, "style": n.Style, "line": n.Line, "column": n.Column}
	var content []any
	for _, c := range n.Content {
		content = append(content, strip(c))
	}
	out["content"] = content
	return out
}
