package spec

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/agentjudge"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llmjudge"
)

// The kinds that ask a model: they run after every rule has passed, and
// the verdict is computed in code from what the model answers.

// llmOptions are the settings every LLM judge shares.
type llmOptions struct {
	Model       string      `yaml:"model" doc:"The judge's model, as provider:model. Defaults to the suite's models.judge. ${VAR} and ${VAR:-default} read the environment."`
	Samples     int         `yaml:"samples" minimum:"0" maximum:"25" doc:"How many times to ask (k), for stability: the scores are aggregated and a spread between them is flagged. Defaults to 1."`
	Aggregate   string      `yaml:"aggregate" enum:"mean,median" doc:"How the samples' scores combine: mean (the default) or median."`
	Temperature float64     `yaml:"temperature" minimum:"0" maximum:"2" doc:"The sampling temperature. Defaults to 0."`
	PromptFile  string      `yaml:"prompt_file" doc:"A file, relative to the suite, whose text/template text replaces the judge's prompt: it defines the templates system and user (see the llmjudge package's prompts)."`
	Examples    exampleList `yaml:"examples" doc:"Judgments people made, shown to the model as few-shot examples at the end of its instructions, the people's verdict the correct one: a file of examples, relative to the suite (gavel calibrate --disagreements writes the judgments people overruled as one), or the list itself (request, response, verdict, reason). Not for pairwise. See docs/labels.md."`

	name string // the item's name, for the judge's messages
}

func (o *llmOptions) setName(name string) { o.name = name }

// open opens the judge's model and returns the llmjudge options o
// describes. The model is nil when the judge cannot be built: the error
// says why, or the builder has recorded it (an unknown provider). What it
// opened is kept in b.opened, for gavel audit.
func (o llmOptions) open(b *builder) (llm.Model, llmjudge.Options, error) {
	opts := llmjudge.Options{Name: o.name, Samples: o.Samples, Aggregate: llmjudge.Aggregate(o.Aggregate), Temperature: o.Temperature}
	m := b.model("judge", cmp.Or(o.Model, b.l.Suite.Models.Judge), "judge model")
	if m == nil {
		b.badItems++ // said: no "nothing to judge" besides
	}
	if o.PromptFile != "" {
		data, err := os.ReadFile(b.abs(o.PromptFile))
		if err != nil {
			return nil, opts, fmt.Errorf("prompt_file: %w", err)
		}
		opts.Prompt = string(data)
	}
	if o.Examples.set() {
		examples, err := b.examples(o.Examples)
		if err != nil {
			return nil, opts, fmt.Errorf("examples: %w", err)
		}
		for _, e := range examples {
			opts.Examples = append(opts.Examples, e.Example)
		}
	}
	if m != nil {
		b.opened = &openedJudge{ref: b.shown(b.judgeRef), model: m, opts: opts}
	}
	return m, opts, nil
}

// examples returns a judge's examples: those written inline, or those of
// the file named, read once per suite; then those Env.Examples keeps.
func (b *builder) examples(l exampleList) ([]gavel.Example, error) {
	examples, file := l.Inline, ""
	if l.File != "" {
		file = b.abs(l.File)
		read, ok := b.exampleFiles[file]
		if !ok {
			// Named as the suite file is (relative to where Gavel runs, if
			// it is), for problems.
			name := l.File
			if !filepath.IsAbs(name) {
				name = filepath.Join(filepath.Dir(b.l.File), name)
			}
			read.examples, read.err = ReadExamples(name)
			var problems Problems
			if errors.As(read.err, &problems) {
				b.problems = append(b.problems, problems...) // once, at their lines
				read.err = fmt.Errorf("%s has mistakes, each reported at its line", name)
			}
			if b.exampleFiles == nil {
				b.exampleFiles = map[string]exampleFile{}
			}
			b.exampleFiles[file] = read
		}
		if read.err != nil {
			return nil, read.err
		}
		examples = read.examples
	}
	if b.env.Examples != nil {
		examples = b.env.Examples(file, examples)
	}
	return examples, nil
}

// An exampleFile is a file of examples as read.
type exampleFile struct {
	examples []gavel.Example
	err      error
}

// threshold checks a passing score of 0..1.
func threshold(t *float64) error {
	if t != nil && (*t < 0 || *t > 1) {
		return fmt.Errorf("threshold %v is out of range: a passing score from 0 to 1", *t)
	}
	return nil
}

