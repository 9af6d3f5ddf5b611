package report

import (
	"regexp"
	"strings"
	"testing"
)

func TestMDText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain words", "plain words"},
		{"<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"},
		{"a | b", `a \| b`},
		{"**bold** _it_ ~x~", `\*\*bold\*\* \_it\_ \~x\~`},
		{"`code`", "\\`code\\`"},
		{"[link](http://x)", `\[link\](http://x)`},
		{"$x$ # not a heading", `\$x\$ \# not a heading`},
		{`back\slash`, `back\\slash`},
		{"&lt; stays text", "&amp;lt; stays text"},
		{"two\nlines", "two<br>lines"},
		{"esc\x1b[31m", `esc\[31m`},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			if got := mdText(tc.in); got != tc.want {
				t.Errorf("mdText(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestMDCode(t *testing.T) {
	tests := []struct{ in, want string }{
		{"f(x)", "`f(x)`"},
		{"<b>", "`<b>`"},
		{"a `b` c", "``a `b` c``"},
		{"``x``", "``` ``x`` ```"},
		{"`x", "`` `x ``"},
		{"multi\nline", "`multi line`"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			if got := mdCode(tc.in); got != tc.want {
				t.Errorf("mdCode(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// No tag of the agent's survives, and every row of a table has as many
// cells as its header however many pipes the text holds.
func TestMarkdownEscapesAgentText(t *testing.T) {
	out := write(t, Markdown, fixture(t), Options{Verbose: true})
	if strings.Contains(out, "<script") || strings.Contains(out, "\x1b") {
		t.Errorf("agent text came through unescaped:\n%s", out)
	}
	checkTables(t, out)
}

// checkTables fails the test when a row of a table of md has more or
// fewer cells than the table's header.
func checkTables(t *testing.T, md string) {
	t.Helper()
	cellSeparator := regexp.MustCompile(`(^|[^\\])\|`)
	header := 0 // the header's separators; 0 outside a table
	for line := range strings.SplitSeq(md, "\n") {
		if !strings.HasPrefix(line, "|") {
			header = 0
			continue
		}
		if strings.HasPrefix(line, "|-") { // the delimiter row
			continue
		}
		n := len(cellSeparator.FindAllString(line, -1))
		if header == 0 {
			header = n
			continue
		}
		if n != header {
			t.Errorf("table row with %d separators, want %d as in its header: %s", n, header, line)
		}
	}
}

// Without verbose, a case shows its first failing trial and counts the
// others; with it, all of them.
func TestMarkdownTrialsShown(t *testing.T) {
	run := fixture(t)
	flaky := &run.Cases[3]
	flaky.Trials[0].Verdict = traitsFailure() // now trials 1 and 2 fail
	flaky.Summarize()

	brief := write(t, Markdown, run, Options{})
	if strings.Contains(brief, "Trial 2 of 3") || !strings.Contains(brief, "*1 more trial(s) did not pass") {
		t.Errorf("without verbose, want trial 1 and a note of 1 more:\n%s", brief)
	}
	verbose := write(t, Markdown, run, Options{Verbose: true})
	if !strings.Contains(verbose, "Trial 1 of 3: FAIL") || !strings.Contains(verbose, "Trial 2 of 3: FAIL") {
		t.Errorf("verbose, want both failing trials:\n%s", verbose)
	}
}
