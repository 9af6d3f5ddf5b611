package llmjudge

import (
	"context"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/internal/golden"
)

// overruled are two judgments people overruled, as gavel calibrate
// --disagreements writes them: one with a reason, one without; one
// with a criterion of its own.
var overruled = []Example{
	{Request: "where's my order #555?", Response: "It's on its way!", Verdict: "fail", Reason: "no date and no order number: the user cannot plan"},
	{Request: "cancel order 777", Response: "Order 777 is cancelled; your refund of $20 arrives in 5 days.", Criteria: "The reply confirms the cancellation.", Verdict: "pass"},
}

// A judge given examples shows them at the end of its system message,
// every text fenced, the people's verdict marked as the correct one; the
// user message is the judge's as without examples.
func TestExamplesPromptGolden(t *testing.T) {
	criteria := "The response should give the delivery date and the order number."
	with := must(NewRubric(answers(""), criteria, RubricConfig{Options: Options{Examples: overruled}}))
	req := must(with.request(orderTranscript(), nil))
	golden.Check(t, "rubric_examples", dump(t, req))

	without := must(must(NewRubric(answers(""), criteria, RubricConfig{})).request(orderTranscript(), nil))
	if req.Messages[1].Content != without.Messages[1].Content {
		t.Errorf("examples changed the user message:\n%s\nwant\n%s", req.Messages[1].Content, without.Messages[1].Content)
	}
	if !strings.HasPrefix(req.Messages[0].Content, without.Messages[0].Content+"\n\nExamples of responses people judged") {
		t.Errorf("the examples do not follow the system message as it was:\n%s", req.Messages[0].Content)
	}
}

// Examples are part of the prompt's version: labels of a judge given
// examples are told apart from those of the same judge without them, and
// other examples make another version.
func TestExamplesChangeThePromptVersion(t *testing.T) {
	version := func(examples []Example) string {
		r := must(NewRubric(answers(`{"reasoning":"ok","score":0.9}`), "criteria", RubricConfig{Options: Options{Examples: examples}}))
		j, err := r.Judge(context.Background(), orderTranscript())
		if err != nil {
			t.Fatal(err)
		}
		return j.Prompt
	}
	plain, one, two := version(nil), version(overruled[:1]), version(overruled)
	if plain == one || one == two || plain == two || len(one) != 12 {
		t.Errorf("versions: without %q, one example %q, two %q: want three of 12 digits", plain, one, two)
	}
	if again := version(overruled); again != two {
		t.Errorf("the same examples give version %q, then %q", two, again)
	}
}

// A prompt override takes the examples too: they end its system message.
func TestExamplesWithPromptOverride(t *testing.T) {
	override := `{{define "system"}}Score it. {{template "fences"}}{{end}}{{define "user"}}{{template "history" .}}{{.Goal}} {{.Response}} {{.Criteria}} {{.Findings}}{{end}}`
	r := must(NewRubric(answers(""), "criteria", RubricConfig{Options: Options{Prompt: override, Examples: overruled}}))
	req := must(r.request(orderTranscript(), nil))
	if !strings.Contains(req.Messages[0].Content, "The people's verdict: fail") {
		t.Errorf("the override's system message has no examples:\n%s", req.Messages[0].Content)
	}
}

// An example a judge cannot show, or a judge that takes none, is refused
// when the judge is built, saying which example and what to fix.
func TestExamplesRefused(t *testing.T) {
	for _, tc := range []struct {
		name  string
		build func() error
		want  string
	}{
		{"no verdict", func() error {
			_, err := NewRubric(answers(""), "c", RubricConfig{Options: Options{Examples: []Example{overruled[0], {Response: "hi"}}}})
			return err
		}, "rubric: examples: example 2: no verdict: give the people's verdict"},
		{"no response", func() error {
			_, err := NewTraits(answers(""), []string{"polite"}, TraitsConfig{Options: Options{Examples: []Example{{Request: "hi", Verdict: "pass"}}}})
			return err
		}, "traits: examples: example 1: no response"},
		{"a verdict that is a text", func() error {
			_, err := NewCorrectness(answers(""), CorrectnessConfig{Options: Options{Examples: []Example{{Response: "hi", Verdict: "fail\nbecause it is rude"}}}})
			return err
		}, "a verdict is a category of the judge's scale"},
		{"pairwise", func() error {
			_, err := NewPairwise(answers(""), "c", PairwiseConfig{Options: Options{Examples: overruled}})
			return err
		}, "pairwise: examples: pairwise takes none"},
		{"follow-up", func() error {
			_, err := NewFollowUp(answers(""), FollowUpConfig{Options: Options{Examples: overruled}})
			return err
		}, "follow-up: examples: follow-up takes none"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.build()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error with %q", err, tc.want)
			}
		})
	}
}