type rubricJudge struct {
	Rubric     string   `yaml:"rubric" doc:"The criteria the response is scored against, 0..1."`
	Threshold  *float64 `yaml:"threshold" minimum:"0" maximum:"1" doc:"The passing score, 0..1 (0: every score passes; the score is recorded). Defaults to 0.7."`
	llmOptions `yaml:",inline"`
}

func (c *rubricJudge) build(b *builder) (judge.Judge, error) {
	if err := threshold(c.Threshold); err != nil {
		return nil, err
	}
	m, opts, err := c.open(b)
	if m == nil {
		return nil, err
	}
	return c.on(m, opts)
}

func (c *rubricJudge) on(m llm.Model, opts llmjudge.Options) (judge.Judge, error) {
	return asJudge(llmjudge.NewRubric(m, c.Rubric, llmjudge.RubricConfig{Options: opts, Threshold: c.Threshold}))
}

func (c *rubricJudge) words() string { return oneLine(c.Rubric) }

type traitsJudge struct {
	Traits     []string `yaml:"traits" doc:"Traits the response must have, checked one by one and scored 1..3: 1 misses required traits, 2 is partial, 3 has every one."`
	MinScore   float64  `yaml:"min_score" minimum:"1" maximum:"3" doc:"The lowest passing score, 1..3. Defaults to 2."`
	llmOptions `yaml:",inline"`
}

func (c *traitsJudge) build(b *builder) (judge.Judge, error) {
	m, opts, err := c.open(b)
	if m == nil {
		return nil, err
	}
	return c.on(m, opts)
}

func (c *traitsJudge) on(m llm.Model, opts llmjudge.Options) (judge.Judge, error) {
	return asJudge(llmjudge.NewTraits(m, c.Traits, llmjudge.TraitsConfig{Options: opts, MinScore: c.MinScore}))
}

func (c *traitsJudge) words() string { return "traits: " + strings.Join(c.Traits, ", ") }

type criteriaJudge struct {
	Criteria   axes    `yaml:"criteria" doc:"Axes scored 1..10 each, by name: what each measures. Reports list them in the order written."`
	MinMean    float64 `yaml:"min_mean" minimum:"1" maximum:"10" doc:"The lowest passing mean of the axes' scores, 1..10. Defaults to 6.5."`
	MinAxis    float64 `yaml:"min_axis" minimum:"1" maximum:"10" doc:"The lowest passing score of any one axis, 1..10. Defaults to 5."`
	llmOptions `yaml:",inline"`
}

func (c *criteriaJudge) build(b *builder) (judge.Judge, error) {
	m, opts, err := c.open(b)
	if m == nil {
		return nil, err
	}
	return c.on(m, opts)
}

func (c *criteriaJudge) on(m llm.Model, opts llmjudge.Options) (judge.Judge, error) {
	return asJudge(llmjudge.NewCriteria(m, c.Criteria, llmjudge.CriteriaConfig{Options: opts, MinMean: c.MinMean, MinAxis: c.MinAxis}))
}

func (c *criteriaJudge) words() string {
	names := make([]string, len(c.Criteria))
	for i, a := range c.Criteria {
		names[i] = a.Name
	}
	return "criteria: " + strings.Join(names, ", ")
}

// axes are a criteria judge's axes in the order written: a mapping of
// name to description, or a list of {name, description}.
type axes []llmjudge.Axis

// UnmarshalYAML reads the axes, keeping their order.
func (a *axes) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			var desc string
			if err := n.Content[i+1].Decode(&desc); err != nil {
				return err
			}
			*a = append(*a, llmjudge.Axis{Name: n.Content[i].Value, Description: desc})
		}
		return nil
	case yaml.SequenceNode:
		for i, item := range n.Content {
			var name, desc string
			if item.Kind == yaml.MappingNode {
				for j := 0; j+1 < len(item.Content); j += 2 {
					switch k, v := item.Content[j].Value, item.Content[j+1]; {
					case k == "name" && v.Kind == yaml.ScalarNode:
						name = v.Value
					case k == "description" && v.Kind == yaml.ScalarNode:
						desc = v.Value
					}
				}
			}
			if name == "" || desc == "" {
				return typeError(item, "criteria[%d]: an axis of the list is {name: ..., description: ...}", i)
			}
			*a = append(*a, llmjudge.Axis{Name: name, Description: desc})
		}
		return nil
	}
	return typeError(n, "criteria: a mapping of each axis's name to what it measures")
}

