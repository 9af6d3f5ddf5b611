package report

import (
	"strings"
	"testing"
)

// A reply holding <script>alert(1)</script> appears escaped, as text.
func TestHTMLEscapesAgentText(t *testing.T) {
	out := write(t, HTML, fixture(t), Options{})
	if strings.Contains(out, "<script") {
		t.Errorf("the page holds a <script> element")
	}
	if want := "&lt;script&gt;alert(1)&lt;/script&gt; It is sunny ]]&gt;"; !strings.Contains(out, want) {
		t.Errorf("the page does not show the reply escaped as %q", want)
	}
	if strings.ContainsAny(out, "\x00\x1b") {
		t.Errorf("the page holds control characters")
	}
}

// The page stands alone: no scripts, no stylesheets or images fetched.
func TestHTMLIsSelfContained(t *testing.T) {
	out := write(t, HTML, fixture(t), Options{})
	for _, external := range []string{"<script", "<link", "<img", "src=", "http://", "https://", "@import"} {
		if strings.Contains(out, external) {
			t.Errorf("the page holds %q", external)
		}
	}
	for _, want := range []string{"<style>", "Content-Security-Policy", "<details", `<li class="revival">🔄 agent restarted by command between closing and reopening the session</li>`, "user (automatic follow-up)"} {
		if !strings.Contains(out, want) {
			t.Errorf("the page has no %q", want)
		}
	}
}
