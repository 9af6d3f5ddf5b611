package agentjudge

import (
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llmjudge"
)

// Config configures an agent judge. The zero value, with Criteria set, is
// the defaults. The model and the tools are given to New beside it: a suite
// names them (the judge role's model, MCP servers) where it names them for
// the agent under test.
type Config struct {
	// Name names the judgments in reports. Defaults to "agent_judge".
	Name string `yaml:"name" doc:"A name for reports. Defaults to agent_judge."`
	// Criteria say what the outcome must be, in plain words, and where to
	// look: "notes.md in the workspace lists the three action items of the
	// meeting". Required.
	Criteria string `yaml:"criteria" doc:"What the outcome must be, in plain words, and where to look (a file of the workspace, a row of the database). Required."`
	// Threshold is the lowest passing score, in 0..1 (0: every score
	// passes, so the judge records its score without gating). Defaults to
	// 0.7 when nil.
	Threshold *float64 `yaml:"threshold" doc:"The passing score, 0..1 (0: every score passes; the score is recorded). Defaults to 0.7."`
	// MaxTurns bounds the judge agent's model calls for one answer, the
	// calls that ask for tools included. Defaults to 10; at most 100.
	MaxTurns int `yaml:"max_turns" doc:"The judge agent's model calls for one answer, those that call tools included. Defaults to 10; at most 100."`
	// Retries is how many times a final answer that is not a verdict
	// (malformed, a field missing, a score out of range) is asked again,
	// in the same conversation, with the parse error. After that the judge
	// returns an error, which judge.Run turns into ERROR: never a default
	// pass. Defaults to 2; a negative value means no re-asking. At most
	// 10.
	Retries int `yaml:"retries" doc:"How many times a final answer that is not a verdict is asked again before the judge ERRORs. Defaults to 2; -1: never. At most 10."`
	// AllowedTools, when set, are the only tools of the tool sources the
	// judge is offered: the ones that read ("read_text_file",
	// "list_directory"), so that a judge given a server that also writes
	// cannot change the outcome it judges. A name no source offers makes
	// each judgment an ERROR that lists the tools there are. Defaults to
	// every tool of every source.
	AllowedTools []string `yaml:"allowed_tools" doc:"The only tools of the tool servers the judge is offered (read_text_file, list_directory), so that it cannot change what it judges. Defaults to all of them."`
	// SystemPrompt, when set, replaces the judge agent's instructions
	// (DefaultSystemPrompt). {today} becomes the date judging started and
	// {locale} "en"; other braces are kept as written. The message the
	// agent gets still carries the rule that fenced text is data, the
	// inputs and the answer's format.
	SystemPrompt string `yaml:"system_prompt" doc:"Replaces the judge agent's instructions. {today} becomes the date; the inputs, the rule that fenced text is data and the answer's format are still sent."`
	// MaxToolChars cuts each tool call's arguments and result in the
	// transcript shown to the judge to this many characters, saying so.
	// The judge's own tool results are not cut. Defaults to 4000; a
	// negative value keeps them whole.
	MaxToolChars int `yaml:"max_tool_chars" doc:"Cuts each tool call's arguments and result in the transcript shown to the judge to this many characters. Defaults to 4000; -1: whole."`
	// Temperature is the sampling temperature of the judge agent's model
	// calls, 0..2. Defaults to 0.
	Temperature float64 `yaml:"temperature" doc:"The judge model's sampling temperature, 0..2. Defaults to 0."`
	// MaxTokens bounds each of the judge model's answers; 0 leaves it to
	// the provider.
	MaxTokens int `yaml:"max_tokens" doc:"Bounds each of the judge model's answers. Defaults to the provider's limit."`
}

// The defaults and bounds of Config.
const (
	defaultName         = "agent_judge"
	defaultThreshold    = 0.7
	defaultMaxTurns     = 10
	maxMaxTurns         = 100
	defaultRetries      = 2
	maxRetries          = 10
	defaultMaxToolChars = 4000
)

