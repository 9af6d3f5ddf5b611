package spec

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/rule"
)

// The deterministic kinds that read the agent's text: matching, style,
// JSON, and the limits of a conversation.

// textOptions are the settings of the text-matching kinds.
type textOptions struct {
	Scope      string `yaml:"scope" enum:"final,each_turn" doc:"The text read: final (the response the case is judged on, the default) or each_turn (every agent turn must pass)."`
	IgnoreCase bool   `yaml:"ignore_case" doc:"Compare text case-insensitively."`
}

func (o textOptions) opts() rule.Opts {
	return rule.Opts{Scope: rule.Scope(o.Scope), IgnoreCase: o.IgnoreCase}
}

// scopeOption is the setting of the kinds that read a text but match no
// string.
type scopeOption struct {
	Scope string `yaml:"scope" enum:"final,each_turn" doc:"The text read: final (the response the case is judged on, the default) or each_turn (every agent turn must pass)."`
}

func (o scopeOption) scope() rule.Scope { return rule.Scope(o.Scope) }

type containsRule struct {
	Contains    string `yaml:"contains" doc:"The text to find."`
	textOptions `yaml:",inline"`
}

func (c *containsRule) build(*builder) (judge.Judge, error) {
	return rule.Contains(c.Contains, c.opts())
}

type notContainsRule struct {
	NotContains string `yaml:"not_contains" doc:"The text that must not appear."`
	textOptions `yaml:",inline"`
}

func (c *notContainsRule) build(*builder) (judge.Judge, error) {
	o := c.opts()
	o.Negate = true
	return rule.Contains(c.NotContains, o)
}

type containsAllRule struct {
	ContainsAll []string `yaml:"contains_all" doc:"The texts that must all appear."`
	textOptions `yaml:",inline"`
}

func (c *containsAllRule) build(*builder) (judge.Judge, error) {
	return rule.ContainsAll(c.ContainsAll, c.opts())
}

type containsAnyRule struct {
	ContainsAny []string `yaml:"contains_any" doc:"The texts of which at least one must appear."`
	textOptions `yaml:",inline"`
}

func (c *containsAnyRule) build(*builder) (judge.Judge, error) {
	return rule.ContainsAny(c.ContainsAny, c.opts())
}

type regexRule struct {
	Regex       string `yaml:"regex" doc:"A regular expression (Go's RE2 syntax) the text must match somewhere, unless anchored with ^ and $."`
	Negate      bool   `yaml:"negate" doc:"Pass when the expression does not match."`
	textOptions `yaml:",inline"`
}

func (c *regexRule) build(*builder) (judge.Judge, error) {
	o := c.opts()
	o.Negate = c.Negate
	return rule.Regex(c.Regex, o)
}

type equalsRule struct {
	Equals      string `yaml:"equals" doc:"The text, exactly, once white space around it is trimmed."`
	textOptions `yaml:",inline"`
}

func (c *equalsRule) build(*builder) (judge.Judge, error) { return rule.Equals(c.Equals, c.opts()) }

type startsWithRule struct {
	StartsWith  string `yaml:"starts_with" doc:"The text the response begins with, once leading white space is trimmed."`
	textOptions `yaml:",inline"`
}

func (c *startsWithRule) build(*builder) (judge.Judge, error) {
	return rule.StartsWith(c.StartsWith, c.opts())
}

type forbiddenPhrasesRule struct {
	ForbiddenPhrases []string `yaml:"forbidden_phrases" doc:"Phrases that must not appear, compared case-insensitively: a style guide's banned words."`
	scopeOption      `yaml:",inline"`
}

func (c *forbiddenPhrasesRule) build(*builder) (judge.Judge, error) {
	return rule.ForbiddenPhrases(c.ForbiddenPhrases, c.scope())
}

type maxQuestionsRule struct {
	MaxQuestions *int `yaml:"max_questions" minimum:"0" doc:"The most questions (question marks) the text may ask."`
	scopeOption  `yaml:",inline"`
}

func (c *maxQuestionsRule) build(*builder) (judge.Judge, error) {
	return rule.MaxQuestions(*c.MaxQuestions, c.scope())
}

