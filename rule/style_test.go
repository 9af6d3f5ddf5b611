package rule_test

import (
	"testing"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/rule"
)

func TestStyleRules(t *testing.T) {
	pass, fail := judge.StatusPass, judge.StatusFail
	runVerdictCases(t, []verdictCase{
		{"one question", func() (judge.Judge, error) { return rule.MaxQuestions(1, rule.Final) }, conversation("Which order? The one from May?"), fail, "asks 2 question(s), at most 1 allowed"},
		{"a run of question marks is one question", func() (judge.Judge, error) { return rule.MaxQuestions(1, rule.Final) }, conversation("Really??"), pass, ""},
		{"full-width question mark", func() (judge.Judge, error) { return rule.MaxQuestions(0, rule.Final) }, conversation("どれですか？"), fail, ""},
		{"questions per turn", func() (judge.Judge, error) { return rule.MaxQuestions(1, rule.EachTurn) }, conversation("Which one?", "Sure. Anything else? Today?"), fail, "turn 4 asks 2 question(s)"},

		{"bubbles within limit", func() (judge.Judge, error) { return rule.MaxBubbles(2, rule.Final) }, conversation("hey!\n\nhow was the date?"), pass, ""},
		{"bubbles over limit", func() (judge.Judge, error) { return rule.MaxBubbles(2, rule.Final) }, conversation("hey!\n\nso\n  \nhow was it?"), fail, "has 3 bubble(s), at most 2 allowed"},
		{"single newlines stay in one bubble", func() (judge.Judge, error) { return rule.MaxBubbles(1, rule.Final) }, conversation("line one\nline two"), pass, ""},

		{"forbidden phrase", func() (judge.Judge, error) {
			return rule.ForbiddenPhrases([]string{"As an AI", "great question"}, rule.Final)
		}, conversation("Great question! Let me check."), fail, `uses forbidden phrasing "great question"`},
		{"forbidden phrase with a typographic apostrophe", func() (judge.Judge, error) {
			return rule.ForbiddenPhrases([]string{"I'm sorry"}, rule.Final)
		}, conversation("I’m sorry to hear that."), fail, ""},
		{"no forbidden phrase", func() (judge.Judge, error) { return rule.ForbiddenPhrases([]string{"As an AI"}, rule.Final) }, conversation("Sure."), pass, ""},

		{"lowercase", func() (judge.Judge, error) { return rule.LowercaseOnly(rule.Final) }, conversation("hey, how are you?"), pass, ""},
		{"uppercase", func() (judge.Judge, error) { return rule.LowercaseOnly(rule.Final) }, conversation("hey, how was Paris?"), fail, `upper case in "Paris?"`},

		{"em-dash", func() (judge.Judge, error) { return rule.NoEmDash(rule.Final) }, conversation("It's simple — just ask."), fail, "has an em-dash near"},
		{"en-dash is fine", func() (judge.Judge, error) { return rule.NoEmDash(rule.Final) }, conversation("pages 3–5"), pass, ""},

		{"curly placeholder", func() (judge.Judge, error) { return rule.NoPlaceholders(rule.Final) }, conversation("Hi {name}, welcome!"), fail, `leaks placeholder(s) "{name}"`},
		{"double-curly placeholder", func() (judge.Judge, error) { return rule.NoPlaceholders(rule.Final) }, conversation("See you {{ meeting_time }}"), fail, "{{ meeting_time }}"},
		{"bracket placeholder", func() (judge.Judge, error) { return rule.NoPlaceholders(rule.Final) }, conversation("Your match is [MATCH NAME]."), fail, "[MATCH NAME]"},
		{"angle placeholder", func() (judge.Judge, error) { return rule.NoPlaceholders(rule.Final) }, conversation("<TODO> write this"), fail, "<TODO>"},
		{"JSON, links and HTML are not placeholders", func() (judge.Judge, error) { return rule.NoPlaceholders(rule.Final) }, conversation(`{"name": "x"} [docs](https://x.y) <b>bold</b> [1]`), pass, ""},

		{"length within", func() (judge.Judge, error) { return rule.Length(2, 10, rule.Final) }, conversation("hello"), pass, ""},
		{"length counts characters, not bytes", func() (judge.Judge, error) { return rule.Length(0, 5, rule.Final) }, conversation("héllo"), pass, ""},
		{"too long", func() (judge.Judge, error) { return rule.Length(0, 3, rule.Final) }, conversation("hello"), fail, "has 5 characters, want 0..3"},
		{"too short, no upper bound", func() (judge.Judge, error) { return rule.Length(10, 0, rule.Final) }, conversation("hello"), fail, "want >= 10"},
	})
}

func TestStyleRulesRefuseBadConfiguration(t *testing.T) {
	runBuildErrorCases(t, []buildErrorCase{
		{"negative questions", func() (judge.Judge, error) { return rule.MaxQuestions(-1, rule.Final) }, "negative"},
		{"zero bubbles", func() (judge.Judge, error) { return rule.MaxBubbles(0, rule.Final) }, "want at least 1"},
		{"no phrases", func() (judge.Judge, error) { return rule.ForbiddenPhrases(nil, rule.Final) }, "no text to look for"},
		{"inverted length", func() (judge.Judge, error) { return rule.Length(10, 5, rule.Final) }, "want 0 <= min <= max"},
		{"bad scope", func() (judge.Judge, error) { return rule.NoEmDash("turns") }, `unknown scope "turns"`},
	})
}
