package spec

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gavelhq/gavel/conversation"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/jury"
	"github.com/gavelhq/gavel/llmjudge"
	"github.com/gavelhq/gavel/rule"
	"github.com/gavelhq/gavel/rule/dbstate"
)

// expectations builds the judges of a case (round 0) or of one round:
// the deterministic ones (hard, soft rules included) and the LLM ones,
// and says in words what they expect, for reports.
func (b *builder) expectations(e Expectations, round int) (hard, llm []judge.Judge, words []string) {
	where := "the case"
	if round > 0 {
		where = fmt.Sprintf("round %d", round)
	}
	keep := func(field string, j judge.Judge, err error) judge.Judge {
		if err != nil {
			b.fail("%s: %s: %v", where, field, err)
			return nil
		}
		return j
	}
	addHard := func(field string, j judge.Judge, err error) {
		if j = keep(field, j, err); j != nil {
			hard = append(hard, j)
		}
	}
	addLLM := func(field string, j judge.Judge, err error) {
		if j = keep(field, j, err); j != nil {
			llm = append(llm, j)
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
	if len(e.ExpectedTools) > 0 {
		j, err := rule.ExpectedTools(e.ExpectedTools...)
		addHard("expected_tools", j, err)
		say("calls %s", strings.Join(e.ExpectedTools, ", "))
	}
	if len(e.ForbiddenTools) > 0 {
		j, err := rule.ForbiddenTools(e.ForbiddenTools...)
		addHard("forbidden_tools", j, err)
		say("never calls %s", strings.Join(e.ForbiddenTools, ", "))
	}
	for i, r := range e.Rules {
		j, err := b.rule(r)
		addHard(fmt.Sprintf("rule %d", i+1), j, err)
	}
	for i, c := range e.Checks {
		j, err := b.check(c)
		addHard(fmt.Sprintf("check %d", i+1), j, err)
		if err == nil {
			say("%s", checkWords(c))
		}
	}
	if e.JudgeThreshold != nil && e.JudgePrompt == "" {
		b.fail("%s: judge_threshold without judge_prompt", where)
	}
	if e.JudgePrompt != "" {
		j, err := b.llmJudge(JudgeSpec{Name: "judge_prompt", Rubric: e.JudgePrompt, Threshold: e.JudgeThreshold})
		addLLM("judge_prompt", j, err)
		say("%s", oneLine(e.JudgePrompt))
	}
	if len(e.ExpectedResponseTraits) > 0 {
		j, err := b.llmJudge(JudgeSpec{Name: "expected_response_traits", Traits: e.ExpectedResponseTraits})
		addLLM("expected_response_traits", j, err)
		say("traits: %s", strings.Join(e.ExpectedResponseTraits, ", "))
	}
	for i, j := range e.Judges {
		built, err := b.llmJudge(j)
		addLLM(fmt.Sprintf("judge %d", i+1), built, err)
		say("%s", judgeWords(j))
	}
	return hard, llm, words
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return s
}

// rule builds a deterministic rule: exactly one kind.
func (b *builder) rule(r RuleSpec) (judge.Judge, error) {
	o := rule.Opts{Scope: rule.Scope(r.Scope), IgnoreCase: r.IgnoreCase}
	scope := rule.Scope(r.Scope)
	var kinds []string
	var j judge.Judge
	var err error
	set := func(kind string, build func() (judge.Judge, error)) {
		kinds = append(kinds, kind)
		if len(kinds) == 1 {
			j, err = build()
		}
	}
	if r.Contains != "" {
		set("contains", func() (judge.Judge, error) { return rule.Contains(r.Contains, o) })
	}
	if r.NotContains != "" {
		set("not_contains", func() (judge.Judge, error) {
			neg := o
			neg.Negate = true
			return rule.Contains(r.NotContains, neg)
		})
	}
	if len(r.ContainsAll) > 0 {
		set("contains_all", func() (judge.Judge, error) { return rule.ContainsAll(r.ContainsAll, o) })
	}
	if len(r.ContainsAny) > 0 {
		set("contains_any", func() (judge.Judge, error) { return rule.ContainsAny(r.ContainsAny, o) })
	}
	if r.Regex != "" {
		set("regex", func() (judge.Judge, error) { return rule.Regex(r.Regex, o) })
	}
	if r.Equals != "" {
		set("equals", func() (judge.Judge, error) { return rule.Equals(r.Equals, o) })
	}
	if len(r.ForbiddenPhrases) > 0 {
		set("forbidden_phrases", func() (judge.Judge, error) { return rule.ForbiddenPhrases(r.ForbiddenPhrases, scope) })
	}
	if r.MaxQuestions != nil {
		set("max_questions", func() (judge.Judge, error) { return rule.MaxQuestions(*r.MaxQuestions, scope) })
	}
	if r.MaxBubbles != nil {
		set("max_bubbles", func() (judge.Judge, error) { return rule.MaxBubbles(*r.MaxBubbles, scope) })
	}
	if r.MaxTurns != nil {
		set("max_turns", func() (judge.Judge, error) { return rule.MaxTurns(*r.MaxTurns) })
	}
	if r.MaxLatency != "" {
		set("max_latency", func() (judge.Judge, error) {
			d, err := time.ParseDuration(r.MaxLatency)
			if err != nil {
				return nil, fmt.Errorf("max_latency %q: want a duration such as 5s", r.MaxLatency)
			}
			return rule.MaxTurnLatency(d)
		})
	}
	if r.MaxCostUSD != nil {
		set("max_cost_usd", func() (judge.Judge, error) { return rule.MaxCost(*r.MaxCostUSD) })
	}
	if r.ValidJSON {
		set("valid_json", func() (judge.Judge, error) { return rule.ValidJSON(scope) })
	}
	if r.LowercaseOnly {
		set("lowercase_only", func() (judge.Judge, error) { return rule.LowercaseOnly(scope) })
	}
	if r.NoEmDash {
		set("no_em_dash", func() (judge.Judge, error) { return rule.NoEmDash(scope) })
	}
	switch {
	case len(kinds) == 0:
		return nil, errors.New("no rule given: use one of contains, not_contains, contains_all, contains_any, regex, equals, forbidden_phrases, max_questions, max_bubbles, max_turns, max_latency, max_cost_usd, valid_json, lowercase_only, no_em_dash")
	case len(kinds) > 1:
		return nil, fmt.Errorf("one rule per item: this one gives %s; write them as separate items", strings.Join(kinds, " and "))
	case err != nil:
		return nil, err
	}
	if r.Soft {
		j = judge.Soft(j)
	}
	return j, nil
}

// llmJudge builds an LLM judge or a jury: exactly one kind.
func (b *builder) llmJudge(s JudgeSpec) (judge.Judge, error) {
	var kinds []string
	for kind, set := range map[string]bool{
		"rubric": s.Rubric != "", "traits": len(s.Traits) > 0, "criteria": len(s.Criteria) > 0,
		"correctness": s.Correctness != "", "jury": s.Jury != nil,
	} {
		if set {
			kinds = append(kinds, kind)
		}
	}
	slices.Sort(kinds)
	switch len(kinds) {
	case 0:
		return nil, errors.New("no judge given: use one of rubric, traits, criteria, correctness, jury")
	case 1:
	default:
		return nil, fmt.Errorf("one judge per item: this one gives %s", strings.Join(kinds, " and "))
	}
	if s.Jury != nil {
		return b.jury(s)
	}
	m := b.model("judge", cmp.Or(s.Model, b.l.Suite.Models.Judge), "judge model")
	if m == nil {
		return nil, nil
	}
	if t := s.Threshold; t != nil && (*t < 0 || *t > 1) {
		return nil, fmt.Errorf("threshold %v is out of range: a passing score from 0 to 1", *t)
	}
	if s.Threshold != nil && (kinds[0] == "traits" || kinds[0] == "criteria") {
		return nil, fmt.Errorf("threshold is for rubric, correctness and jury judges: %s judges have no threshold; remove it", kinds[0])
	}
	opts := llmjudge.Options{Name: s.Name, Samples: s.Samples}
	var j judge.Judge
	var err error
	switch kinds[0] {
	case "rubric":
		j, err = asJudge(llmjudge.NewRubric(m, s.Rubric, llmjudge.RubricConfig{Options: opts, Threshold: s.Threshold}))
	case "traits":
		j, err = asJudge(llmjudge.NewTraits(m, s.Traits, llmjudge.TraitsConfig{Options: opts}))
	case "correctness":
		j, err = asJudge(llmjudge.NewCorrectness(m, llmjudge.CorrectnessConfig{Options: opts, Expected: s.Correctness, Threshold: s.Threshold}))
	case "criteria":
		var axes []llmjudge.Axis
		for _, name := range sortedKeys(s.Criteria) {
			axes = append(axes, llmjudge.Axis{Name: name, Description: s.Criteria[name]})
		}
		j, err = asJudge(llmjudge.NewCriteria(m, axes, llmjudge.CriteriaConfig{Options: opts}))
	}
	return j, err
}

// asJudge returns a constructor's judge as a judge.Judge, keeping a nil
// one nil.
func asJudge[J judge.Judge](j J, err error) (judge.Judge, error) {
	if err != nil {
		return nil, err
	}
	return j, nil
}

func (b *builder) jury(s JudgeSpec) (judge.Judge, error) {
	var jurors []judge.Judge
	for i, js := range s.Jury.Jurors {
		j, err := b.llmJudge(js)
		if err != nil {
			return nil, fmt.Errorf("juror %d: %w", i+1, err)
		}
		jurors = append(jurors, j)
	}
	return asJudge(jury.New(jury.Config{Name: s.Name, Jurors: jurors, Strategy: jury.Strategy(s.Jury.Strategy), Weights: s.Jury.Weights, Threshold: s.Threshold}))
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// check builds a check of the world after the conversation.
func (b *builder) check(c CheckSpec) (judge.Judge, error) {
	switch {
	case c.SQL != nil && len(c.Command) > 0:
		return nil, errors.New("one check per item: sql or command")
	case c.SQL != nil:
		return dbstate.New(dbstate.Check{DSN: b.dsn(c.SQL.DSN), Query: c.SQL.Query, Scalar: c.SQL.Scalar, RowCount: c.SQL.RowCount, Rows: c.SQL.Rows})
	case len(c.Command) > 0:
		return rule.Command(rule.Cmd{Args: c.Command, Dir: b.l.Dir})
	}
	return nil, errors.New("no check given: use sql or command")
}

func checkWords(c CheckSpec) string {
	if c.SQL == nil {
		return "command " + strings.Join(c.Command, " ") + " succeeds"
	}
	want := cmp.Or(c.SQL.Scalar, c.SQL.RowCount)
	return fmt.Sprintf("database: %s %s", oneLine(c.SQL.Query), want)
}

func judgeWords(j JudgeSpec) string {
	switch {
	case j.Rubric != "":
		return oneLine(j.Rubric)
	case len(j.Traits) > 0:
		return "traits: " + strings.Join(j.Traits, ", ")
	case j.Correctness != "":
		return oneLine(j.Correctness)
	case len(j.Criteria) > 0:
		return "criteria: " + strings.Join(sortedKeys(j.Criteria), ", ")
	case j.Jury != nil:
		return fmt.Sprintf("a jury of %d", len(j.Jury.Jurors))
	}
	return ""
}

// steps builds setup steps.
func (b *builder) steps(specs []StepSpec) []conversation.Step {
	var out []conversation.Step
	for i, s := range specs {
		switch {
		case s.SQL != nil && len(s.Command) > 0:
			b.fail("setup step %d: one step per item: sql or command", i+1)
		case s.SQL != nil:
			st := dbstate.Statement{DSN: b.dsn(s.SQL.DSN), SQL: s.SQL.Statement}
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
