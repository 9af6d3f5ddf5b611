package llmjudge

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
)

// CorrectnessConfig configures a Correctness judge. The zero value is the
// defaults.
type CorrectnessConfig struct {
	// Expected, when set, says what accomplishing the goal looks like
	// ("order 12345 is cancelled, after the user confirmed").
	Expected string
	// Threshold is the lowest passing score, in 0..1 (0: every score passes,
	// so the judge records its score without gating). Defaults to 0.7 when
	// nil.
	Threshold *float64
	// MaxToolChars cuts each tool call's arguments and result to this many
	// characters, saying so in the prompt, so that one huge result does
	// not crowd out the rest. Defaults to 4000; a negative value keeps
	// them whole.
	MaxToolChars int
	Options
}

// Correctness judges whether the agent accomplished the goal, on the whole
// transcript rather than the final answer alone: every turn, every tool
// call with its arguments, result and whether it failed, and how the
// execution ended. It scores from 0 to 1 and passes at the threshold.
type Correctness struct {
	single
}

// NewCorrectness returns a Correctness judge asking model. It is an error
// for the model to be nil or the configuration out of range.
func NewCorrectness(model llm.Model, c CorrectnessConfig) (*Correctness, error) {
	const kind = "correctness"
	s, err := c.resolve(kind, defaultMaxTokens, true)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", kind, err)
	}
	if err := checkModel(model); err != nil {
		return nil, fmt.Errorf("%s: %w", s.name, err)
	}
	threshold, err := unitThreshold(c.Threshold)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.name, err)
	}
	maxTool := c.MaxToolChars
	if maxTool == 0 {
		maxTool = 4000
	}
	expected := ""
	if strings.TrimSpace(c.Expected) != "" {
		expected = fence("expected_outcome", c.Expected)
	}
	j := &Correctness{single{
		model: model, s: s, lo: 0, hi: 1, pass: threshold,
		schema: scoreSchema(0, 1, false, "how fully the agent accomplished the goal, from 0.0 to 1.0"),
		data: func(t *judge.Transcript) PromptData {
			return PromptData{Goal: fence("user_goal", goalOf(t)), Transcript: renderTranscript(t, maxTool), Expected: expected}
		},
		nothing: func(t *judge.Transcript) string {
			if t.IsEmpty() {
				return "the transcript is empty: the agent did nothing to judge"
			}
			return ""
		},
	}}
	j.prompt, err = newPrompt(kind, c.Prompt, c.Examples, j.sampleData())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.name, err)
	}
	return j, nil
}

// Judge scores the whole of t. It returns an error when it could not
// judge.
func (j *Correctness) Judge(ctx context.Context, t *judge.Transcript) (judge.Judgment, error) {
	return j.judge(ctx, t)
}

// RenderTranscript writes t's turns for a judge's prompt as Correctness
// shows them: each turn and each tool call under a header, every text from
// the conversation or a tool fenced on its own (see Fence), the revivals
// and the automatic user turns marked, then the final response when it
// differs from the last agent turn, and how the execution ended when it
// did not succeed. Tool arguments and results are cut to maxToolChars
// characters, saying so (none when negative). The earlier rounds
// (t.Context) are RenderHistory's.
func RenderTranscript(t *judge.Transcript, maxToolChars int) string {
	if t == nil {
		return ""
	}
	return renderTranscript(t, maxToolChars)
}

// RenderHistory writes t's Context (the conversation before the turns
// judged: earlier rounds) for a judge's prompt, every turn fenced, tool
// arguments and results cut shorter: they are background. It returns ""
// when there is none.
func RenderHistory(t *judge.Transcript) string { return historyOf(t) }

// renderTranscript writes t for a judge: each turn and each tool call
// under a header written here, every text from the conversation or a tool
// fenced on its own. Tool arguments and results are cut to maxTool
// characters (none when negative).
func renderTranscript(t *judge.Transcript, maxTool int) string {
	var b strings.Builder
	b.WriteString(renderTurns(t.Turns, t.Revivals, maxTool))
	lastAgent := ""
	if agent := t.AgentTurns(); len(agent) > 0 {
		lastAgent = agent[len(agent)-1].Content
	}
	if t.FinalResponse != "" && t.FinalResponse != lastAgent {
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString("The agent's final response:\n" + fence("final_response", t.FinalResponse))
	}
	if t.Status != "" && t.Status != judge.ExecSuccess {
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		fmt.Fprintf(&b, "The execution ended with status %s.", quoteName(string(t.Status)))
		if t.Error != "" {
			b.WriteString(" Its error:\n" + fence("execution_error", t.Error))
		}
	}
	return b.String()
}

