package spec

import (
	"context"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/gavelhq/gavel/audit"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llmjudge"
)

// AuditSpec is what gavel audit holds a suite's model judges to (audit:).
// Its bars are shares and scores on 0..1; one left out is reported, not
// checked.
type AuditSpec struct {
	Samples           int      `yaml:"samples" minimum:"0" maximum:"25" doc:"How many times gavel audit asks each judgment (k), of the reply as it is and padded alike: the self-consistency probe compares the k verdicts. Defaults to 3."`
	MaxPositionFlips  *float64 `yaml:"max_position_flips" minimum:"0" maximum:"1" doc:"The largest share of a pairwise judge's comparisons whose two orders may disagree (position bias), 0..1 (0.1 for 10%)."`
	MaxVerbosityShare *float64 `yaml:"max_verbosity_share" minimum:"0" maximum:"1" doc:"The largest share of judgments in which a reply padded with neutral filler may score higher than the reply itself, 0..1."`
	MaxVerbosityGain  *float64 `yaml:"max_verbosity_gain" minimum:"0" maximum:"1" doc:"The largest mean gain of the score (0..1) that padding a reply with neutral filler may buy, over every judgment."`
	MaxUnstable       *float64 `yaml:"max_unstable" minimum:"0" maximum:"1" doc:"The largest share of judgments whose k samples may disagree on the verdict (a PASS and a FAIL), 0..1."`
	MaxFamilyGap      *float64 `yaml:"max_family_gap" minimum:"0" maximum:"1" doc:"The largest mean score (0..1) by which a judge of the agent's own model family may favour the agent's replies over the same judge on reference_model."`
	MinBiasAccuracy   *float64 `yaml:"min_bias_accuracy" minimum:"0" maximum:"1" doc:"The lowest accuracy each judge model may have on the self-test (each pair of the bias benchmark asked in both orders), 0..1."`
	BiasBench         string   `yaml:"bias_bench" doc:"A bias benchmark file for the self-test instead of Gavel's own set (42 pairs), relative to the suite file: EvalBiasBench's biasbench.json, or any file in its format (an object of bias type to pairs of instruction, response1, response2 and label 1 or 2)."`
	ReferenceModel    string   `yaml:"reference_model" doc:"A model of another family than the agent's (provider:model), for the family probe: each judge of the agent's family is asked again on it, and the gap between their scores of the agent's replies is measured. ${VAR} and ${VAR:-default} read the environment. Without it, such judges are named, not measured."`
}

// Bars are the bars of the audit: block; none without one.
func (a *AuditSpec) Bars() audit.Bars {
	if a == nil {
		return audit.Bars{}
	}
	return audit.Bars{MaxPositionFlips: a.MaxPositionFlips, MaxVerbosityShare: a.MaxVerbosityShare, MaxVerbosityGain: a.MaxVerbosityGain,
		MaxUnstable: a.MaxUnstable, MaxFamilyGap: a.MaxFamilyGap, MinBiasAccuracy: a.MinBiasAccuracy}
}

// auditBlock checks the audit: block against the ranges its fields
// declare, and returns it with its reference model read from the
// environment and its bias benchmark's path resolved (and the file read,
// to say now what is wrong with it).
func (b *builder) auditBlock(a *AuditSpec) *AuditSpec {
	if a == nil {
		return nil
	}
	out := *a
	for _, msg := range outOfRange(reflect.ValueOf(&out).Elem()) {
		b.fail("audit.%s", msg)
	}
	if out.ReferenceModel != "" {
		out.ReferenceModel = b.expand("audit.reference_model", out.ReferenceModel, addressValue)
		if _, err := llm.ParseRef(out.ReferenceModel); err != nil {
			b.fail("audit.reference_model: %v", err)
		}
	}
	if out.BiasBench != "" {
		out.BiasBench = b.abs(out.BiasBench)
		if _, err := audit.ReadBench(out.BiasBench); err != nil {
			b.fail("audit.bias_bench: %v", err)
		}
	}
	return &out
}

