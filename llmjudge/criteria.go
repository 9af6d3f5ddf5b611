package llmjudge

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
)

// An Axis is one criterion of a Criteria judge, scored 1..10 on its own.
type Axis struct {
	// Name names the axis in the answer and in reports: a letter, then
	// letters, digits, _ or -, at most 64 ("character", "guidance").
	Name string
	// Description says what the axis measures, as the judge reads it
	// ("does the reply sound like Ori: calm, warm, measured?").
	Description string
}

// CriteriaConfig configures a Criteria judge. The zero value is the
// defaults: the seeds' "average ≥ 6.5 and min ≥ 5".
type CriteriaConfig struct {
	// MinMean is the lowest passing mean of the axes' scores, in 1..10.
	// Defaults to 6.5.
	MinMean float64
	// MinAxis is the lowest passing score of any one axis, in 1..10.
	// Defaults to 5.
	MinAxis float64
	Options
}

// Criteria scores the agent's response on several named axes (the seeds'
// character, guidance, conversation and style), each from 1 to 10 with
// its own reasoning. It passes when the mean of the axes reaches MinMean
// and every axis reaches MinAxis: the model weighs each axis, the verdict
// is computed here.
//
// Every axis score is kept: the judgment has one Check per axis (and one
// named "mean"), and one part per axis with a numerical 1..10 score. The
// judgment's own score is the mean, normalised to 0..1.
type Criteria struct {
	model    llm.Model
	s        settings
	prompt   *prompt
	schema   *llm.Schema
	names    []string
	criteria string
	minMean  float64
	minAxis  float64
}

var axisName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]{0,63}$`)

const maxAxes = 20

// NewCriteria returns a Criteria judge asking model to score responses on
// axes. It is an error for the model to be nil, for there to be no axes or
// more than 20, for a name to be invalid, reserved ("score", "reasoning")
// or given twice, for a description to be blank, or for the thresholds to
// lie outside 1..10.
func NewCriteria(model llm.Model, axes []Axis, c CriteriaConfig) (*Criteria, error) {
	const kind = "criteria"
	s, err := c.resolve(kind, 2*defaultMaxTokens, true)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", kind, err)
	}
	if err := checkModel(model); err != nil {
		return nil, fmt.Errorf("%s: %w", s.name, err)
	}
	j := &Criteria{model: model, s: s, minMean: c.MinMean, minAxis: c.MinAxis}
	if err := j.setAxes(axes); err != nil {
		return nil, fmt.Errorf("%s: %w", s.name, err)
	}
	for _, th := range []struct {
		name string
		v    *float64
		def  float64
	}{{"min mean", &j.minMean, 6.5}, {"min axis", &j.minAxis, 5}} {
		switch v := *th.v; {
		case v == 0:
			*th.v = th.def
		case math.IsNaN(v) || v < 1 || v > 10:
			return nil, fmt.Errorf("%s: %s %v: want 1..10 (0 means the default, %v)", s.name, th.name, v, th.def)
		}
	}
	j.prompt, err = newPrompt(kind, c.Prompt, c.Examples, j.data(sampleTranscript, sampleFindings))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.name, err)
	}
	return j, nil
}

// setAxes validates axes and derives the criteria block and the schema.
func (j *Criteria) setAxes(axes []Axis) error {
	if len(axes) == 0 || len(axes) > maxAxes {
		return fmt.Errorf("%d axes: want 1..%d", len(axes), maxAxes)
	}
	lines := make([]string, len(axes))
	props := make([]property, len(axes))
	const item = `{"type":"object","properties":{"reasoning":` + reasoningSchema + `,"score":{"type":"integer","minimum":1,"maximum":10}},"required":["reasoning","score"],"additionalProperties":false}`
	for i, a := range axes {
		switch {
		case !axisName.MatchString(a.Name):
			return fmt.Errorf("axis %d: name %q: want a letter, then letters, digits, _ or -, at most 64", i+1, a.Name)
		case a.Name == "score" || a.Name == "reasoning":
			return fmt.Errorf("axis %d: name %q is reserved for the fields of each axis", i+1, a.Name)
		case slices.Contains(j.names, a.Name):
			return fmt.Errorf("axis %d: name %q is given twice", i+1, a.Name)
		case strings.TrimSpace(a.Description) == "":
			return fmt.Errorf("axis %d (%s): no description: say what the axis measures", i+1, a.Name)
		}
		j.names = append(j.names, a.Name)
		lines[i] = "- " + a.Name + ": " + strings.TrimSpace(a.Description)
		props[i] = property{a.Name, item}
	}
	j.criteria = fence("criteria", strings.Join(lines, "\n"))
	j.schema = verdictSchema("verdict", objectSchema(props...))
	return nil
}

func (j *Criteria) data(t *judge.Transcript, findings []judge.Finding) PromptData {
	return PromptData{
		Goal:     fence("user_prompt", goalOf(t)),
		Response: fence("agent_response", t.Response()),
		Criteria: j.criteria,
		Axes:     j.names,
		Findings: findingsBlock(findings),
		History:  historyOf(t),
	}
}

func (j *Criteria) request(t *judge.Transcript, findings []judge.Finding) (llm.Request, error) {
	msgs, err := j.prompt.render(j.data(t, findings))
	if err != nil {
		return llm.Request{}, fmt.Errorf("render the prompt: %w", err)
	}
	return j.s.request(msgs, j.schema), nil
}

// rated is one parsed answer of a Criteria judge: a score and a reasoning
// per axis, in the axes' order.
type rated struct {
	scores  []float64
	reasons []string
}

// parseAxes reads {"<axis>": {"reasoning": "…", "score": 1..10}, …} with
// every axis of names present.
func parseAxes(answer string, names []string) (rated, error) {
	sh := shape{}
	for _, n := range names {
		sh[n] = shape{"score": nil, "reasoning": nil}
	}
	f := format{shape: sh, decisions: names, where: `each axis's "score"`}
	return unambiguous(answer, f, func(m map[string]any) (rated, error) {
		return readAxes(m, names)
	})
}

