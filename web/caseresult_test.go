package web

import (
	"encoding/json"
	"testing"

	"github.com/gavelhq/gavel/judge"
)

func TestCallView(t *testing.T) {
	tests := []struct {
		args              string
		summary, indented string
	}{
		{`{"order_id": "12345"}`, `{"order_id":"12345"}`, "{\n  \"order_id\": \"12345\"\n}"},
		{`{"q":"\u003cb\u003e \u0026 \\u003c"}`, `{"q":"<b> & \\u003c"}`, "{\n  \"q\": \"<b> & \\\\u003c\"\n}"},
		{`not json`, `not json`, `not json`},
		{``, ``, ``},
	}
	for _, tt := range tests {
		v := newCallView(judge.ToolCall{Name: "search", Arguments: json.RawMessage(tt.args)})
		if v.Summary != tt.summary || v.Arguments != tt.indented {
			t.Errorf("arguments %s: summary %q, indented %q; want %q, %q", tt.args, v.Summary, v.Arguments, tt.summary, tt.indented)
		}
	}
}

// The verdict's tree reads in words a person who is no engineer follows
// (report.Describe), the suite format's name of each composite beside
// them, small: "tiered" and "all" are not what a node is called.
func TestVerdictTreeInWords(t *testing.T) {
	f := newFixture(t, Config{})
	_, body := f.get("/runs/" + f.latest + "/cases/case_002")
	mustContain(t, "the case's verdict tree", body,
		`<span class="node">The rules first, then the model judges, each only when the one before it passed</span>`,
		`<code class="technical" title="its kind in the suite format">tiered</code>`,
		`<p class="node-note">tier 1 did not pass, so the tiers after it did not run</p>`,
		`<span class="node">The rules: all of these must pass</span>`,
		`<code class="technical" title="its kind in the suite format">all · tier 1</code>`,
		`<span class="node">forbidden_tools cancel_order</span> <span class="kind">(a rule)</span>`,
		`<span class="node">jury</span> <span class="kind">(a jury of 2: the majority of the jurors decides)</span>`,
		`<span class="node">helpfulness</span> <span class="kind">(a model judge)</span>`,
	)
	mustNotContain(t, "the case's verdict tree", body, "decided by tier 1", "decided by majority", "> tiered<", "> all<")
}