// outOfRange returns, for each number of the struct v outside the range
// its minimum and maximum tags declare (the ones gavel schema gives
// editors), what is wrong with it.
func outOfRange(v reflect.Value) []string {
	var out []string
	for i := range v.NumField() {
		f, field := v.Type().Field(i), v.Field(i)
		if field.Kind() == reflect.Pointer {
			if field.IsNil() {
				continue
			}
			field = field.Elem()
		}
		var n float64
		switch field.Kind() {
		case reflect.Int:
			n = float64(field.Int())
		case reflect.Float64:
			n = field.Float()
		default:
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		lo, errLo := strconv.ParseFloat(f.Tag.Get("minimum"), 64)
		hi, errHi := strconv.ParseFloat(f.Tag.Get("maximum"), 64)
		if (errLo == nil && n < lo) || (errHi == nil && n > hi) || n != n { // n != n: NaN
			out = append(out, fmt.Sprintf("%s %v is out of range: want %s to %s", name, strconv.FormatFloat(n, 'g', -1, 64), f.Tag.Get("minimum"), f.Tag.Get("maximum")))
		}
	}
	return out
}

// An openedJudge is the model an LLM judge item opened, with the options
// it was built with: what gavel audit asks, and builds the same judge
// with on another model.
type openedJudge struct {
	ref   string // as shown, without secrets
	model llm.Model
	opts  llmjudge.Options
}

// onModel is an LLM kind that builds its judge on any model, with the
// options its item resolved: the family probe rebuilds it on a reference
// model.
type onModel interface {
	on(m llm.Model, opts llmjudge.Options) (judge.Judge, error)
}

// comparer is a pairwise kind: the position probe asks its comparisons.
type comparer interface {
	compare(m llm.Model, opts llmjudge.Options) (func(context.Context, *judge.Transcript) (llmjudge.PairwiseResult, error), error)
}

// auditJudge records a model judge for gavel audit (Built.AuditJudges):
// field says where it is written, kind and cfg what it is, j the judge
// built, and opened the model it opened (nil for a composite). A round's
// judge reads its round, as the case's judge does.
func (b *builder) auditJudge(field, kind string, cfg any, j judge.Judge, opened *openedJudge) {
	round := b.round
	inRound := func(j judge.Judge) judge.Judge {
		if round > 0 {
			return judge.InRound(round, j)
		}
		return j
	}
	name := field
	switch {
	case round > 0:
		name = fmt.Sprintf("round %d: %s", round, field)
	case round == everyCaseRound:
		name = "every_case: " + field
	}
	if b.atCase != "" {
		name = b.atCase + ": " + name
	}
	a := audit.Judge{Name: name, Case: b.atCase, Kind: kind, Judge: inRound(j)}
	if opened == nil {
		b.out.AuditJudges = append(b.out.AuditJudges, a)
		return
	}
	a.Model, a.LLM, a.Calls = opened.ref, opened.model, max(1, opened.opts.Samples)
	if o, ok := cfg.(onModel); ok {
		a.On = func(m llm.Model) (judge.Judge, error) {
			j, err := o.on(m, opened.opts)
			if err != nil {
				return nil, err
			}
			return inRound(j), nil
		}
	}
	if c, ok := cfg.(comparer); ok {
		compare, err := c.compare(opened.model, opened.opts)
		if err != nil {
			return // reported when the judge was built
		}
		a.Calls = 2
		a.Compare = func(ctx context.Context, t *judge.Transcript) (llmjudge.PairwiseResult, error) {
			if round > 0 {
				if t = t.Round(round); len(t.Turns) == 0 {
					return llmjudge.PairwiseResult{}, fmt.Errorf("round %d never took place", round)
				}
			}
			return compare(ctx, t)
		}
	}
	b.out.AuditJudges = append(b.out.AuditJudges, a)
}
