//go:build unix

package rule_test

import (
	"context"
	"fmt"
	"log"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/rule"
)

// A judge in any language: here a shell one-liner that reads the trial's
// JSON and answers a score, read by the threshold. A real one is a
// Python or JavaScript program (docs/program-judges.md).
func ExampleNewProgram() {
	p, err := rule.NewProgram(rule.ProgramConfig{
		Args:      []string{"sh", "-c", `if grep -q '"final_response":"Done.*cancelled'; then echo '{"score": 0.9, "reasoning": "says it is done"}'; else echo '{"score": 0.2}'; fi`},
		Threshold: func(v float64) *float64 { return &v }(0.8),
	})
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()
	t := &judge.Transcript{Turns: []judge.Turn{{Role: judge.RoleUser, Content: "cancel order 13579"}, {Role: judge.RoleAgent, Content: "Done: order 13579 is cancelled."}}}
	j := judge.Run(context.Background(), p, t)
	fmt.Println(j.Status, j.Score.Value, j.Reasoning)

	// An answer that is not a judgment is an ERROR, never a PASS.
	bad, err := rule.NewProgram(rule.ProgramConfig{Args: []string{"sh", "-c", `cat >/dev/null; echo 'PASS, looks fine'`}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(judge.Run(context.Background(), bad, t).Status)
	// Output:
	// PASS 0.9 says it is done
	// ERROR
}
