package rule_test

import (
	"testing"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/judge/judgetest"
	"github.com/gavelhq/gavel/rule"
)

func TestStyleRules(t *testing.T) {
	pass, fail := judge.StatusPass, judge.StatusFail
	judgetest.RunCases(t, []judgetest.Case{
		{Name: "one question", Build: func() (judge.Judge, error) { return rule.MaxQuestions(1, rule.Final) }, Transcript: conversation("Which order? The one from May?"), WantStatus: fail, WantIn: []string{"asks 2 question(s), at most 1 allowed"}},
		{Name: "a run of question marks is one question", Build: func() (judge.Judge, error) { return rule.MaxQuestions(1, rule.Final) }, Transcript: conversation("Really??"), WantStatus: pass},
		{Name: "full-width question mark", Build: func() (judge.Judge, error) { return rule.MaxQuestions(0, rule.Final) }, Transcript: conversation("どれですか？"), WantStatus: fail},
		{Name: "questions per turn", Build: func() (judge.Judge, error) { return rule.MaxQuestions(1, rule.EachTurn) }, Transcript: conversation("Which one?", "Sure. Anything else? Today?"), WantStatus: fail, WantIn: []string{"turn 4 asks 2 question(s)"}},

		{Name: "bubbles within limit", Build: func() (judge.Judge, error) { return rule.MaxBubbles(2, rule.Final) }, Transcript: conversation("hey!\n\nhow was the date?"), WantStatus: pass},
		{Name: "bubbles over limit", Build: func() (judge.Judge, error) { return rule.MaxBubbles(2, rule.Final) }, Transcript: conversation("hey!\n\nso\n  \nhow was it?"), WantStatus: fail, WantIn: []string{"has 3 bubble(s), at most 2 allowed"}},
		{Name: "single newlines stay in one bubble", Build: func() (judge.Judge, error) { return rule.MaxBubbles(1, rule.Final) }, Transcript: conversation("line one\nline two"), WantStatus: pass},

		{Name: "forbidden phrase", Build: func() (judge.Judge, error) {
			return rule.ForbiddenPhrases([]string{"As an AI", "great question"}, rule.Final)
		}, Transcript: conversation("Great question! Let me check."), WantStatus: fail, WantIn: []string{`uses forbidden phrasing "great question"`}},
		{Name: "forbidden phrase with a typographic apostrophe", Build: func() (judge.Judge, error) {
			return rule.ForbiddenPhrases([]string{"I'm sorry"}, rule.Final)
		}, Transcript: conversation("I’m sorry to hear that."), WantStatus: fail},
		{Name: "no forbidden phrase", Build: func() (judge.Judge, error) { return rule.ForbiddenPhrases([]string{"As an AI"}, rule.Final) }, Transcript: conversation("Sure."), WantStatus: pass},

		{Name: "lowercase", Build: func() (judge.Judge, error) { return rule.LowercaseOnly(rule.Final) }, Transcript: conversation("hey, how are you?"), WantStatus: pass},
		{Name: "uppercase", Build: func() (judge.Judge, error) { return rule.LowercaseOnly(rule.Final) }, Transcript: conversation("hey, how was Paris?"), WantStatus: fail, WantIn: []string{`upper case in "Paris?"`}},

		{Name: "em-dash", Build: func() (judge.Judge, error) { return rule.NoEmDash(rule.Final) }, Transcript: conversation("It's simple — just ask."), WantStatus: fail, WantIn: []string{"has an em-dash near"}},
		{Name: "en-dash is fine", Build: func() (judge.Judge, error) { return rule.NoEmDash(rule.Final) }, Transcript: conversation("pages 3–5"), WantStatus: pass},

		{Name: "curly placeholder", Build: func() (judge.Judge, error) { return rule.NoPlaceholders(rule.Final) }, Transcript: conversation("Hi {name}, welcome!"), WantStatus: fail, WantIn: []string{`leaks placeholder(s) "{name}"`}},
		{Name: "double-curly placeholder", Build: func() (judge.Judge, error) { return rule.NoPlaceholders(rule.Final) }, Transcript: conversation("See you {{ meeting_time }}"), WantStatus: fail, WantIn: []string{"{{ meeting_time }}"}},
		{Name: "bracket placeholder", Build: func() (judge.Judge, error) { return rule.NoPlaceholders(rule.Final) }, Transcript: conversation("Your match is [MATCH NAME]."), WantStatus: fail, WantIn: []string{"[MATCH NAME]"}},
		{Name: "angle placeholder", Build: func() (judge.Judge, error) { return rule.NoPlaceholders(rule.Final) }, Transcript: conversation("<TODO> write this"), WantStatus: fail, WantIn: []string{"<TODO>"}},
		{Name: "JSON, links and HTML are not placeholders", Build: func() (judge.Judge, error) { return rule.NoPlaceholders(rule.Final) }, Transcript: conversation(`{"name": "x"} [docs](https://x.y) <b>bold</b> [1]`), WantStatus: pass},

		{Name: "length within", Build: func() (judge.Judge, error) { return rule.Length(2, 10, rule.Final) }, Transcript: conversation("hello"), WantStatus: pass},
		{Name: "length counts characters, not bytes", Build: func() (judge.Judge, error) { return rule.Length(0, 5, rule.Final) }, Transcript: conversation("héllo"), WantStatus: pass},
		{Name: "too long", Build: func() (judge.Judge, error) { return rule.Length(0, 3, rule.Final) }, Transcript: conversation("hello"), WantStatus: fail, WantIn: []string{"has 5 characters, want 0..3"}},
		{Name: "too short, no upper bound", Build: func() (judge.Judge, error) { return rule.Length(10, 0, rule.Final) }, Transcript: conversation("hello"), WantStatus: fail, WantIn: []string{"want >= 10"}},
	})
}

func TestStyleRulesRefuseBadConfiguration(t *testing.T) {
	judgetest.RunBuildErrorCases(t, []judgetest.BuildErrorCase{
		{Name: "negative questions", Build: func() (judge.Judge, error) { return rule.MaxQuestions(-1, rule.Final) }, WantErr: "negative"},
		{Name: "zero bubbles", Build: func() (judge.Judge, error) { return rule.MaxBubbles(0, rule.Final) }, WantErr: "want at least 1"},
		{Name: "no phrases", Build: func() (judge.Judge, error) { return rule.ForbiddenPhrases(nil, rule.Final) }, WantErr: "no text to look for"},
		{Name: "inverted length", Build: func() (judge.Judge, error) { return rule.Length(10, 5, rule.Final) }, WantErr: "want 0 <= min <= max"},
		{Name: "bad scope", Build: func() (judge.Judge, error) { return rule.NoEmDash("turns") }, WantErr: `unknown scope "turns"`},
	})
}
