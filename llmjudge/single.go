package llmjudge

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
)

// A scored is one parsed answer of a judge that gives one score.
type scored struct {
	score     float64
	reasoning string
}

// parseScore reads {"reasoning": "…", "score": n} with n within lo..hi.
func parseScore(answer string, lo, hi float64) (scored, error) {
	return unambiguous(answer, scoreFormat, func(m map[string]any) (scored, error) {
		return readScore(m, lo, hi)
	})
}

// scoreFormat is the answer of a judge that gives one score.
var scoreFormat = format{shape: shape{"score": nil, "reasoning": nil}, decisions: []string{"score"}, where: `"score"`}

// readScore reads a score answer's fields.
func readScore(m map[string]any, lo, hi float64) (scored, error) {
	score, err := number(m, "score", lo, hi)
	if err != nil {
		return scored{}, err
	}
	reasoning, err := text(m, "reasoning", true)
	if err != nil {
		return scored{}, err
	}
	return scored{score: score, reasoning: reasoning}, nil
}

// ParseScore reads a judge's answer {"reasoning": "…", "score": n}, with n
// within lo..hi, as this package's judges do: leniently (the object alone,
// inside fences or prose, or as XML-like tags) but safely: an answer that
// is not unambiguous (two different verdicts, a verdict in another field
// such as "pass" or "verdict", or in the prose around it), a key given
// twice, a score out of range, NaN or infinite, or a missing field is an
// error whose text can be shown to the model when asking again, never a
// guess.
func ParseScore(answer string, lo, hi float64) (score float64, reasoning string, err error) {
	v, err := parseScore(answer, lo, hi)
	return v.score, v.reasoning, err
}

// scoreSchema is the schema of parseScore's answer.
func scoreSchema(lo, hi float64, integer bool, meaning string) *llm.Schema {
	kind := "number"
	if integer {
		kind = "integer"
	}
	score := fmt.Sprintf(`{"type":%q,"minimum":%s,"maximum":%s,"description":%q}`, kind, formatNum(lo), formatNum(hi), meaning)
	return verdictSchema("verdict", objectSchema(property{"reasoning", reasoningSchema}, property{"score", score}))
}

// single is the engine of the judges that give one score (Rubric, Traits,
// Correctness): a pure prompt builder (data), a pure parser (parseScore)
// and the model calls.
type single struct {
	model  llm.Model
	s      settings
	prompt *prompt
	schema *llm.Schema
	// lo..hi is the scale; a score of at least pass passes.
	lo, hi, pass float64
	// data builds the prompt's inputs from a transcript.
	data func(t *judge.Transcript) PromptData
	// nothing says why there is nothing to judge in t, or "".
	nothing func(t *judge.Transcript) string
}

// request returns the request for t, with findings in the prompt.
func (j *single) request(t *judge.Transcript, findings []judge.Finding) (llm.Request, error) {
	d := j.data(t)
	d.Findings = findingsBlock(findings)
	d.History = historyOf(t)
	msgs, err := j.prompt.render(d)
	if err != nil {
		return llm.Request{}, fmt.Errorf("render the prompt: %w", err)
	}
	return j.s.request(msgs, j.schema), nil
}

func (j *single) judge(ctx context.Context, t *judge.Transcript) (judge.Judgment, error) {
	out := judge.Judgment{Name: j.s.name, Prompt: j.prompt.version}
	if why := j.nothing(t); why != "" {
		out.Status, out.Reasoning = judge.StatusFail, why
		return out, nil
	}
	req, err := j.request(t, judge.FindingsFrom(ctx))
	if err != nil {
		return out, fmt.Errorf("%s: %w", j.s.name, err)
	}
	req.Trial = t.Trial // repeated trials of a case stay independent in a cache
	samples, usage, err := sample(ctx, j.model, req, j.s, func(answer string) (scored, error) {
		return parseScore(answer, j.lo, j.hi)
	})
	out.Usage = judgeUsage(usage)
	if err != nil {
		return out, fmt.Errorf("%s: %w", j.s.name, err)
	}

	scores := make([]float64, len(samples))
	passed := make([]bool, len(samples))
	for i, v := range samples {
		scores[i], passed[i] = v.score, atLeast(v.score, j.pass)
	}
	agg := clamp(aggregate(scores, j.s.aggregate), j.lo, j.hi)
	score, err := judge.Number(agg, j.lo, j.hi)
	if err != nil {
		return out, fmt.Errorf("%s: %w", j.s.name, err)
	}
	out.Status, out.Score = judge.StatusFail, score
	out.Threshold = judge.AtLeast(agg, j.pass)
	if atLeast(agg, j.pass) {
		out.Status = judge.StatusPass
	}

	if len(samples) == 1 {
		out.Reasoning = fmt.Sprintf("score %s: %s", compare(agg, j.pass), samples[0].reasoning)
		return out, nil
	}
	check, note := stability(passed, scores)
	out.Checks = []judge.Check{check}
	var b strings.Builder
	fmt.Fprintf(&b, "%s score of %d samples %s (range %s)", j.s.aggregate, len(samples), compare(agg, j.pass), spreadOf(scores))
	if note != "" {
		b.WriteString("; " + note)
	}
	for i, v := range samples {
		fmt.Fprintf(&b, "\nsample %d, score %s: %s", i+1, formatNum(v.score), v.reasoning)
	}
	out.Reasoning = b.String()
	return out, nil
}

// sampleData is what a prompt template is checked against.
func (j *single) sampleData() PromptData {
	d := j.data(sampleTranscript)
	d.Findings = findingsBlock(sampleFindings)
	d.History = historyOf(sampleTranscript)
	return d
}

// unitThreshold resolves a threshold on 0..1; nil means 0.7.
func unitThreshold(t *float64) (float64, error) {
	switch {
	case t == nil:
		return 0.7, nil
	case math.IsNaN(*t) || *t < 0 || *t > 1:
		return 0, fmt.Errorf("threshold %v: want a number in 0..1 (leave it unset for the default, 0.7)", *t)
	}
	return *t, nil
}

// noResponse says why a transcript without a response cannot be judged
// on its response, or "".
func noResponse(t *judge.Transcript) string {
	if strings.TrimSpace(t.Response()) == "" {
		return "the agent gave no response to judge"
	}
	return ""
}