// readAxes reads a Criteria answer's fields.
func readAxes(m map[string]any, names []string) (rated, error) {
	var r rated
	for _, n := range names {
		o, err := object(m, n)
		if err != nil {
			return rated{}, fmt.Errorf("axis %w", err)
		}
		score, err := number(o, "score", 1, 10)
		if err != nil {
			return rated{}, fmt.Errorf("axis %q: %w", n, err)
		}
		reasoning, err := text(o, "reasoning", true)
		if err != nil {
			return rated{}, fmt.Errorf("axis %q: %w", n, err)
		}
		r.scores = append(r.scores, score)
		r.reasons = append(r.reasons, reasoning)
	}
	return r, nil
}

// verdict applies the rule to axis scores: the mean, the lowest axis and
// whether both reach their thresholds.
func (j *Criteria) verdict(scores []float64) (mean float64, lowest int, passed bool) {
	lowest = 0
	var sum float64
	for i, v := range scores {
		sum += v
		if v < scores[lowest] {
			lowest = i
		}
	}
	mean = sum / float64(len(scores))
	return mean, lowest, atLeast(mean, j.minMean) && atLeast(scores[lowest], j.minAxis)
}

// Judge scores t's response on every axis. It returns an error when it
// could not judge: the model failed, or its answer was still malformed
// (an axis missing, a score out of 1..10) after the re-asks.
func (j *Criteria) Judge(ctx context.Context, t *judge.Transcript) (judge.Judgment, error) {
	out := judge.Judgment{Name: j.s.name, Prompt: j.prompt.version}
	if why := noResponse(t); why != "" {
		out.Status, out.Reasoning = judge.StatusFail, why
		return out, nil
	}
	req, err := j.request(t, judge.FindingsFrom(ctx))
	if err != nil {
		return out, fmt.Errorf("%s: %w", j.s.name, err)
	}
	req.Trial = t.Trial // repeated trials of a case stay independent in a cache
	samples, usage, err := sample(ctx, j.model, req, j.s, func(answer string) (rated, error) {
		return parseAxes(answer, j.names)
	})
	out.Usage = judgeUsage(usage)
	if err != nil {
		return out, fmt.Errorf("%s: %w", j.s.name, err)
	}

	// Each axis is aggregated over the samples; the rule is applied to
	// the aggregates.
	axes := make([]float64, len(j.names))
	for i := range j.names {
		vals := make([]float64, len(samples))
		for k, smp := range samples {
			vals[k] = smp.scores[i]
		}
		axes[i] = clamp(aggregate(vals, j.s.aggregate), 1, 10)
	}
	mean, lowest, passed := j.verdict(axes)
	score := judge.Unit((mean - 1) / 9)
	out.Status, out.Score = judge.StatusFail, score
	out.Threshold = judge.AtLeast(mean, j.minMean)
	out.Threshold.Of = "mean"
	if passed {
		out.Status = judge.StatusPass
	}

	var b strings.Builder
	var stable []judge.Check
	if len(samples) > 1 {
		fmt.Fprintf(&b, "%s of %d samples per axis: ", j.s.aggregate, len(samples))
	}
	fmt.Fprintf(&b, "mean %s, lowest %s (%s)", compare(mean, j.minMean), compare(axes[lowest], j.minAxis), j.names[lowest])
	if len(samples) > 1 {
		means := make([]float64, len(samples))
		passes := make([]bool, len(samples))
		for k, smp := range samples {
			means[k], _, passes[k] = j.verdict(smp.scores)
		}
		check, note := stability(passes, means)
		fmt.Fprintf(&b, "; sample means %s", spreadOf(means))
		if note != "" {
			b.WriteString("; " + note)
		}
		stable = append(stable, check)
	}

	for i, name := range j.names {
		ok := atLeast(axes[i], j.minAxis)
		axisScore, err := judge.Number(axes[i], 1, 10)
		if err != nil {
			return out, fmt.Errorf("%s: axis %s: %w", j.s.name, name, err)
		}
		reasoning := j.axisReasoning(samples, i)
		part := judge.Judgment{Name: name, Status: judge.StatusFail, Score: axisScore, Reasoning: reasoning, Threshold: judge.AtLeast(axes[i], j.minAxis)}
		if ok {
			part.Status = judge.StatusPass
		}
		out.Parts = append(out.Parts, part)
		out.Checks = append(out.Checks, judge.Check{Name: name, Passed: ok, Message: fmt.Sprintf("%s/10, at least %s needed", formatNum(axes[i]), formatNum(j.minAxis))})
		fmt.Fprintf(&b, "\n%s %s: %s", name, formatNum(axes[i]), reasoning)
	}
	out.Checks = append(out.Checks, judge.Check{Name: "mean", Passed: atLeast(mean, j.minMean), Message: fmt.Sprintf("mean %s", compare(mean, j.minMean))})
	out.Checks = append(out.Checks, stable...)
	out.Reasoning = b.String()
	return out, nil
}

// axisReasoning is the reasoning for axis i: the model's, or with several
// samples each sample's with its score.
func (j *Criteria) axisReasoning(samples []rated, i int) string {
	if len(samples) == 1 {
		return samples[0].reasons[i]
	}
	parts := make([]string, len(samples))
	for k, smp := range samples {
		parts[k] = fmt.Sprintf("[sample %d, %s] %s", k+1, formatNum(smp.scores[i]), smp.reasons[i])
	}
	return strings.Join(parts, " ")
}
