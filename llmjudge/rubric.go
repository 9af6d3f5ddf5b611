package llmjudge

import (
	"context"
	"fmt"
	"strings"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
)

// RubricConfig configures a Rubric judge. The zero value is the defaults.
type RubricConfig struct {
	// Threshold is the lowest passing score, in 0..1 (0: every score passes,
	// so the judge records its score without gating). Defaults to 0.7 when
	// nil.
	Threshold *float64
	Options
}

// Rubric scores the agent's response against criteria written in plain
// words, from 0 to 1, and passes when the score reaches the threshold: the
// seeds' judge_prompt and judge_threshold. The model sees the user's
// request (the transcript's Goal), the agent's response
// (judge.Transcript.Response) and the criteria.
type Rubric struct {
	single
}

// NewRubric returns a Rubric judge asking model whether responses meet
// criteria. It is an error for the model to be nil, the criteria blank or
// the configuration out of range.
func NewRubric(model llm.Model, criteria string, c RubricConfig) (*Rubric, error) {
	const kind = "rubric"
	s, err := c.resolve(kind, defaultMaxTokens, true)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", kind, err)
	}
	if err := checkModel(model); err != nil {
		return nil, fmt.Errorf("%s: %w", s.name, err)
	}
	if strings.TrimSpace(criteria) == "" {
		return nil, fmt.Errorf("%s: %w", s.name, errEmptyCriteria)
	}
	threshold, err := unitThreshold(c.Threshold)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.name, err)
	}
	r := &Rubric{single{
		model: model, s: s, lo: 0, hi: 1, pass: threshold,
		schema: scoreSchema(0, 1, false, "how well the response meets the criteria, from 0.0 to 1.0"),
		data: func(t *judge.Transcript) PromptData {
			return PromptData{Goal: fence("user_prompt", goalOf(t)), Response: fence("agent_response", t.Response()), Criteria: fence("criteria", criteria)}
		},
		nothing: noResponse,
	}}
	r.prompt, err = newPrompt(kind, c.Prompt, c.Examples, r.sampleData())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.name, err)
	}
	return r, nil
}

// Judge scores t's response. It returns an error when it could not judge:
// the model failed, or its answer was still malformed after the re-asks.
func (r *Rubric) Judge(ctx context.Context, t *judge.Transcript) (judge.Judgment, error) {
	return r.judge(ctx, t)
}
