package llmjudge

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
)

// TraitsConfig configures a Traits judge. The zero value is the defaults.
type TraitsConfig struct {
	// MinScore is the lowest passing score, in 1..3. Defaults to 2
	// (partial: some traits present).
	MinScore float64
	Options
}

// Traits scores the agent's response against a list of expected traits,
// the seeds' expected_response_traits ("mentions delivery date", "no false
// apology"), from 1 to 3: 1 misses required traits or is harmful or
// off-topic, 2 is partial, 3 has every trait with a professional tone and
// nothing extraneous. It passes at MinScore.
type Traits struct {
	single
}

// NewTraits returns a Traits judge asking model whether responses show
// traits. It is an error for the model to be nil, the list empty, a trait
// blank or spanning several lines, or the configuration out of range.
func NewTraits(model llm.Model, traits []string, c TraitsConfig) (*Traits, error) {
	const kind = "traits"
	s, err := c.resolve(kind, defaultMaxTokens, true)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", kind, err)
	}
	if err := checkModel(model); err != nil {
		return nil, fmt.Errorf("%s: %w", s.name, err)
	}
	if len(traits) == 0 {
		return nil, fmt.Errorf("%s: no traits given: list what a good response shows", s.name)
	}
	lines := make([]string, len(traits))
	for i, tr := range traits {
		tr = strings.TrimSpace(tr)
		switch {
		case tr == "":
			return nil, fmt.Errorf("%s: trait %d is blank", s.name, i+1)
		case strings.ContainsAny(tr, "\r\n"):
			return nil, fmt.Errorf("%s: trait %d spans several lines: give one trait per entry", s.name, i+1)
		}
		lines[i] = "- " + tr
	}
	min := c.MinScore
	switch {
	case min == 0:
		min = 2
	case math.IsNaN(min) || min < 1 || min > 3:
		return nil, fmt.Errorf("%s: min score %v: want 1..3 (0 means the default, 2)", s.name, c.MinScore)
	}
	list := fence("expected_traits", strings.Join(lines, "\n"))
	j := &Traits{single{
		model: model, s: s, lo: 1, hi: 3, pass: min,
		schema: scoreSchema(1, 3, true, "1 misses required traits, 2 partial, 3 every trait present"),
		data: func(t *judge.Transcript) PromptData {
			return PromptData{Goal: fence("user_prompt", goalOf(t)), Response: fence("agent_response", t.Response()), Traits: list}
		},
		nothing: noResponse,
	}}
	j.prompt, err = newPrompt(kind, c.Prompt, c.Examples, j.sampleData())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.name, err)
	}
	return j, nil
}

// Judge scores t's response. It returns an error when it could not judge.
func (j *Traits) Judge(ctx context.Context, t *judge.Transcript) (judge.Judgment, error) {
	return j.judge(ctx, t)
}