type maxBubblesRule struct {
	MaxBubbles  *int `yaml:"max_bubbles" minimum:"1" doc:"The most message bubbles (paragraphs separated by a blank line) the text may have."`
	scopeOption `yaml:",inline"`
}

func (c *maxBubblesRule) build(*builder) (judge.Judge, error) {
	return rule.MaxBubbles(*c.MaxBubbles, c.scope())
}

type lengthRule struct {
	Length      lengthBounds `yaml:"length" doc:"The bounds of the text's length in characters."`
	scopeOption `yaml:",inline"`
}

type lengthBounds struct {
	Min int `yaml:"min" minimum:"0" doc:"At least this many characters."`
	Max int `yaml:"max" minimum:"0" doc:"At most this many characters; 0 for no limit."`
}

func (c *lengthRule) build(*builder) (judge.Judge, error) {
	if c.Length == (lengthBounds{}) {
		return nil, errors.New("length: give min, max or both")
	}
	return rule.Length(c.Length.Min, c.Length.Max, c.scope())
}

func (c *lengthRule) words() string {
	if c.Length.Max == 0 {
		return fmt.Sprintf("at least %d characters", c.Length.Min)
	}
	return fmt.Sprintf("%d to %d characters", c.Length.Min, c.Length.Max)
}

// flag is the value of a kind that is on or absent: true is the only
// value that means something.
func flag(name string, on bool) error {
	if !on {
		return fmt.Errorf("%s: false checks nothing; write %s: true, or remove the item", name, name)
	}
	return nil
}

type lowercaseRule struct {
	LowercaseOnly bool `yaml:"lowercase_only" doc:"true: the text has no capital letters."`
	scopeOption   `yaml:",inline"`
}

func (c *lowercaseRule) build(*builder) (judge.Judge, error) {
	if err := flag("lowercase_only", c.LowercaseOnly); err != nil {
		return nil, err
	}
	return rule.LowercaseOnly(c.scope())
}

type noEmDashRule struct {
	NoEmDash    bool `yaml:"no_em_dash" doc:"true: the text has no em-dashes."`
	scopeOption `yaml:",inline"`
}

func (c *noEmDashRule) build(*builder) (judge.Judge, error) {
	if err := flag("no_em_dash", c.NoEmDash); err != nil {
		return nil, err
	}
	return rule.NoEmDash(c.scope())
}

type noPlaceholdersRule struct {
	NoPlaceholders bool `yaml:"no_placeholders" doc:"true: the text leaks no template placeholder: {name}, {{ var }}, [PLACEHOLDER] or <TODO>."`
	scopeOption    `yaml:",inline"`
}

func (c *noPlaceholdersRule) build(*builder) (judge.Judge, error) {
	if err := flag("no_placeholders", c.NoPlaceholders); err != nil {
		return nil, err
	}
	return rule.NoPlaceholders(c.scope())
}

type validJSONRule struct {
	ValidJSON   bool `yaml:"valid_json" doc:"true: the text is one JSON value."`
	scopeOption `yaml:",inline"`
}

func (c *validJSONRule) build(*builder) (judge.Judge, error) {
	if err := flag("valid_json", c.ValidJSON); err != nil {
		return nil, err
	}
	return rule.ValidJSON(c.scope())
}

type jsonSchemaRule struct {
	JSONSchema  any `yaml:"json_schema" doc:"A JSON Schema (draft 2020-12 unless its $schema says otherwise) the text must be JSON valid against: the schema itself, as a mapping, or the path of a JSON file holding it, relative to the suite."`
	scopeOption `yaml:",inline"`
}

func (c *jsonSchemaRule) build(b *builder) (judge.Judge, error) {
	var schema []byte
	switch v := c.JSONSchema.(type) {
	case string:
		data, err := os.ReadFile(b.abs(v))
		if err != nil {
			return nil, fmt.Errorf("json_schema: reading the schema: %w", err)
		}
		schema = data
	case map[string]any:
		data, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("json_schema: %w", err)
		}
		schema = data
	default:
		return nil, errors.New("json_schema: give the schema as a mapping, or the path of a JSON file")
	}
	return rule.JSONSchema(schema, c.scope())
}

func (c *jsonSchemaRule) words() string { return "JSON valid against a schema" }

