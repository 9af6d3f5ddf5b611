package jury_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/jury"
)

// verdict returns a judge that always gives the same judgment, as an
// offline stand-in for an LLM judge.
func verdict(name string, passed bool, reasoning string) judge.Judge {
	return judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) {
		j := judge.Verdict(passed, reasoning)
		j.Name = name
		return j, nil
	})
}

// scored returns a judge that always gives the same score, passing when
// the score's normalised value is at least one half.
func scored(name string, score judge.Score) judge.Judge {
	return judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) {
		status := judge.StatusFail
		if score.Normalized() >= 0.5 {
			status = judge.StatusPass
		}
		return judge.Judgment{Name: name, Status: status, Score: score}, nil
	})
}

// broken returns a judge that cannot judge: its model is down.
func broken(name string) judge.Judge {
	return judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) {
		return judge.Judgment{Name: name}, errors.New("model overloaded")
	})
}

func ExampleNew() {
	tone, err := jury.New(jury.Config{
		Name: "tone",
		Jurors: []judge.Judge{
			verdict("polite", true, "thanks the user"),
			verdict("concise", false, "five paragraphs for a yes/no question"),
			verdict("kind", true, "no blame"),
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	v, err := tone.Judge(context.Background(), &judge.Transcript{FinalResponse: "Thanks for asking! ..."})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(v.Status)
	fmt.Println(v.DecidedBy)
	fmt.Println(v.Reasoning)
	for _, p := range v.Parts {
		fmt.Printf("  %s %s: %s\n", p.Status, p.Name, p.Reasoning)
	}
	// Output:
	// PASS
	// majority
	// majority: 2 pass, 1 fail → PASS
	//   PASS polite: thanks the user
	//   FAIL concise: five paragraphs for a yes/no question
	//   PASS kind: no blame
}

// Jurors with scores of different kinds vote together: every score
// normalises to 0..1. Here a rubric score of 4 out of 5 (0.75), the label
// "fair" (0.5) and a failed boolean check (0) average 0.42, short of the
// threshold.
func ExampleNew_average() {
	rubric, err := judge.Number(4, 1, 5)
	if err != nil {
		fmt.Println(err)
		return
	}
	grade, err := judge.Category("fair", []judge.Label{{Name: "poor", Value: 0}, {Name: "fair", Value: 0.5}, {Name: "good", Value: 1}})
	if err != nil {
		fmt.Println(err)
		return
	}
	helpful, err := jury.New(jury.Config{
		Name:      "helpful",
		Strategy:  jury.Average,
		Threshold: new(0.6),
		Jurors: []judge.Judge{
			scored("rubric", rubric),
			scored("grader", grade),
			verdict("cites sources", false, "no link given"),
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	v, err := helpful.Judge(context.Background(), &judge.Transcript{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s %.2f\n", v.Status, v.Score.Normalized())
	fmt.Println(v.Reasoning)
	// Output:
	// FAIL 0.42
	// average 0.42 < threshold 0.60: 2 pass, 1 fail → FAIL
}

// A heavy juror that could not judge is left out under ErrorsIgnored, and
// the weights of the others are renormalised over them.
func ExampleNew_weightedAverage() {
	expert, err := jury.New(jury.Config{
		Strategy: jury.WeightedAverage,
		Weights:  []float64{5, 1, 1},
		Errors:   jury.ErrorsIgnored,
		Jurors: []judge.Judge{
			broken("expert"),
			verdict("junior 1", true, "correct"),
			verdict("junior 2", true, "correct"),
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	v, err := expert.Judge(context.Background(), &judge.Transcript{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(v.Status)
	fmt.Println(v.Reasoning)
	fmt.Println(v.Parts[0].Name, v.Parts[0].Status, v.Parts[0].Reasoning)
	// Output:
	// PASS
	// weighted average 1.00 ≥ threshold 0.50: 2 pass, 0 fail, 1 errored (ignored); weights renormalised over the 2 jurors that voted → PASS
	// expert ERROR model overloaded
}

// A jury is a judge, so a jury can sit on a jury.
func ExampleNew_nested() {
	panel, err := jury.New(jury.Config{
		Name: "panel",
		Jurors: []judge.Judge{
			verdict("a", true, ""),
			verdict("b", false, ""),
			verdict("c", true, ""),
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	final, err := jury.New(jury.Config{
		Name:     "final",
		Strategy: jury.Consensus,
		Jurors:   []judge.Judge{panel, verdict("safety", true, "nothing unsafe")},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	v, err := final.Judge(context.Background(), &judge.Transcript{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(v.Reasoning)
	fmt.Println(v.Parts[0].Name+":", v.Parts[0].Reasoning)
	// Output:
	// consensus: 2 pass, 0 fail → PASS
	// panel: majority: 2 pass, 1 fail → PASS
}

func ExampleNew_typo() {
	_, err := jury.New(jury.Config{Jurors: []judge.Judge{verdict("a", true, "")}, Strategy: "majorty"})
	fmt.Println(err)
	// Output:
	// jury: unknown strategy "majorty": want one of majority, consensus, average, weighted_average, median (did you mean "majority"?)
}