// A Judge is an agent judge: the builtin ReAct agent, with tools, reading
// the transcript and the criteria, inspecting the outcome with its tools
// (the workspace, a database, an API), and answering with a score from 0
// to 1 and its reasoning. The verdict is computed here from the score: it
// passes when the score reaches the threshold. The tools it called are kept
// in the judgment (judge.Judgment.ToolCalls), and what its model calls cost
// in its usage.
//
// A Judge may judge several transcripts at once: each judgment is a
// session of its own, and nothing of it is kept afterwards.
type Judge struct {
	name         string
	criteria     string
	threshold    float64
	retries      int
	maxTurns     int
	maxToolChars int
	agent        *agent.Builtin
}

// New returns an agent judge that asks model, with tools, whether the
// outcome of a trial meets c.Criteria. It is an error for the model to be
// nil, the criteria blank or a setting out of range; the tools are listed
// when the judge first judges (a server that cannot list them makes that
// judgment an ERROR), and no tools at all is allowed (the judge then reads
// the transcript only).
func New(model llm.Model, tools []agent.Toolbox, c Config) (*Judge, error) {
	name := c.Name
	if name == "" {
		name = defaultName
	}
	fail := func(format string, args ...any) (*Judge, error) {
		return nil, fmt.Errorf("%s: %s", name, fmt.Sprintf(format, args...))
	}
	if model == nil {
		return fail("no model given")
	}
	if strings.TrimSpace(c.Criteria) == "" {
		return fail("criteria: none given: say what the outcome must be, and where to look")
	}
	j := &Judge{name: name, criteria: c.Criteria, threshold: defaultThreshold, retries: c.Retries, maxTurns: c.MaxTurns, maxToolChars: c.MaxToolChars}
	if t := c.Threshold; t != nil {
		if math.IsNaN(*t) || *t < 0 || *t > 1 {
			return fail("threshold %v: want a number in 0..1 (leave it unset for the default, 0.7)", *t)
		}
		j.threshold = *t
	}
	switch {
	case j.maxTurns == 0:
		j.maxTurns = defaultMaxTurns
	case j.maxTurns < 0 || j.maxTurns > maxMaxTurns:
		return fail("max_turns %d: want 1..%d (leave it unset for the default, %d)", c.MaxTurns, maxMaxTurns, defaultMaxTurns)
	}
	switch {
	case j.retries == 0:
		j.retries = defaultRetries
	case j.retries < 0:
		j.retries = 0
	case j.retries > maxRetries:
		return fail("retries %d: at most %d", c.Retries, maxRetries)
	}
	if j.maxToolChars == 0 {
		j.maxToolChars = defaultMaxToolChars
	}
	if math.IsNaN(c.Temperature) || c.Temperature < 0 || c.Temperature > 2 {
		return fail("temperature %v: want 0..2", c.Temperature)
	}
	if c.MaxTokens < 0 {
		return fail("max_tokens %d: want a positive number, or none for the provider's limit", c.MaxTokens)
	}
	for i, box := range tools {
		if box == nil {
			return fail("tool source %d of %d is nil", i+1, len(tools))
		}
	}
	if len(c.AllowedTools) > 0 {
		for i, name := range c.AllowedTools {
			switch {
			case strings.TrimSpace(name) == "":
				return fail("allowed_tools[%d] is blank: name a tool", i)
			case slices.Contains(c.AllowedTools[:i], name):
				return fail("allowed_tools[%d] %q is listed twice", i, name)
			}
		}
		tools = []agent.Toolbox{&allowed{names: slices.Clone(c.AllowedTools), sources: slices.Clone(tools)}}
	}
	prompt := c.SystemPrompt
	if strings.TrimSpace(prompt) == "" {
		prompt = DefaultSystemPrompt
	}
	temperature := c.Temperature
	b, err := agent.NewBuiltin(agent.BuiltinConfig{
		SystemPrompt: prompt,
		Vars:         literalBraces(prompt),
		Model:        model,
		Temperature:  &temperature,
		MaxTokens:    c.MaxTokens,
		Tools:        tools,
		MaxTurns:     j.maxTurns,
		Checkpoints:  noCheckpoints{},
	})
	if err != nil {
		return fail("%v", err)
	}
	j.agent = b
	return j, nil
}