// renderTurns writes turns for a judge: each turn and each tool call under
// a header written here, every text from the conversation or a tool fenced
// on its own, with the revivals and the automatic user turns marked. Tool
// arguments and results are cut to maxTool characters (none when
// negative).
func renderTurns(turns []judge.Turn, revivals []judge.Revival, maxTool int) string {
	var b strings.Builder
	revived := map[int]bool{}
	for _, r := range revivals {
		revived[r.BeforeTurn] = true
	}
	for i, turn := range turns {
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		if revived[i] {
			b.WriteString("(The session was closed here and reopened with the same id.)\n\n")
		}
		tag, who := roleTag(turn.Role)
		fmt.Fprintf(&b, "Turn %d, %s", i+1, who)
		switch turn.Origin {
		case judge.OriginFollowUp:
			b.WriteString(" (written automatically to answer the agent's question)")
		case judge.OriginSimulated:
			b.WriteString(" (a simulated user)")
		}
		if n := len(turn.ToolCalls); n > 0 {
			fmt.Fprintf(&b, ", after %d tool call(s)", n)
		}
		if len(turn.ModelFaults) > 0 {
			// Said to the judge, so that it can ask how the agent coped.
			quoted := make([]string, len(turn.ModelFaults))
			for k, f := range turn.ModelFaults {
				quoted[k] = quoteName(f)
			}
			fmt.Fprintf(&b, " (the test injected faults into the agent's model calls on purpose: %s)", strings.Join(quoted, ", "))
		}
		b.WriteString(":\n")
		for k, c := range turn.ToolCalls {
			outcome := "succeeded"
			if c.IsError {
				outcome = "FAILED: the tool reported an error"
			}
			if c.Injected != "" {
				// Said to the judge, so that it can ask how the agent coped.
				outcome += fmt.Sprintf(" (the test injected a fault into this call on purpose: %s)", quoteName(c.Injected))
			}
			if c.Replayed == judge.ReplayUnmatched {
				// The test's refusal, not the tool's: said, as a fault is.
				outcome += " (the test refused this call: it replays the tool results of a recorded run, which made no such call)"
			}
			if plainName.MatchString(c.Name) {
				fmt.Fprintf(&b, "Tool call %d.%d: %q, %s.\n", i+1, k+1, c.Name, outcome)
			} else {
				// The agent chose the name: shown fenced, like its other text.
				fmt.Fprintf(&b, "Tool call %d.%d: a tool whose name is below, %s.\n", i+1, k+1, outcome)
				b.WriteString("Name:\n" + fence("tool_name", c.Name) + "\n")
			}
			b.WriteString(toolText("Arguments", "tool_arguments", string(c.Arguments), maxTool))
			b.WriteString(toolText("Result", "tool_result", c.Result, maxTool))
		}
		if turn.Content == "" {
			b.WriteString("(no message)")
		} else {
			if len(turn.ToolCalls) > 0 {
				b.WriteString("Message:\n")
			}
			b.WriteString(fence(tag, turn.Content))
		}
	}
	return b.String()
}

// roleTag returns the fence name and the header word for a role.
func roleTag(r judge.Role) (tag, who string) {
	switch r {
	case judge.RoleUser:
		return "user_message", "user"
	case judge.RoleAgent:
		return "agent_message", "agent"
	case judge.RoleSystem:
		return "system_message", "system instructions to the agent"
	case judge.RoleEvent:
		return "event_message", "event dispatched to the agent"
	}
	return "message", "role " + quoteName(string(r))
}

// toolText writes a labelled, fenced tool argument or result, cut to max
// characters.
func toolText(label, tag, s string, max int) string {
	if s == "" {
		return label + ": none.\n"
	}
	head := label + ":\n"
	if n := utf8.RuneCountInString(s); max >= 0 && n > max {
		head = fmt.Sprintf("%s (cut to the first %d of %d characters):\n", label, max, n)
		s = string([]rune(s)[:max])
	}
	return head + fence(tag, s) + "\n"
}

// plainName is a tool name safe to show outside a fence.
var plainName = regexp.MustCompile(`^[A-Za-z0-9_.:/-]{1,80}$`)

// quoteName quotes a short name from the transcript (a tool's name), cut
// to 80 runes. It appears outside any fence, so it must stay on one line
// and must not forge a tag: < and > are escaped.
func quoteName(s string) string {
	if r := []rune(s); len(r) > 80 {
		s = string(r[:80]) + "…"
	}
	return angles.Replace(strconv.Quote(s))
}

var angles = strings.NewReplacer("<", `\u003c`, ">", `\u003e`)
