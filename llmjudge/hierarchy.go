package llmjudge

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/gavelhq/gavel/llm"
)

// A HierarchyWarning says that a judge model grades its own model or its
// own family. Models favour answers like their own (self-preference), so
// the seeds' rule is a judge more capable than the agent, from another
// family. It is advice, not a failure: the caller decides whether to print
// it or to refuse the configuration.
type HierarchyWarning struct {
	JudgeRef, AgentRef string
	// Family is the family both belong to ("claude", "gpt").
	Family string
	// SameModel is true when the judge is the agent's very model.
	SameModel bool
}

func (w *HierarchyWarning) Error() string {
	if w.SameModel {
		return fmt.Sprintf("judge model %s is the agent's model (%s): a model grading its own answers favours them; use a more capable judge from another family", w.JudgeRef, w.AgentRef)
	}
	return fmt.Sprintf("judge model %s and agent model %s are both %s models: a judge favours answers from its own family; use a more capable judge from another family", w.JudgeRef, w.AgentRef, w.Family)
}

// CheckHierarchy compares a judge's model with the agent's, both model
// references ("anthropic:claude-opus-4-5", "openai:gpt-5-mini"). It
// returns a *HierarchyWarning when the judge is the agent's model, or of
// the same family; an error of another type when a reference cannot be
// read; nil otherwise. A caller that only warns tells the two apart with
// errors.As:
//
//	var w *llmjudge.HierarchyWarning
//	if err := llmjudge.CheckHierarchy(judgeRef, agentRef); errors.As(err, &w) {
//		log.Printf("warning: %v", w)
//	} else if err != nil {
//		return err
//	}
//
// The family is the stem of the model's name: its leading letters, before
// the first digit or dash-digit, lower-cased ("gpt-5-mini" is gpt,
// "claude-opus-4-5" is claude, "llama3.1:8b" is llama,
// "Qwen/Qwen2.5-7B-Instruct" is qwen). A path before the last / and
// dotted vendor prefixes ("anthropic.claude-…" on Bedrock) are skipped.
// The provider does not count: the same model served by two providers is
// the same model.
func CheckHierarchy(judgeRef, agentRef string) error {
	j, err := llm.ParseRef(judgeRef)
	if err != nil {
		return fmt.Errorf("judge model: %w", err)
	}
	a, err := llm.ParseRef(agentRef)
	if err != nil {
		return fmt.Errorf("agent model: %w", err)
	}
	jn, an := modelName(j.Model), modelName(a.Model)
	fam := family(jn)
	switch {
	case jn == an:
		return &HierarchyWarning{JudgeRef: judgeRef, AgentRef: agentRef, Family: fam, SameModel: true}
	case fam != "" && fam == family(an):
		return &HierarchyWarning{JudgeRef: judgeRef, AgentRef: agentRef, Family: fam}
	}
	return nil
}

// modelName returns a model's name without its path and dotted vendor
// prefixes, lower-cased.
func modelName(m string) string {
	m = strings.ToLower(strings.TrimSpace(m))
	if i := strings.LastIndex(m, "/"); i >= 0 {
		m = m[i+1:]
	}
	for {
		head, rest, ok := strings.Cut(m, ".")
		if !ok || rest == "" || !allLetters(head) {
			return m
		}
		m = rest
	}
}

// family returns the leading letters of a model name: "gpt" for
// "gpt-5-mini", "" when the name does not start with a letter.
func family(name string) string {
	end := strings.IndexFunc(name, func(r rune) bool { return !unicode.IsLetter(r) })
	if end < 0 {
		return name
	}
	return name[:end]
}

func allLetters(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) }) < 0
}