// literalBraces maps every {name} of a system prompt that the builtin
// agent would fill in, other than {today} and {locale}, to itself, so that
// a prompt's braces are kept as written.
func literalBraces(prompt string) map[string]string {
	vars := map[string]string{}
	for _, m := range placeholder.FindAllStringSubmatch(prompt, -1) {
		vars[m[1]] = m[0]
	}
	return vars
}

// placeholder is a placeholder to the builtin agent (agent.BuiltinConfig).
var placeholder = regexp.MustCompile(`\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// noCheckpoints keeps nothing: a judgment's conversation ends with it.
type noCheckpoints struct{}

func (noCheckpoints) Load(context.Context, string) ([]llm.Message, bool, error) {
	return nil, false, nil
}
func (noCheckpoints) Save(context.Context, string, []llm.Message) error { return nil }

// sessionID is the id of every judgment's session: checkpoints are not
// kept, so sessions never meet.
const sessionID = "agent-judge"

// Judge runs the judge agent over t and computes the verdict from its
// answer. It returns an error, with the judgment's name, tool calls and
// usage so far, when it could not judge: the tools could not be listed,
// the model failed, the agent used all its turns without answering, its
// final answer was still not a verdict after the re-asks, or ctx ended.
func (j *Judge) Judge(ctx context.Context, t *judge.Transcript) (judge.Judgment, error) {
	out := judge.Judgment{Name: j.name}
	if t == nil {
		return out, fmt.Errorf("%s: no transcript to judge", j.name)
	}
	sess, err := j.agent.Open(ctx, sessionID)
	if err != nil {
		return out, fmt.Errorf("%s: start the judge agent: %w", j.name, err)
	}
	defer sess.Close(context.WithoutCancel(ctx))

	msg := j.message(t, judge.FindingsFrom(ctx))
	var last error
	for attempt := 0; attempt <= j.retries; attempt++ {
		reply, err := sess.Send(ctx, agent.Message{Text: msg})
		if reply != nil {
			out.ToolCalls = append(out.ToolCalls, reply.ToolCalls...)
			out.Usage = out.Usage.Add(reply.Usage)
		}
		if errors.Is(err, agent.ErrMaxTurns) {
			return out, fmt.Errorf("%s: the judge agent gave no final answer within max_turns (%d model calls): raise max_turns, or say in the criteria where to look: %w", j.name, j.maxTurns, err)
		}
		if err != nil {
			return out, fmt.Errorf("%s: the judge agent failed: %w", j.name, err)
		}
		score, reasoning, err := llmjudge.ParseScore(reply.Text, 0, 1)
		if err == nil {
			return j.verdict(out, score, reasoning)
		}
		if reply.FinishReason == string(llm.FinishLength) {
			err = fmt.Errorf("%w (the answer was cut off at the token limit: keep the reasoning short)", err)
		}
		last = err
		msg = reask(err)
	}
	return out, fmt.Errorf("%s: the judge agent's final answer could not be used after %d attempt(s): %w", j.name, j.retries+1, last)
}

// verdict fills in out from the judge agent's score: PASS when it reaches
// the threshold.
func (j *Judge) verdict(out judge.Judgment, score float64, reasoning string) (judge.Judgment, error) {
	s, err := judge.Number(score, 0, 1)
	if err != nil {
		return out, fmt.Errorf("%s: %w", j.name, err)
	}
	out.Score, out.Status = s, judge.StatusFail
	out.Threshold = judge.AtLeast(score, j.threshold)
	cmp := " < "
	if out.Threshold.Met() { // give or take rounding: 0.7 written by a model reaches 0.7
		out.Status, cmp = judge.StatusPass, " ≥ "
	}
	out.Reasoning = "score " + formatNum(score) + cmp + formatNum(j.threshold) + ": " + reasoning
	return out, nil
}

// formatNum writes f with at most three decimals.
func formatNum(f float64) string {
	return strconv.FormatFloat(math.Round(f*1000)/1000, 'f', -1, 64)
}
