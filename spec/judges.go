package spec

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/gavelhq/gavel/conversation"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/rule"
	"github.com/gavelhq/gavel/rule/dbstate"
)

// everyCaseRound is the round expectations is given for the suite's
// every_case judges.
const everyCaseRound = -1

// expectations builds the judges of a case (round 0), of one round, or of
// every case (everyCaseRound):
// the deterministic ones (hard, soft rules included) and the LLM ones,
// and says in words what they expect, for reports.
func (b *builder) expectations(e Expectations, round int) (hard, llm []judge.Judge, words []string) {
	where := "the case"
	b.round = round
	defer func() { b.round = 0 }()
	switch {
	case round > 0:
		where = fmt.Sprintf("round %d", round)
	case round == everyCaseRound:
		where = "every_case"
	}
	keep := func(field string, j judge.Judge, err error) judge.Judge {
		if err != nil {
			b.fail("%s: %s: %v", where, field, err)
			b.badItems++ // said: no "nothing to judge" besides
			return nil
		}
		return j
	}
	addHard := func(field string, j judge.Judge, err error) {
		if j = keep(field, j, err); j != nil {
			hard = append(hard, j)
		}
	}
	say := func(format string, args ...any) {
		prefix := ""
		if round > 0 {
			prefix = fmt.Sprintf("round %d: ", round)
		}
		words = append(words, prefix+fmt.Sprintf(format, args...))
	}

	if tc, ok := e.ToolCallExpectations.Spec(); ok || tc.Order != "" || tc.F1 != nil {
		js, err := tc.Judges()
		for _, j := range js {
			addHard("expected_tool_calls", j, nil)
		}
		if err != nil {
			b.fail("%s: %v", where, err)
		}
		for _, w := range toolCallWords(e.ToolCallExpectations) {
			say("%s", w)
		}
	}
	js, ws, err := toolRules(e)
	hard = append(hard, js...)
	for _, w := range ws {
		say("%s", w)
	}
	if err != nil {
		b.fail("%s: %v", where, err)
		b.badItems++
	}
	if e.JudgeThreshold != nil && e.JudgePrompt == "" {
		b.fail("%s: judge_threshold without judge_prompt", where)
	}
	// buildLLM builds an LLM judge of a case field, and records it for
	// gavel audit.
	buildLLM := func(field, kind string, cfg judgeConfig) {
		b.opened = nil
		j, err := cfg.build(b)
		if j = keep(field, j, err); j != nil {
			llm = append(llm, j)
			b.auditJudge(field, kind, cfg, j, b.opened)
		}
	}
	if e.JudgePrompt != "" {
		buildLLM("judge_prompt", "rubric", &rubricJudge{Rubric: e.JudgePrompt, Threshold: e.JudgeThreshold, llmOptions: llmOptions{name: "judge_prompt"}})
		say("%s", oneLine(e.JudgePrompt))
	}
	if len(e.ExpectedResponseTraits) > 0 {
		buildLLM("expected_response_traits", "traits", &traitsJudge{Traits: e.ExpectedResponseTraits, llmOptions: llmOptions{name: "expected_response_traits"}})
		say("traits: %s", strings.Join(e.ExpectedResponseTraits, ", "))
	}
	for _, list := range []struct {
		field string
		specs []JudgeSpec
	}{{"rules", e.Rules}, {"checks", e.Checks}, {"judges", e.Judges}} {
		for i, s := range list.specs {
			field := fmt.Sprintf("%s[%d]", list.field, i)
			b.opened = nil
			j, err := b.item(field, s)
			if err != nil {
				b.failAt(s.line, s.column, "%s: %v", where, err)
				b.badItems++
				continue
			}
			if j == nil {
				continue
			}
			if s.usesModel() {
				llm = append(llm, j)
				opened := b.opened
				if !kinds[s.Kind].llm {
					opened = nil // a composite: its parts' models, not one
				}
				label := field
				if s.Name != "" {
					label = fmt.Sprintf("%s (%s)", s.Name, field)
				}
				b.auditJudge(label, s.Kind, s.Config, j, opened)
			} else {
				hard = append(hard, j)
			}
			say("%s", s.words())
		}
	}
	return hard, llm, words
}

// toolRules builds expected_tools and forbidden_tools, which read the
// tool_error_result beside them as expected_tool_calls does, and says
// what they expect.
func toolRules(e Expectations) (js []judge.Judge, words []string, err error) {
	if len(e.ExpectedTools) == 0 && len(e.ForbiddenTools) == 0 {
		if _, ok := e.ToolCallExpectations.Spec(); !ok && e.ToolErrorResult != "" {
			return nil, nil, errors.New("tool_error_result without expected_tools, forbidden_tools, expected_tool_calls or forbidden_tool_calls beside it: it says which of their calls failed (a round gives its own)")
		}
		return nil, nil, nil
	}
	o, err := failedCallOpts("tool_error_result", e.ToolErrorResult)
	if err != nil {
		return nil, nil, err
	}
	if len(e.ExpectedTools) > 0 {
		j, err := rule.ExpectedToolsWith(e.ExpectedTools, o)
		if err != nil {
			return nil, nil, err
		}
		js, words = append(js, j), append(words, "calls "+strings.Join(e.ExpectedTools, ", "))
	}
	if len(e.ForbiddenTools) > 0 {
		j, err := rule.ForbiddenToolsWith(e.ForbiddenTools, o)
		if err != nil {
			return nil, nil, err
		}
		js, words = append(js, j), append(words, "never calls "+strings.Join(e.ForbiddenTools, ", "))
	}
	return js, words, nil
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return s
}

// asJudge returns a constructor's judge as a judge.Judge, keeping a nil
// one nil.
func asJudge[J judge.Judge](j J, err error) (judge.Judge, error) {
	if err != nil {
		return nil, err
	}
	return j, nil
}

// steps builds setup steps.
func (b *builder) steps(specs []StepSpec) []conversation.Step {
	var out []conversation.Step
	for i, s := range specs {
		switch {
		case s.SQL != nil && len(s.Command) > 0:
			b.fail("setup step %d: one step per item: sql or command", i+1)
		case s.SQL != nil:
			st := dbstate.Statement{DSN: b.dsn("sql.dsn", s.SQL.DSN), SQL: s.SQL.Statement}
			out = append(out, conversation.StepFunc(func(ctx context.Context) error { return dbstate.Exec(ctx, st) }))
		case len(s.Command) > 0:
			cmd, err := rule.Command(rule.Cmd{Args: s.Command, Dir: b.l.Dir})
			if err != nil {
				b.fail("setup step %d: %v", i+1, err)
				continue
			}
			out = append(out, conversation.StepFunc(func(ctx context.Context) error {
				if v := judge.Run(ctx, cmd, &judge.Transcript{}); !v.Passed() {
					return errors.New(v.Reasoning)
				}
				return nil
			}))
		default:
			b.fail("setup step %d: no step given: use sql or command", i+1)
		}
	}
	return out
}
