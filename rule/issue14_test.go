package rule_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/rule"
)

// TestIssue14ToolCallMatching checks, through the API that 5a46ce8
// already had (so that it ran there, and failed), what issue 14 found
// missing: any-of, optional-if-given, nested subsets, failed calls set
// aside.
func TestIssue14ToolCallMatching(t *testing.T) {
	calls := func(args string, tr *judge.Transcript) judge.Judgment {
		j, err := rule.ToolCalls([]rule.ExpectedCall{{Name: "f", Args: json.RawMessage(args)}}, rule.CallOpts{})
		if err != nil {
			t.Fatal(err)
		}
		return judge.Run(context.Background(), j, tr)
	}
	failed := withCalls("f", `{}`)
	failed.Turns[1].ToolCalls[0].IsError = true
	forbid, err := rule.ForbiddenTools("f")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		got  judge.Judgment
		pass bool
	}{
		{"$any_of accepts one of the values", calls(`{"city":{"$any_of":["Paris","Lyon"]}}`, withCalls("f", `{"city":"Lyon"}`)), true},
		{"$optional absent", calls(`{"unit":{"$optional":true,"$eq":"km"}}`, withCalls("f", `{}`)), true},
		{"nested object subset", calls(`{"stay":{"in":"mon"}}`, withCalls("f", `{"stay":{"in":"mon","out":"tue"}}`)), true},
		{"a failed call does not satisfy an expected call", calls(`{}`, failed), false},
		{"a failed call is not a forbidden call made", judge.Run(context.Background(), forbid, failed), true},
	} {
		if tc.got.Passed() != tc.pass {
			t.Errorf("%s: got %s, want pass=%v: %s", tc.name, tc.got.Status, tc.pass, tc.got.Reasoning)
		}
	}
}
