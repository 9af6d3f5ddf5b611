package rule_test

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/rule"
)

// TestBFCLConformance checks that Gavel's verdicts agree with BFCL's AST
// checker on the cases of testdata/bfcl (see its README).
func TestBFCLConformance(t *testing.T) {
	data, err := os.ReadFile("testdata/bfcl/conformance.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name           string                                  `json:"name"`
		Category       string                                  `json:"category"`
		PossibleAnswer []map[string]json.RawMessage            `json:"possible_answer"`
		ModelOutput    []map[string]map[string]json.RawMessage `json:"model_output"`
		Valid          bool                                    `json:"bfcl_valid"`
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 30 {
		t.Fatalf("%d cases, want at least 30", len(cases))
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			var expected []rule.ExpectedCall
			for _, answer := range c.PossibleAnswer {
				for name, params := range answer {
					e, err := rule.BFCLCall(name, params)
					if err != nil {
						t.Fatal(err)
					}
					expected = append(expected, e)
				}
			}
			turn := judge.Turn{Role: judge.RoleAgent, Content: "done"}
			for _, out := range c.ModelOutput {
				for name, args := range out {
					raw, _ := json.Marshal(args)
					turn.ToolCalls = append(turn.ToolCalls, judge.ToolCall{Name: name, Arguments: raw})
				}
			}
			j, err := rule.ToolCalls(expected, rule.CallOpts{AnyOrder: c.Category == "parallel"})
			if err != nil {
				t.Fatal(err)
			}
			got := judge.Run(context.Background(), j, &judge.Transcript{Turns: []judge.Turn{{Role: judge.RoleUser, Content: "go"}, turn}})
			if got.Passed() != c.Valid {
				t.Errorf("Gavel %s, BFCL valid=%v: %s", got.Status, c.Valid, got.Reasoning)
			}
		})
	}
}