type correctnessJudge struct {
	Correctness string   `yaml:"correctness" doc:"What accomplishing the goal looks like; the whole transcript, tool calls included, is judged against it."`
	Threshold   *float64 `yaml:"threshold" minimum:"0" maximum:"1" doc:"The passing score, 0..1. Defaults to 0.7."`
	llmOptions  `yaml:",inline"`
}

func (c *correctnessJudge) build(b *builder) (judge.Judge, error) {
	if err := threshold(c.Threshold); err != nil {
		return nil, err
	}
	m, opts, err := c.open(b)
	if m == nil {
		return nil, err
	}
	return c.on(m, opts)
}

func (c *correctnessJudge) on(m llm.Model, opts llmjudge.Options) (judge.Judge, error) {
	return asJudge(llmjudge.NewCorrectness(m, llmjudge.CorrectnessConfig{Options: opts, Expected: c.Correctness, Threshold: c.Threshold}))
}

func (c *correctnessJudge) words() string { return oneLine(c.Correctness) }

type pairwiseJudge struct {
	Pairwise   pairwiseSettings `yaml:"pairwise" doc:"A comparison of the response with a baseline response: it passes unless the baseline is better. The model is asked in both orders; when they disagree, it is a tie."`
	llmOptions `yaml:",inline"`
}

type pairwiseSettings struct {
	Criteria string `yaml:"criteria" doc:"What makes one response better than the other."`
	Baseline string `yaml:"baseline" doc:"The baseline response: what the current version of the agent answers, or a reference answer."`
}

func (c *pairwiseJudge) build(b *builder) (judge.Judge, error) {
	if strings.TrimSpace(c.Pairwise.Baseline) == "" {
		return nil, fmt.Errorf("pairwise: no baseline: give the response to compare with")
	}
	m, opts, err := c.open(b)
	if m == nil {
		return nil, err
	}
	if opts.Samples != 0 || opts.Aggregate != "" {
		return nil, fmt.Errorf("pairwise: samples and aggregate do not apply: the judge asks in both orders instead")
	}
	if c.Examples.set() {
		return nil, fmt.Errorf("pairwise: examples do not apply: an example would need both replies compared and which one people preferred")
	}
	return c.on(m, opts)
}

func (c *pairwiseJudge) on(m llm.Model, opts llmjudge.Options) (judge.Judge, error) {
	p, err := llmjudge.NewPairwise(m, c.Pairwise.Criteria, llmjudge.PairwiseConfig{Options: opts})
	if err != nil {
		return nil, err
	}
	return judge.Func(func(ctx context.Context, t *judge.Transcript) (judge.Judgment, error) {
		return p.Against(withResponse(t, c.Pairwise.Baseline)).Judge(ctx, t)
	}), nil
}

// compare compares a transcript's reply (a) with the baseline (b) in
// both orders, for gavel audit's position probe.
func (c *pairwiseJudge) compare(m llm.Model, opts llmjudge.Options) (func(context.Context, *judge.Transcript) (llmjudge.PairwiseResult, error), error) {
	p, err := llmjudge.NewPairwise(m, c.Pairwise.Criteria, llmjudge.PairwiseConfig{Options: opts})
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, t *judge.Transcript) (llmjudge.PairwiseResult, error) {
		return p.Compare(ctx, t, withResponse(t, c.Pairwise.Baseline))
	}, nil
}

func (c *pairwiseJudge) words() string {
	return "better than the baseline: " + oneLine(c.Pairwise.Criteria)
}

// withResponse is t as if the agent had answered response: its last
// agent turn says it, with no tool calls.
func withResponse(t *judge.Transcript, response string) *judge.Transcript {
	out := *t
	out.FinalResponse = response
	out.Turns = slices.Clone(t.Turns)
	for i := len(out.Turns) - 1; i >= 0; i-- {
		if out.Turns[i].Role == judge.RoleAgent {
			out.Turns[i].Content, out.Turns[i].ToolCalls = response, nil
			break
		}
	}
	return &out
}

