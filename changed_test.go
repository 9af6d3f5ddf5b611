package gavel_test

import (
	"slices"
	"testing"

	"github.com/gavelhq/gavel"
)

func TestMatchPath(t *testing.T) {
	for _, tc := range []struct {
		glob, name string
		want       bool
	}{
		{"agent/**", "agent/prompt.go", true},
		{"agent/**", "agent/tools/lookup.go", true},
		{"agent/**", "agentic/x.go", false},
		{"**/*.go", "main.go", true},
		{"**/*.go", "a/b/c.go", true},
		{"**/*.go", "a/b/c.py", false},
		{"cmd/*/main.go", "cmd/orders-mcp/main.go", true},
		{"cmd/*/main.go", "cmd/a/b/main.go", false},
		{"gavel.yaml", "gavel.yaml", true},
		{"./prompts/*.txt", "prompts/system.txt", true},
		{"a/**/z", "a/z", true},
		{"a/**/z", "a/b/c/z", true},
		{"[", "[", false}, // malformed: matches nothing
	} {
		if got := gavel.MatchPath(tc.glob, tc.name); got != tc.want {
			t.Errorf("MatchPath(%q, %q) = %v, want %v", tc.glob, tc.name, got, tc.want)
		}
	}
}

func TestAffected(t *testing.T) {
	suite := &gavel.Suite{
		SharedPaths: []string{"prompts/system.txt"},
		Cases: []*gavel.Case{
			{ID: "lookup", Paths: []string{"tools/lookup/**"}},
			{ID: "cancel", Paths: []string{"tools/cancel/**", "policy.md"}},
			{ID: "smoke"}, // no paths: always runs
		},
	}
	for _, tc := range []struct {
		name    string
		changed []string
		want    []string
	}{
		{"nothing changed", nil, []string{"smoke"}},
		{"one tool", []string{"tools/cancel/cancel.go"}, []string{"cancel", "smoke"}},
		{"two tools", []string{"tools/lookup/a.go", "policy.md"}, []string{"lookup", "cancel", "smoke"}},
		{"a shared file", []string{"prompts/system.txt"}, []string{"lookup", "cancel", "smoke"}},
		{"elsewhere", []string{"README.md"}, []string{"smoke"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, c := range suite.Affected(tc.changed) {
				got = append(got, c.ID)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}