type containsJSONRule struct {
	ContainsJSON any `yaml:"contains_json" doc:"true: the text holds a JSON object or array somewhere, alone, in prose or in a Markdown fence; or a JSON Schema one of them must be valid against: the schema itself, as a mapping, or the path of a JSON file holding it, relative to the suite."`
	scopeOption  `yaml:",inline"`
}

func (c *containsJSONRule) build(b *builder) (judge.Judge, error) {
	var schema []byte
	switch v := c.ContainsJSON.(type) {
	case bool:
		if !v {
			return nil, errors.New("contains_json: false checks nothing: give true, or a JSON Schema")
		}
	case string:
		data, err := os.ReadFile(b.abs(v))
		if err != nil {
			return nil, fmt.Errorf("contains_json: reading the schema: %w", err)
		}
		schema = data
	case map[string]any:
		data, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("contains_json: %w", err)
		}
		schema = data
	default:
		return nil, errors.New("contains_json: give true, a schema as a mapping, or the path of a JSON file")
	}
	return rule.ContainsJSON(schema, c.scope())
}

func (c *containsJSONRule) words() string {
	if c.ContainsJSON == true {
		return "holds JSON"
	}
	return "holds JSON valid against a schema"
}

type maxTurnsRule struct {
	MaxTurns *int `yaml:"max_turns" minimum:"1" doc:"The most agent turns the conversation may take."`
}

func (c *maxTurnsRule) build(*builder) (judge.Judge, error) { return rule.MaxTurns(*c.MaxTurns) }

type maxLatencyRule struct {
	MaxLatency string `yaml:"max_latency" doc:"The longest one agent turn may take to answer, as a Go duration (5s, 1m30s)."`
}

func (c *maxLatencyRule) build(*builder) (judge.Judge, error) {
	d, err := parseDuration("max_latency", c.MaxLatency)
	if err != nil {
		return nil, err
	}
	return rule.MaxTurnLatency(d)
}

type maxDurationRule struct {
	MaxDuration string `yaml:"max_duration" doc:"The longest the whole conversation may take, as a Go duration (2m)."`
}

func (c *maxDurationRule) build(*builder) (judge.Judge, error) {
	d, err := parseDuration("max_duration", c.MaxDuration)
	if err != nil {
		return nil, err
	}
	return rule.MaxDuration(d)
}

func parseDuration(field, s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%s %q: want a duration such as 5s or 2m", field, s)
	}
	return d, nil
}

type maxCostRule struct {
	MaxCostUSD *float64 `yaml:"max_cost_usd" minimum:"0" doc:"The most the agent may spend on the conversation, in US dollars. An agent whose cost is unknown (an unpriced model) fails it."`
}

func (c *maxCostRule) build(*builder) (judge.Judge, error) { return rule.MaxCost(*c.MaxCostUSD) }

type maxTokensRule struct {
	MaxTokens *int64 `yaml:"max_tokens" minimum:"1" doc:"The most tokens (input and output) the agent may use in the conversation."`
}

func (c *maxTokensRule) build(*builder) (judge.Judge, error) { return rule.MaxTokens(*c.MaxTokens) }

