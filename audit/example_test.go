package audit_test

import (
	"context"
	"fmt"

	"github.com/gavelhq/gavel/audit"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm/llmtest"
	"github.com/gavelhq/gavel/llmjudge"
)

// A pairwise judge whose model always prefers the response shown first:
// the position probe finds every comparison flipped with the order, and
// the suite's bar of 10% fails it.
func ExampleRun() {
	model := &llmtest.Scripted{Rules: []llmtest.Rule{{Text: `{"reasoning": "The first is better.", "winner": "A"}`}}}
	p, _ := llmjudge.NewPairwise(model, "Which reply helps more?", llmjudge.PairwiseConfig{})
	baseline := &judge.Transcript{Goal: "where is my order?", FinalResponse: "It is on its way."}
	plan := audit.Plan{
		Judges: []audit.Judge{{Name: "helpful", Kind: "pairwise", Model: "openai:gpt-5-mini",
			Compare: func(ctx context.Context, t *judge.Transcript) (llmjudge.PairwiseResult, error) {
				return p.Compare(ctx, t, baseline)
			}}},
		Transcripts: []*judge.Transcript{{Goal: "where is my order?", FinalResponse: "Order 12345 arrives on Monday."}},
		Samples:     3,
		Probes:      []audit.Probe{audit.ProbePosition},
		Bars:        audit.Bars{MaxPositionFlips: new(0.1)},
	}
	fmt.Println("calls:", plan.TotalCalls())
	r, err := audit.Run(context.Background(), plan)
	if err != nil {
		fmt.Println(err)
		return
	}
	pos := r.Judges[0].Position
	fmt.Printf("flips: %d of %d\n", pos.Flips, pos.Comparisons)
	fmt.Println(r.Failures)
	// Output:
	// calls: 6
	// flips: 3 of 3
	// [helpful: position flips 100% is above the bar of 10%]
}
