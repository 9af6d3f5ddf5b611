package doccheck

import (
	"slices"
	"testing"
)

func TestCommands(t *testing.T) {
	for _, tt := range []struct {
		name, script string
		want         []Command
	}{
		{"installed", "gavel run --tag policy evals\n", []Command{{1, []string{"run", "--tag", "policy", "evals"}}}},
		{"go run", "go run ./cmd/gavel run examples/support-desk", []Command{{1, []string{"run", "examples/support-desk"}}}},
		{"by import path, in the background", "go run github.com/gavelhq/gavel/cmd/gavel serve &   # later", []Command{{1, []string{"serve"}}}},
		{"after assignments, continued", "A=1 B='x y' \\\n  gavel run \\\n  --trials 3 .", []Command{{1, []string{"run", "--trials", "3", "."}}}},
		{"quotes", `gavel run --gate "go test ./..." --pairwise 'Which is "better"?'`, []Command{{1, []string{"run", "--gate", "go test ./...", "--pairwise", `Which is "better"?`}}}},
		{"comments and other programs", "# gavel run nothing\ncd x && gavel runs # newest\nnpm ci", []Command{{2, []string{"runs"}}}},
		{"a redirection", "gavel schema > gavel.schema.json\ngavel run . 2>&1 | tee log", []Command{{1, []string{"schema"}}, {2, []string{"run", "."}}}},
		{"a command substitution", `gavel run --run-label "$(date +%s)" x$(echo y) z`, []Command{{1, []string{"run", "--run-label", "$(date +%s)", "x$(echo y)", "z"}}}},
		{"not gavel", "go test ./...\ncurl -s localhost:8080", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := Commands(tt.script)
			if !slices.EqualFunc(got, tt.want, func(a, b Command) bool { return a.Line == b.Line && slices.Equal(a.Args, b.Args) }) {
				t.Errorf("got %v\nwant %v", got, tt.want)
			}
		})
	}
}

func TestSlug(t *testing.T) {
	for heading, want := range map[string]string{
		"Quick start":                           "quick-start",
		"The gate: PASS, FAIL, or INCONCLUSIVE": "the-gate-pass-fail-or-inconclusive",
		"`gavel run`'s exit code":               "gavel-runs-exit-code",
		"Agents and MCP":                        "agents-and-mcp",
		"τ-bench, BFCL":                         "τ-bench-bfcl",
	} {
		if got := Slug(heading); got != want {
			t.Errorf("Slug(%q) = %q, want %q", heading, got, want)
		}
	}
}