var (
	_ = register[containsRule](kind{name: "contains", group: "Text", library: []string{"rule.Contains"},
		doc:     "The response contains a text.",
		example: "contains: refund\nignore_case: true"})
	_ = register[notContainsRule](kind{name: "not_contains", group: "Text",
		doc:     "The response does not contain a text.",
		example: "not_contains: as an AI\nscope: each_turn"})
	_ = register[containsAllRule](kind{name: "contains_all", group: "Text", library: []string{"rule.ContainsAll"},
		doc:     "The response contains every one of several texts; a failure names the missing ones.",
		example: "contains_all: [order, refund]"})
	_ = register[containsAnyRule](kind{name: "contains_any", group: "Text", library: []string{"rule.ContainsAny"},
		doc:     "The response contains at least one of several texts.",
		example: "contains_any: [refund, credit]"})
	_ = register[regexRule](kind{name: "regex", group: "Text", library: []string{"rule.Regex"},
		doc:     "The response matches a regular expression.",
		example: `regex: 'A-\d{4}'`})
	_ = register[equalsRule](kind{name: "equals", group: "Text", library: []string{"rule.Equals"},
		doc:     "The response is exactly a text.",
		example: "equals: \"42\""})
	_ = register[startsWithRule](kind{name: "starts_with", group: "Text", library: []string{"rule.StartsWith"},
		doc:     "The response begins with a text.",
		example: "starts_with: Hi"})

	_ = register[forbiddenPhrasesRule](kind{name: "forbidden_phrases", group: "Style", library: []string{"rule.ForbiddenPhrases"},
		doc:     "None of a style guide's banned phrases appear.",
		example: "forbidden_phrases: [I understand, as an AI]\nscope: each_turn"})
	_ = register[maxQuestionsRule](kind{name: "max_questions", group: "Style", library: []string{"rule.MaxQuestions"},
		doc:     "The response asks at most so many questions.",
		example: "max_questions: 1"})
	_ = register[maxBubblesRule](kind{name: "max_bubbles", group: "Style", library: []string{"rule.MaxBubbles"},
		doc:     "The response has at most so many message bubbles (paragraphs).",
		example: "max_bubbles: 3\nscope: each_turn"})
	_ = register[lengthRule](kind{name: "length", group: "Style", library: []string{"rule.Length"},
		doc:     "The response's length in characters lies within bounds.",
		example: "length: {min: 20, max: 400}"})
	_ = register[lowercaseRule](kind{name: "lowercase_only", group: "Style", library: []string{"rule.LowercaseOnly"},
		doc:     "The response has no capital letters, as a casual texter writes.",
		example: "lowercase_only: true\nscope: each_turn"})
	_ = register[noEmDashRule](kind{name: "no_em_dash", group: "Style", library: []string{"rule.NoEmDash"},
		doc:     "The response has no em-dashes.",
		example: "no_em_dash: true"})
	_ = register[noPlaceholdersRule](kind{name: "no_placeholders", group: "Style", library: []string{"rule.NoPlaceholders"},
		doc:     "The response leaks no unfilled template placeholder ({name}, {{ var }}, [PLACEHOLDER], <TODO>).",
		example: "no_placeholders: true\nscope: each_turn"})

	_ = register[validJSONRule](kind{name: "valid_json", group: "JSON", library: []string{"rule.ValidJSON"},
		doc:     "The response is JSON.",
		example: "valid_json: true"})
	_ = register[jsonSchemaRule](kind{name: "json_schema", group: "JSON", library: []string{"rule.JSONSchema"},
		doc:     "The response is JSON valid against a JSON Schema.",
		example: "json_schema:\n  type: object\n  required: [order_id]\n  properties:\n    order_id: {type: string}"})

	_ = register[containsJSONRule](kind{name: "contains_json", group: "JSON", library: []string{"rule.ContainsJSON"},
		doc:     "The response holds JSON (an object or array) somewhere, alone, in prose or in a Markdown fence; with a schema, one such value is valid against it.",
		example: "contains_json:\n  type: object\n  required: [latitude, longitude]"})

	_ = register[maxTurnsRule](kind{name: "max_turns", group: "Limits", library: []string{"rule.MaxTurns"},
		doc:     "The conversation takes at most so many agent turns.",
		example: "max_turns: 4"})
	_ = register[maxLatencyRule](kind{name: "max_latency", group: "Limits", library: []string{"rule.MaxTurnLatency"},
		doc:     "Every agent turn answers within a duration.",
		example: "max_latency: 5s"})
	_ = register[maxDurationRule](kind{name: "max_duration", group: "Limits", library: []string{"rule.MaxDuration"},
		doc:     "The whole conversation takes at most a duration.",
		example: "max_duration: 2m"})
	_ = register[maxCostRule](kind{name: "max_cost_usd", group: "Limits", library: []string{"rule.MaxCost"},
		doc:     "The agent spends at most so much on the conversation.",
		example: "max_cost_usd: 0.05"})
	_ = register[maxTokensRule](kind{name: "max_tokens", group: "Limits", library: []string{"rule.MaxTokens"},
		doc:     "The agent uses at most so many tokens in the conversation.",
		example: "max_tokens: 20000"})
)
