package spec

import (
	"errors"
	"fmt"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/jury"
)

// The kinds that combine judges of any kind, these included.

type allJudge struct {
	All []JudgeSpec `yaml:"all" doc:"Judges that must all pass; every one runs, and a failure lists every part that failed."`
}

func (c *allJudge) build(b *builder) (judge.Judge, error) {
	js, err := b.parts("all", c.All)
	if err != nil || js == nil {
		return nil, err
	}
	return judge.All(js...), nil
}

func (c *allJudge) parts() []JudgeSpec { return c.All }
func (c *allJudge) words() string      { return describeParts("all of", c.All) }

type anyJudge struct {
	Any []JudgeSpec `yaml:"any" doc:"Judges of which one must pass; they run in order until one passes."`
}

func (c *anyJudge) build(b *builder) (judge.Judge, error) {
	js, err := b.parts("any", c.Any)
	if err != nil || js == nil {
		return nil, err
	}
	return judge.Any(js...), nil
}

func (c *anyJudge) parts() []JudgeSpec { return c.Any }
func (c *anyJudge) words() string      { return describeParts("any of", c.Any) }

type notJudge struct {
	Not *JudgeSpec `yaml:"not" doc:"A judge whose verdict is inverted: a PASS fails and a FAIL passes (ABSTAIN and ERROR stay)."`
}

func (c *notJudge) build(b *builder) (judge.Judge, error) {
	j, err := b.item("not", *c.Not)
	if err != nil || j == nil {
		return nil, err
	}
	return judge.Not(j), nil
}

func (c *notJudge) parts() []JudgeSpec { return []JudgeSpec{*c.Not} }
func (c *notJudge) words() string      { return "not " + c.Not.words() }

type weightedJudge struct {
	Weighted  []weightedPart `yaml:"weighted" doc:"Judges with weights: it passes when the weighted mean of their scores (0..1) reaches the threshold. Parts that abstain are left out; a part that errs makes the verdict ERROR."`
	Threshold *float64       `yaml:"threshold" minimum:"0" maximum:"1" doc:"The passing weighted mean, 0..1. Defaults to 0.7."`
}

// A weightedPart is a judge and its weight.
type weightedPart struct {
	Weight float64   `yaml:"weight" minimum:"0" doc:"The part's weight: finite, not negative; not all zero."`
	Judge  JudgeSpec `yaml:"judge" doc:"The judge."`
}

func (c *weightedJudge) build(b *builder) (judge.Judge, error) {
	if err := threshold(c.Threshold); err != nil {
		return nil, err
	}
	t := 0.7
	if c.Threshold != nil {
		t = *c.Threshold
	}
	var parts []judge.Weight
	for i, p := range c.Weighted {
		j, err := b.item(fmt.Sprintf("weighted[%d].judge", i), p.Judge)
		if err != nil || j == nil {
			return nil, err
		}
		parts = append(parts, judge.Weight{Judge: j, Weight: p.Weight})
	}
	if len(parts) == 0 {
		return nil, errors.New("weighted: no parts: give judges with weights")
	}
	return judge.Weighted(t, parts...)
}

func (c *weightedJudge) parts() []JudgeSpec {
	out := make([]JudgeSpec, len(c.Weighted))
	for i, p := range c.Weighted {
		out[i] = p.Judge
	}
	return out
}

func (c *weightedJudge) words() string { return describeParts("a weighted mean of", c.parts()) }

type juryJudge struct {
	Jury      jurySettings `yaml:"jury" doc:"Several judges (jurors) that vote; a strategy turns the votes into one verdict. Jurors may be judges of any kind, juries included."`
	Threshold *float64     `yaml:"threshold" minimum:"0" maximum:"1" doc:"The value an average, weighted_average or median jury must reach, 0..1. Defaults to 0.5."`
}

type jurySettings struct {
	Jurors        []JudgeSpec `yaml:"jurors" doc:"The judges that vote."`
	Strategy      string      `yaml:"strategy" enum:"majority,consensus,average,weighted_average,median" doc:"majority, consensus, average, weighted_average or median. Defaults to majority."`
	Weights       []float64   `yaml:"weights" doc:"The jurors' weights, in their order, for weighted_average."`
	Ties          string      `yaml:"ties" enum:"fail,pass,abstain" doc:"How a majority vote with as many passes as fails ends: fail (the default), pass or abstain."`
	Errors        string      `yaml:"errors" enum:"error,fail,ignore" doc:"How a juror that could not judge counts: error (the jury errs: the default), fail (a failing vote) or ignore (left out, like an abstention)."`
	MaxConcurrent int         `yaml:"max_concurrent" minimum:"0" doc:"How many jurors judge at once. Defaults to all."`
}

func (c *juryJudge) build(b *builder) (judge.Judge, error) {
	jurors, err := b.parts("jury.jurors", c.Jury.Jurors)
	if err != nil || jurors == nil {
		return nil, err
	}
	return asJudge(jury.New(jury.Config{
		Jurors: jurors, Strategy: jury.Strategy(c.Jury.Strategy), Weights: c.Jury.Weights, Threshold: c.Threshold,
		Ties: jury.TiePolicy(c.Jury.Ties), Errors: jury.ErrorPolicy(c.Jury.Errors), MaxConcurrent: c.Jury.MaxConcurrent,
	}))
}

