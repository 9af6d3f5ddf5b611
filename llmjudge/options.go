package llmjudge

import (
	"errors"
	"fmt"
	"math"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
)

// Options are the settings every judge of this package shares. The zero
// Options are the defaults.
type Options struct {
	// Name names the judgments in reports. Defaults to the judge's kind:
	// "rubric", "criteria", "traits", "correctness", "pairwise",
	// "follow-up".
	Name string

	// Prompt, when set, replaces the judge's embedded prompt template
	// (prompts/<kind>.tmpl). It is text/template text that must define two
	// templates, "system" and "user", the two messages sent; it sees a
	// PromptData whose untrusted fields are already fenced, and may use
	// the shared templates "fences" (the rule that fenced text is data),
	// "findings" and "history" (earlier rounds, for a round's judges). It
	// is checked when the judge is built: it must
	// parse, and render a sample transcript showing every input the judge
	// gives it.
	Prompt string

	// Retries is how many times a malformed or out-of-range answer is
	// re-asked, with the bad answer and the parse error appended to the
	// conversation. After that the judge returns an error, which
	// judge.Run turns into ERROR. Defaults to 2; a negative value means
	// no re-asking. At most 10.
	Retries int

	// Samples is how many times a scoring judge asks the model (k); the
	// scores are aggregated with Aggregate and the verdict is computed
	// from the aggregate. Defaults to 1; at most 25. Pairwise and
	// FollowUp do not sample.
	Samples int
	// Aggregate combines the samples' scores: AggregateMean (the
	// default) or AggregateMedian.
	Aggregate Aggregate

	// Temperature is the sampling temperature of every call, 0..2.
	// Defaults to 0. With Samples above 1, a higher temperature makes the
	// samples more independent.
	Temperature float64
	// MaxTokens bounds each answer. Defaults to 1024 (2048 for
	// Criteria).
	MaxTokens int

	// Examples are judgments people made, shown to the model at the end
	// of the system message as few-shot examples, the people's verdict
	// the correct one (see Example). They change the prompt's version
	// (judge.Judgment.Prompt). Pairwise and FollowUp take none.
	Examples []Example
}

// Aggregate names how the scores of several samples are combined.
type Aggregate string

// The ways to combine samples.
const (
	AggregateMean   Aggregate = "mean"
	AggregateMedian Aggregate = "median"
)

const (
	defaultRetries   = 2
	maxRetries       = 10
	maxSamples       = 25
	defaultMaxTokens = 1024
)

// settings are Options resolved: defaults filled in, validated.
type settings struct {
	name        string
	retries     int
	samples     int
	aggregate   Aggregate
	temperature float64
	maxTokens   int
}

// resolve fills in the defaults of o for a judge of the given kind and
// reports what is wrong with it. sampling says whether the judge takes
// samples.
func (o Options) resolve(kind string, maxTokens int, sampling bool) (settings, error) {
	s := settings{name: o.Name, retries: o.Retries, samples: o.Samples, aggregate: o.Aggregate, temperature: o.Temperature, maxTokens: o.MaxTokens}
	if s.name == "" {
		s.name = kind
	}
	switch {
	case s.retries == 0:
		s.retries = defaultRetries
	case s.retries < 0:
		s.retries = 0
	case s.retries > maxRetries:
		return s, fmt.Errorf("retries %d: at most %d", o.Retries, maxRetries)
	}
	switch {
	case s.samples == 0:
		s.samples = 1
	case s.samples < 0 || s.samples > maxSamples:
		return s, fmt.Errorf("samples %d: want 1..%d", o.Samples, maxSamples)
	case s.samples > 1 && !sampling:
		return s, fmt.Errorf("samples %d: %s does not sample (leave Samples at 0)", o.Samples, kind)
	}
	switch s.aggregate {
	case "":
		s.aggregate = AggregateMean
	case AggregateMean, AggregateMedian:
		if !sampling {
			return s, fmt.Errorf("aggregate %q: %s does not sample (leave Aggregate empty)", o.Aggregate, kind)
		}
	default:
		return s, fmt.Errorf("aggregate %q: want %q or %q", o.Aggregate, AggregateMean, AggregateMedian)
	}
	if math.IsNaN(s.temperature) || s.temperature < 0 || s.temperature > 2 {
		return s, fmt.Errorf("temperature %v: want 0..2", o.Temperature)
	}
	switch {
	case s.maxTokens == 0:
		s.maxTokens = maxTokens
	case s.maxTokens < 0:
		return s, fmt.Errorf("max tokens %d is negative", o.MaxTokens)
	}
	return s, nil
}

// request returns the request every call of a judge starts from.
func (s settings) request(msgs []llm.Message, schema *llm.Schema) llm.Request {
	temperature := s.temperature
	return llm.Request{
		Messages:       msgs,
		Temperature:    &temperature,
		MaxTokens:      s.maxTokens,
		ResponseSchema: schema,
	}
}

// checkModel reports a missing model.
func checkModel(m llm.Model) error {
	if m == nil {
		return errors.New("no model given")
	}
	return nil
}

var errEmptyCriteria = errors.New("no criteria given: say what a good response does")

// judgeUsage converts a model's usage to a judgment's.
func judgeUsage(u llm.Usage) judge.Usage {
	return judge.Usage(u) // the same fields: a field added to one and not the other does not compile
}
