package llmjudge_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm/llmtest"
	"github.com/gavelhq/gavel/llmjudge"
)

// The seeds' rubric judge: criteria in plain words, a score from 0 to 1,
// and a verdict computed from the threshold (0.7 by default).
func ExampleRubric() {
	model := &llmtest.Scripted{Rules: []llmtest.Rule{
		{Text: `{"reasoning": "Gives the order number and the delivery date.", "score": 0.9}`},
	}}
	rubric, err := llmjudge.NewRubric(model, "The response should give the order number and the delivery date.", llmjudge.RubricConfig{})
	if err != nil {
		log.Fatal(err)
	}

	t := &judge.Transcript{Goal: "where's my order #12345?", FinalResponse: "Order 12345 arrives on 2026-03-15."}
	j := judge.Run(context.Background(), rubric, t)
	fmt.Println(j.Status, j.Score)
	fmt.Println(j.Reasoning)
	// Output:
	// PASS 0.9/1
	// score 0.9 ≥ 0.7: Gives the order number and the delivery date.
}

// The seeds' four-criteria judge: each axis scored 1..10, and a pass only
// when the mean is at least 6.5 and no axis is below 5. Here a good mean
// does not save a reply that breaks the style rules.
func ExampleCriteria() {
	model := &llmtest.Scripted{Rules: []llmtest.Rule{{Text: `{
		"character": {"reasoning": "Calm and warm.", "score": 9},
		"guidance": {"reasoning": "Stays on the feedback stage.", "score": 8},
		"conversation": {"reasoning": "Picks up on the date.", "score": 9},
		"style": {"reasoning": "Capitals and an em-dash.", "score": 3}
	}`}}}
	criteria, err := llmjudge.NewCriteria(model, []llmjudge.Axis{
		{Name: "character", Description: "Does it sound like Ori: calm, warm, measured?"},
		{Name: "guidance", Description: "Does it follow the current stage's objective?"},
		{Name: "conversation", Description: "Does it react to what the user said?"},
		{Name: "style", Description: "Lowercase, short bubbles, no em-dashes?"},
	}, llmjudge.CriteriaConfig{})
	if err != nil {
		log.Fatal(err)
	}

	t := &judge.Transcript{Goal: "the date went well i think", FinalResponse: "That's great — what made it feel good?"}
	j := judge.Run(context.Background(), criteria, t)
	fmt.Println(j.Status)
	for _, c := range j.Checks {
		fmt.Printf("%s passed=%v: %s\n", c.Name, c.Passed, c.Message)
	}
	// Output:
	// FAIL
	// character passed=true: 9/10, at least 5 needed
	// guidance passed=true: 8/10, at least 5 needed
	// conversation passed=true: 9/10, at least 5 needed
	// style passed=false: 3/10, at least 5 needed
	// mean passed=true: mean 7.25 ≥ 6.5
}

// A judge that always prefers the response it is shown first cannot tip
// a comparison: the two orders disagree, and the result is a tie.
func ExamplePairwise_Compare() {
	biased := &llmtest.Scripted{Rules: []llmtest.Rule{{Text: `{"reasoning": "The first one is better.", "winner": "A"}`}}}
	pairwise, err := llmjudge.NewPairwise(biased, "The response should give the delivery date.", llmjudge.PairwiseConfig{})
	if err != nil {
		log.Fatal(err)
	}

	a := &judge.Transcript{Goal: "where's my order?", FinalResponse: "It arrives on 2026-03-15."}
	b := &judge.Transcript{Goal: "where's my order?", FinalResponse: "It is on its way."}
	res, err := pairwise.Compare(context.Background(), a, b)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Winner, res.Forward.Winner, res.Reversed.Winner)
	// Output: tie a b
}

// The follow-up detector tells a clarifying question from an answer, and
// says what the user could reply.
func ExampleFollowUp_Detect() {
	model := &llmtest.Scripted{Rules: []llmtest.Rule{
		{Text: `{"reasoning": "It asks which listing.", "needs_followup": true, "reply": "The Beach House, please."}`},
	}}
	detector, err := llmjudge.NewFollowUp(model, llmjudge.FollowUpConfig{})
	if err != nil {
		log.Fatal(err)
	}
	res, err := detector.Detect(context.Background(), "What's the occupancy?", "I'd be happy to help! Which listing?")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.NeedsFollowUp, res.Reply)
	// Output: true The Beach House, please.
}

// A judge from the agent's own family is worth a warning; whether it is
// also an error is the caller's choice.
func ExampleCheckHierarchy() {
	err := llmjudge.CheckHierarchy("anthropic:claude-sonnet-4-5", "anthropic:claude-haiku-4-5")
	var w *llmjudge.HierarchyWarning
	if errors.As(err, &w) {
		fmt.Println("warning:", w.Family)
	}
	fmt.Println(llmjudge.CheckHierarchy("anthropic:claude-opus-4-5", "openai:gpt-5-mini"))
	// Output:
	// warning: claude
	// <nil>
}