func (c *juryJudge) parts() []JudgeSpec { return c.Jury.Jurors }
func (c *juryJudge) words() string      { return fmt.Sprintf("a jury of %d", len(c.Jury.Jurors)) }

type eachTurnJudge struct {
	EachTurn *JudgeSpec `yaml:"each_turn" doc:"A judge that judges every agent turn on its own: the turn is the response, the messages since the agent's previous turn the request, and the turns before the context. It passes when every turn passes."`
}

func (c *eachTurnJudge) build(b *builder) (judge.Judge, error) {
	j, err := b.item("each_turn", *c.EachTurn)
	if err != nil || j == nil {
		return nil, err
	}
	return judge.EachTurn(j), nil
}

func (c *eachTurnJudge) parts() []JudgeSpec { return []JudgeSpec{*c.EachTurn} }
func (c *eachTurnJudge) words() string      { return "every turn: " + c.EachTurn.words() }

type tieredJudge struct {
	Tiered [][]JudgeSpec `yaml:"tiered" doc:"Tiers of judges, run in order: a tier runs only when every judge of the tiers before it passed, and their soft findings reach it as context."`
}

func (c *tieredJudge) build(b *builder) (judge.Judge, error) {
	var tiers []judge.Judge
	for i, tier := range c.Tiered {
		js, err := b.parts(fmt.Sprintf("tiered[%d]", i), tier)
		if err != nil || js == nil {
			return nil, err
		}
		tiers = append(tiers, allOf(js))
	}
	if len(tiers) == 0 {
		return nil, errors.New("tiered: no tiers")
	}
	return judge.Tiered(tiers[0], tiers[1:]...), nil
}

func (c *tieredJudge) parts() []JudgeSpec {
	var out []JudgeSpec
	for _, tier := range c.Tiered {
		out = append(out, tier...)
	}
	return out
}

func (c *tieredJudge) words() string { return describeParts("in tiers,", c.parts()) }

// parts builds the parts of a composite: nil, nil when one of them could
// not be built for a reason already recorded (an unknown model).
func (b *builder) parts(field string, specs []JudgeSpec) ([]judge.Judge, error) {
	if len(specs) == 0 {
		return nil, fmt.Errorf("%s: no judges given", field)
	}
	return b.items(field, specs)
}

func describeParts(prefix string, parts []JudgeSpec) string {
	s := prefix
	for i, p := range parts {
		if i > 0 {
			s += ";"
		}
		s += " " + p.words()
	}
	return "(" + s + ")"
}

var (
	_ = register[allJudge](kind{name: "all", group: "Composition", library: []string{"judge.All"},
		doc:     "Every part must pass.",
		example: "all:\n  - contains: refund\n  - max_questions: 1"})
	_ = register[anyJudge](kind{name: "any", group: "Composition", library: []string{"judge.Any"},
		doc:     "One part must pass.",
		example: "any:\n  - contains: refund\n  - contains: store credit"})
	_ = register[notJudge](kind{name: "not", group: "Composition", library: []string{"judge.Not"},
		doc:     "The part must fail.",
		example: "not:\n  regex: '(?i)guarantee'"})
	_ = register[weightedJudge](kind{name: "weighted", group: "Composition", library: []string{"judge.Weighted"},
		doc:     "The weighted mean of the parts' scores must reach a threshold: partial credit.",
		example: "weighted:\n  - {weight: 2, judge: {rubric: 'Is the answer correct?'}}\n  - {weight: 1, judge: {max_bubbles: 2}}\nthreshold: 0.6"})
	_ = register[juryJudge](kind{name: "jury", group: "Composition", library: []string{"jury.New"},
		doc:     "Several judges vote; a strategy, a tie policy and an error policy make one verdict. Jurors may ask no model.",
		example: "jury:\n  jurors:\n    - rubric: Is the reply correct?\n    - traits: [gives the refund amount]\n    - contains: refund\n  strategy: majority\n  ties: fail\n  errors: ignore"})
	_ = register[eachTurnJudge](kind{name: "each_turn", group: "Composition", library: []string{"judge.EachTurn"},
		doc:     "Judges every agent turn on its own, as a conversational product is judged (seed 002 scores each of Ori's turns): a judge of the whole conversation sees only the final reply.",
		example: "each_turn:\n  criteria:\n    character: Does it sound like Ori, calm and warm?\n    style: Is it short, lowercase, with one question at most?"})
	_ = register[tieredJudge](kind{name: "tiered", group: "Composition", library: []string{"judge.Tiered"},
		doc:     "Tiers that run in order, each only when the ones before passed. Every case is already judged in two tiers (rules first, then the judges that ask a model); this is for more.",
		example: "tiered:\n  - [{no_placeholders: true}]\n  - [{rubric: 'Is it helpful?'}]"})
)