var (
	_ = register[rubricJudge](kind{name: "rubric", group: "LLM judges", llm: true, library: []string{"llmjudge.NewRubric"},
		doc:     "A model scores the response against written criteria, 0..1; it passes at the threshold. A case's judge_prompt: is the same.",
		example: "rubric: Does the reply confirm the cancellation and give the refund amount?\nthreshold: 0.8"})
	_ = register[traitsJudge](kind{name: "traits", group: "LLM judges", llm: true, library: []string{"llmjudge.NewTraits"},
		doc:     "A model checks the response for traits one by one (the seeds' expected_response_traits: the case field is the same).",
		example: "traits: [mentions the delivery date, no false apology]"})
	_ = register[criteriaJudge](kind{name: "criteria", group: "LLM judges", llm: true, library: []string{"llmjudge.NewCriteria"},
		doc:     "A model scores several axes 1..10 each; it passes when their mean reaches min_mean and every axis reaches min_axis (seed 002's average >= 6.5 and min >= 5).",
		example: "criteria:\n  character: Does it sound like Ori, calm and warm?\n  guidance: Does it move the user towards the goal?\nmin_mean: 6.5\nmin_axis: 5"})
	_ = register[correctnessJudge](kind{name: "correctness", group: "LLM judges", llm: true, library: []string{"llmjudge.NewCorrectness"},
		doc:     "A model judges whether the whole conversation, tool calls included, accomplished the goal.",
		example: "correctness: The order A-1001 is cancelled and the user is told the refund takes 5 days."})
	_ = register[pairwiseJudge](kind{name: "pairwise", group: "LLM judges", llm: true, library: []string{"llmjudge.NewPairwise"},
		doc:     "A model compares the response with a baseline response, in both orders; it passes unless the baseline is better (win, tie or loss is the score).",
		example: "pairwise:\n  criteria: Which reply answers the question more helpfully?\n  baseline: Your order ships on Monday."})
)

type agentJudge struct {
	AgentJudge agentJudgeSettings `yaml:"agent_judge" doc:"A judge that is an agent with tools: it inspects the outcome (the workspace, a database, an API) through MCP servers before it gives a verdict, in the same schema as the LLM judges, with its tool calls kept in the judgment."`
}

type agentJudgeSettings struct {
	agentjudge.Config `yaml:",inline"`
	Model             string    `yaml:"model" doc:"The judge agent's model, as provider:model; it must be able to call tools. Defaults to the suite's models.judge. ${VAR} and ${VAR:-default} read the environment."`
	MCP               []MCPSpec `yaml:"mcp" doc:"The MCP servers whose tools the judge may call (a filesystem server on the workspace, a database server, ...): a command or a url, as the builtin agent's. Offer it only tools that read (allowed_tools), so it cannot change what it judges."`
}

func (c *agentJudge) build(b *builder) (judge.Judge, error) {
	s := c.AgentJudge
	m := b.model("judge", cmp.Or(s.Model, b.l.Suite.Models.Judge), "agent_judge.model")
	var tools []agent.Toolbox
	for i, spec := range s.MCP {
		field := fmt.Sprintf("agent_judge.mcp[%d]", i)
		t := &lazyTools{server: b.mcpServer(field, spec), share: b.share(field, spec.Share)}
		b.out.closers = append(b.out.closers, t.Close)
		tools = append(tools, t)
	}
	if m == nil {
		return nil, nil
	}
	return asJudge(agentjudge.New(m, tools, s.Config))
}

func (c *agentJudge) words() string { return "an agent judge: " + oneLine(c.AgentJudge.Criteria) }

var _ = register[agentJudge](kind{name: "agent_judge", group: "LLM judges", llm: true, runsLocally: true, library: []string{"agentjudge.New"},
	doc:     "An agent with tools judges the outcome (seed 001's agent-judge-agent bridge): it reads the workspace, queries a database or calls an API through MCP servers, then gives a score and its reasoning; the verdict is computed in code.",
	example: "agent_judge:\n  criteria: notes.md in the workspace lists the three decisions of the meeting, with their owners.\n  mcp:\n    - name: files\n      command: [npx, -y, \"@modelcontextprotocol/server-filesystem\", .]\n  allowed_tools: [read_text_file, list_directory]\n  threshold: 0.8"})
