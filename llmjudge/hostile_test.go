package llmjudge

import (
	"context"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/judge"
)

// hostileAnswers are answer shapes a judge's model was seen to give, or
// could, each with what a rubric judge (threshold 0.7) must make of it:
// PASS, FAIL, or an ERROR whose reasoning holds the text given. Only an
// answer that says PASS unambiguously passes; every other one is a FAIL
// it plainly says, or is re-asked and then an ERROR.
var hostileAnswers = []struct {
	name, answer string
	want         string // "PASS", "FAIL", or a part of the ERROR's reasoning
}{
	// Unambiguous answers.
	{"strict JSON", `{"reasoning": "gives the date", "score": 0.9}`, "PASS"},
	{"fenced", "```json\n{\"reasoning\": \"gives the date\", \"score\": 0.9}\n```", "PASS"},
	{"prose around a fenced object", "Here is my evaluation.\n```json\n{\"reasoning\": \"gives the date\", \"score\": 0.9}\n```\nThanks!", "PASS"},
	{"tags", "<reasoning>gives the date</reasoning><score>0.9</score>", "PASS"},
	{"a quoted score", `{"reasoning": "gives the date", "score": "0.9"}`, "PASS"},
	{"an exponent", `{"reasoning": "gives the date", "score": 9e-1}`, "PASS"},
	{"the threshold itself", `{"reasoning": "just enough", "score": 0.7}`, "PASS"},
	{"a field that is no verdict", `{"reasoning": "gives the date", "score": 0.9, "confidence": "high"}`, "PASS"},
	{"verdict words inside the reasoning", `{"reasoning": "Verdict: FAIL is what a careless judge would say; it does not fail the user", "score": 0.9}`, "PASS"},
	{"tags inside the reasoning's JSON string", `{"reasoning": "the reply quotes <score>0</score> from its tool", "score": 0.9}`, "PASS"},
	{"an agreeing duplicate: the object twice", "{\"reasoning\": \"ok\", \"score\": 0.9}\n```json\n{\"reasoning\": \"ok\", \"score\": 0.9}\n```", "PASS"},
	{"an agreeing duplicate: object and tags", `<reasoning>ok</reasoning><score>0.9</score> {"reasoning": "ok", "score": 0.90}`, "PASS"},
	{"an agreeing duplicate: a tag twice", "<score>0.9</score><reasoning>ok</reasoning><score> 0.9 </score>", "PASS"},
	{"a failing score", `{"reasoning": "no date", "score": 0.1}`, "FAIL"},
	{"the lowest score", `{"reasoning": "off-topic", "score": 0}`, "FAIL"},
	{"a failing score in tags", "<reasoning>no date</reasoning><score>0.2</score>", "FAIL"},
	{"lower-case prose is not read", `The reply fails to give the date. {"reasoning": "no date", "score": 0.2}`, "FAIL"},

	// Two verdicts that disagree.
	{"tags, then a JSON format reminder", `<reasoning>The reply refuses the refund</reasoning><score>0.1</score> (format reminder: {"reasoning": "ok", "score": 1})`, "two different verdicts (a JSON object and the tags)"},
	{"JSON, then tags", `{"reasoning": "ok", "score": 1} <score>0.1</score><reasoning>refuses</reasoning>`, "two different verdicts"},
	{"a pass field that disagrees", `{"reasoning": "ok", "score": 1, "pass": false}`, `a verdict in "pass"`},
	{"a pass field that agrees", `{"reasoning": "ok", "score": 1, "pass": true}`, `a verdict in "pass"`},
	{"a verdict field", `{"reasoning": "ok", "score": 1, "verdict": "FAIL"}`, `a verdict in "verdict"`},
	{"a verdict field in lower case", `{"reasoning": "ok", "score": 1, "Verdict": "fail"}`, `a verdict in "Verdict"`},
	{"a status field", `{"reasoning": "ok", "score": 1, "status": "FAIL"}`, `a verdict in "status"`},
	{"a passed field as text", `{"reasoning": "ok", "score": 1, "passed": "no"}`, `a verdict in "passed"`},
	{"a final score", `{"reasoning": "ok", "score": 1, "final_score": 0.1}`, `a verdict in "final_score"`},
	{"a list of scores", `{"reasoning": "ok", "score": 1, "scores": [0.1]}`, `a verdict in "scores"`},
	{"the score key in another case", `{"reasoning": "ok", "Score": 0.1, "score": 1}`, `a verdict in "Score"`},
	{"the score key escaped", `{"reasoning": "ok", "\u0073core": 0.1, "score": 1}`, `key "score" appears twice`},
	{"the score key twice", `{"reasoning": "ok", "score": 0.1, "score": 1}`, `key "score" appears twice`},
	{"two objects", `{"reasoning": "ok", "score": 1} {"reasoning": "ok", "score": 0.1}`, "two different verdicts (2 JSON objects)"},
	{"two fenced objects", "```json\n{\"reasoning\": \"ok\", \"score\": 1}\n```\n```json\n{\"reasoning\": \"no\", \"score\": 0}\n```", "two different verdicts"},
	{"the same score, two reasonings", `{"reasoning": "gives the date", "score": 1} {"reasoning": "lies", "score": 1}`, "two different verdicts"},
	{"two verdicts in a list", `[{"reasoning": "ok", "score": 1}, {"reasoning": "no", "score": 0}]`, "two different verdicts"},
	{"a tag twice, differing", "<score>1</score><reasoning>ok</reasoning><score>0.1</score>", "<score> is given twice"},
	{"a score tag inside the reasoning", "<reasoning>I would say <score>1</score></reasoning><score>0.1</score>", "<score> is given twice"},
	{"a JSON verdict inside the reasoning tag", `<reasoning>{"reasoning": "ok", "score": 1}</reasoning><score>0.1</score>`, "two different verdicts"},
	{"a verdict tag", "<reasoning>ok</reasoning><score>1</score><verdict>FAIL</verdict>", "a verdict in <verdict>"},
	{"a pass tag", "<reasoning>ok</reasoning><score>1</score><pass>false</pass>", "a verdict in <pass>"},
	{"a verdict tag beside JSON", `{"reasoning": "ok", "score": 1} <verdict>FAIL</verdict>`, "a verdict in <verdict>"},

	// Nested verdicts.
	{"a verdict nested in another field", `{"reasoning": "ok", "score": 1, "details": {"verdict": "FAIL"}}`, `a verdict in "details"."verdict"`},
	{"a score nested in another field", `{"reasoning": "ok", "score": 1, "sub": {"score": 0}}`, `a verdict in "sub"."score"`},
	{"a score nested in a list", `{"reasoning": "ok", "score": 1, "checks": [{"name": "date", "passed": false}]}`, `a verdict in "checks"[0]."passed"`},
	{"the verdict wrapped in a verdict", `{"verdict": {"reasoning": "ok", "score": 1}}`, `a verdict in "verdict"`},
	{"the verdict wrapped in another field", `{"evaluation": {"reasoning": "ok", "score": 1}}`, `a verdict in "evaluation"."score"`},
	{"a verdict in the score", `{"reasoning": "ok", "score": {"value": 1, "pass": true}}`, `"score" is an object`},

	// Prose that states a verdict too.
	{"PASS, but FAIL, in prose only", "PASS on accuracy, but FAIL on tone.", "no JSON object"},
	{"FAIL in capitals around a pass", `FAIL. {"reasoning": "ok", "score": 1}`, `a verdict in the text around it ("FAIL")`},
	{"a labelled verdict after the object", `{"reasoning": "ok", "score": 1}` + "\nVerdict: FAIL", `("Verdict: FAIL")`},
	{"a labelled score before the object", `**Score: 0.1**` + "\n" + `{"reasoning": "ok", "score": 1}`, `("Score: 0")`},
	{"score: 1/10 in prose", `score: 1/10. {"reasoning": "ok", "score": 1}`, "a verdict in the text around it"},
	{"a fraction in prose", `I rate it 1 out of 10. {"reasoning": "ok", "score": 1}`, `("1 out of 10")`},
	{"my score is", `My score is 0.1. {"reasoning": "ok", "score": 1}`, `("score is 0")`},
	{"prose around tags", "<reasoning>ok</reasoning><score>1</score>\nFinal verdict: FAIL", `("verdict: FAIL")`},
	{"a malformed verdict beside one", `{"reasoning": "ok", "score": 1} {"reasoning": "no", "score": NaN}`, "a verdict that is not valid JSON"},
	{"score: 1/10 alone", "score: 1/10", "no JSON object"},

	// Numbers that are not scores.
	{"NaN as text", `{"reasoning": "x", "score": "NaN"}`, "want a number"},
	{"NaN bare", `{"reasoning": "x", "score": NaN}`, "invalid character"},
	{"Infinity as text", `{"reasoning": "x", "score": "Infinity"}`, "want a number"},
	{"-Inf as text", `{"reasoning": "x", "score": "-Inf"}`, "want a number"},
	{"an infinite number", `{"reasoning": "x", "score": 1e400}`, "not a finite number"},
	{"hex as text", `{"reasoning": "x", "score": "0x1"}`, "want a number"},
	{"hex bare", `{"reasoning": "x", "score": 0x1}`, "invalid character"},
	{"hex in a tag", "<reasoning>x</reasoning><score>0x1p0</score>", "want a number"},
	{"a fraction", `{"reasoning": "x", "score": "1/10"}`, "want a number"},
	{"a percentage", `{"reasoning": "x", "score": "90%"}`, "want a number"},
	{"full-width digits", `{"reasoning": "x", "score": "１"}`, "want a number"},
	{"a word", "<reasoning>x</reasoning><score>high</score>", "want a number"},
	{"above the scale", `{"reasoning": "x", "score": 1.5}`, "outside 0..1"},
	{"ten on 0..1", `{"reasoning": "x", "score": 10}`, "outside 0..1"},
	{"below the scale", `{"reasoning": "x", "score": -0.1}`, "outside 0..1"},
	{"a boolean", `{"reasoning": "x", "score": true}`, "is a boolean"},
	{"null", `{"reasoning": "x", "score": null}`, "is null"},
	{"a list", `{"reasoning": "x", "score": [1]}`, "is a list"},

	// Nothing to read.
	{"empty", "", "the answer is empty"},
	{"no reasoning", `{"score": 1}`, `"reasoning" is missing`},
	{"blank reasoning", `{"reasoning": "  ", "score": 1}`, `"reasoning" is empty`},
	{"cut off", `{"reasoning": "ok", "score": 1`, "no JSON object"},
	{"too deep", `{"reasoning": "ok", "score": 1, "x": ` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `}`, "nested too deeply"},
	{"too long", `{"reasoning": "` + strings.Repeat("x", maxAnswer) + `", "score": 1}`, "longer than any verdict"},
}

// A rubric judge makes of each hostile answer what it plainly says: PASS
// only when it says PASS unambiguously, else FAIL or, after the re-asks,
// ERROR.
func TestHostileJudgeAnswers(t *testing.T) {
	if len(hostileAnswers) < 40 {
		t.Fatalf("%d answer shapes, want at least 40", len(hostileAnswers))
	}
	for _, tc := range hostileAnswers {
		t.Run(tc.name, func(t *testing.T) {
			model := answers(tc.answer)
			got := judge.Run(context.Background(), must(NewRubric(model, dateCriteria, RubricConfig{})), orderTranscript())
			switch tc.want {
			case "PASS", "FAIL":
				if string(got.Status) != tc.want {
					t.Errorf("status = %s (%s), want %s", got.Status, got.Reasoning, tc.want)
				}
			default:
				if got.Status != judge.StatusError || !strings.Contains(got.Reasoning, tc.want) {
					t.Errorf("got %s: %s\nwant ERROR holding %q", got.Status, got.Reasoning, tc.want)
				}
				if calls := len(model.Calls()); calls != 1+defaultRetries {
					t.Errorf("%d calls, want the answer and %d re-asks", calls, defaultRetries)
				}
			}
		})
	}
}
