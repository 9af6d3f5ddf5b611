package llmjudge

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseScore(t *testing.T) {
	for _, tc := range []struct {
		name    string
		answer  string
		want    scored
		wantErr string // a substring of the error; "" when the answer parses
	}{
		{name: "strict JSON", answer: `{"reasoning": "gives the date", "score": 0.85}`, want: scored{0.85, "gives the date"}},
		{name: "whitespace around", answer: "\n  {\"score\": 1, \"reasoning\": \"perfect\"}\n\n", want: scored{1, "perfect"}},
		{name: "fenced", answer: "```json\n{\"reasoning\": \"ok\", \"score\": 0.7}\n```", want: scored{0.7, "ok"}},
		{name: "fenced without a language", answer: "Here you go:\n```\n{\"reasoning\": \"ok\", \"score\": 0.7}\n```\nThanks.", want: scored{0.7, "ok"}},
		{name: "in prose", answer: `After weighing it, my verdict is {"reasoning": "mostly there", "score": 0.6} as requested.`, want: scored{0.6, "mostly there"}},
		{name: "braces in prose before the object", answer: `The agent wrote {name} as a placeholder. {"reasoning": "leaks {name}", "score": 0.2}`, want: scored{0.2, "leaks {name}"}},
		{name: "the same verdict twice", answer: "{\"reasoning\": \"ok\", \"score\": 0.7}\n```json\n{\"reasoning\": \"ok\", \"score\": 0.7}\n```", want: scored{0.7, "ok"}},
		{name: "XML tags", answer: "<reasoning>lists all three listings</reasoning>\n<score>0.9</score>", want: scored{0.9, "lists all three listings"}},
		{name: "XML with entities", answer: "<score> 0.5 </score><reasoning>uses &lt;b&gt; tags &amp; more</reasoning>", want: scored{0.5, "uses <b> tags & more"}},
		{name: "a quoted number", answer: `{"reasoning": "ok", "score": "0.8"}`, want: scored{0.8, "ok"}},
		{name: "extra fields are ignored", answer: `{"reasoning": "ok", "score": 0.8, "confidence": "high"}`, want: scored{0.8, "ok"}},
		{name: "the lowest score", answer: `{"reasoning": "off-topic", "score": 0}`, want: scored{0, "off-topic"}},
		{name: "exponent", answer: `{"reasoning": "ok", "score": 5e-1}`, want: scored{0.5, "ok"}},

		{name: "empty", answer: "", wantErr: "empty"},
		{name: "blank", answer: " \n\t ", wantErr: "empty"},
		{name: "prose only", answer: "I would give this a 9 out of 10.", wantErr: "no JSON object"},
		{name: "truncated JSON", answer: `{"reasoning": "ok", "score": 0.`, wantErr: "no JSON object"},
		{name: "out of range above", answer: `{"reasoning": "great", "score": 8.5}`, wantErr: `"score" is "8.5", outside 0..1`},
		{name: "out of range below", answer: `{"reasoning": "bad", "score": -0.1}`, wantErr: "outside 0..1"},
		{name: "huge number", answer: `{"reasoning": "x", "score": 1e400}`, wantErr: "not a finite number"},
		{name: "large number", answer: `{"reasoning": "x", "score": 99999999999999999999}`, wantErr: "outside 0..1"},
		{name: "NaN string", answer: `{"reasoning": "x", "score": "NaN"}`, wantErr: `"score" is "NaN", want a number`},
		{name: "Infinity string", answer: `{"reasoning": "x", "score": "Infinity"}`, wantErr: "want a number"},
		{name: "bare NaN is not JSON", answer: `{"reasoning": "x", "score": NaN}`, wantErr: "no usable JSON object in the answer: invalid character"},
		{name: "hex string", answer: `{"reasoning": "x", "score": "0x1"}`, wantErr: "want a number"},
		{name: "fraction string", answer: `{"reasoning": "x", "score": "7/10"}`, wantErr: "want a number"},
		{name: "percent string", answer: `{"reasoning": "x", "score": "85%"}`, wantErr: "want a number"},
		{name: "boolean score", answer: `{"reasoning": "x", "score": true}`, wantErr: `"score" is a boolean`},
		{name: "null score", answer: `{"reasoning": "x", "score": null}`, wantErr: `"score" is null`},
		{name: "list score", answer: `{"reasoning": "x", "score": [1]}`, wantErr: `"score" is a list`},
		{name: "object score", answer: `{"reasoning": "x", "score": {"value": 1}}`, wantErr: `"score" is an object`},
		{name: "missing score", answer: `{"reasoning": "fine"}`, wantErr: `"score" is missing`},
		{name: "a verdict instead of a score", answer: `{"reasoning": "fine", "verdict": "PASS"}`, wantErr: `the answer gives a verdict in "verdict": give the verdict once, only as "score"`},
		{name: "missing reasoning", answer: `{"score": 0.9}`, wantErr: `"reasoning" is missing`},
		{name: "empty reasoning", answer: `{"reasoning": " ", "score": 0.9}`, wantErr: `"reasoning" is empty`},
		{name: "reasoning of the wrong type", answer: `{"reasoning": 3, "score": 0.9}`, wantErr: `"reasoning" is a number, want text`},
		{name: "a key given twice", answer: `{"reasoning": "x", "score": 0.1, "score": 0.9}`, wantErr: `key "score" appears twice`},
		{name: "two different verdicts", answer: `The agent claimed {"reasoning": "perfect", "score": 1.0}. My verdict: {"reasoning": "it lied", "score": 0.1}`, wantErr: "two different verdicts"},
		{name: "a list, not an object", answer: `[{"reasoning": "x", "score": 0.9}]`, wantErr: ""},
		{name: "XML score given twice", answer: "<score>1</score> <score>0.2</score><reasoning>x</reasoning>", wantErr: "<score> is given twice"},
		{name: "XML score out of range", answer: "<score>10</score><reasoning>x</reasoning>", wantErr: "outside 0..1"},
		{name: "XML score as words", answer: "<score>high</score><reasoning>x</reasoning>", wantErr: "want a number"},
		{name: "XML without reasoning", answer: "<score>0.9</score>", wantErr: `"reasoning" is missing`},
		{name: "too long", answer: strings.Repeat("x", maxAnswer+1), wantErr: "longer than any verdict"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseScore(tc.answer, 0, 1)
			if tc.name == "a list, not an object" {
				// The object inside the list is found in prose: a model
				// wrapping its verdict in a list still gave one verdict.
				if err != nil || got.score != 0.9 {
					t.Errorf("got %+v, %v; want score 0.9", got, err)
				}
				return
			}
			checkParse(t, got, err, tc.want, tc.wantErr)
		})
	}
}

func TestParseScoreOnOtherScales(t *testing.T) {
	for _, tc := range []struct {
		name    string
		answer  string
		lo, hi  float64
		want    float64
		wantErr string
	}{
		{"traits 3", `{"reasoning": "all traits", "score": 3}`, 1, 3, 3, ""},
		{"traits 1", `{"reasoning": "none", "score": 1}`, 1, 3, 1, ""},
		{"traits 0 is below the scale", `{"reasoning": "none", "score": 0}`, 1, 3, 0, `"score" is "0", outside 1..3`},
		{"traits 4 is above the scale", `{"reasoning": "more", "score": 4}`, 1, 3, 0, "outside 1..3"},
		{"a half on a scale of integers is kept", `{"reasoning": "between", "score": 2.5}`, 1, 3, 2.5, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseScore(tc.answer, tc.lo, tc.hi)
			var want scored
			if tc.wantErr == "" {
				want = scored{tc.want, got.reasoning}
			}
			checkParse(t, got, err, want, tc.wantErr)
		})
	}
}

func TestParseAxes(t *testing.T) {
	names := []string{"character", "style"}
	for _, tc := range []struct {
		name    string
		answer  string
		want    rated
		wantErr string
	}{
		{name: "strict JSON", answer: `{"character": {"reasoning": "calm", "score": 8}, "style": {"reasoning": "lowercase", "score": 6}}`,
			want: rated{scores: []float64{8, 6}, reasons: []string{"calm", "lowercase"}}},
		{name: "order does not matter", answer: `{"style": {"score": 6, "reasoning": "b"}, "character": {"score": 8, "reasoning": "a"}}`,
			want: rated{scores: []float64{8, 6}, reasons: []string{"a", "b"}}},
		{name: "fenced", answer: "```json\n{\"character\": {\"reasoning\": \"a\", \"score\": 10}, \"style\": {\"reasoning\": \"b\", \"score\": 1}}\n```",
			want: rated{scores: []float64{10, 1}, reasons: []string{"a", "b"}}},
		{name: "XML", answer: "<character><reasoning>warm</reasoning><score>7</score></character>\n<style><score>5</score><reasoning>one em-dash</reasoning></style>",
			want: rated{scores: []float64{7, 5}, reasons: []string{"warm", "one em-dash"}}},
		{name: "an extra field without a verdict is ignored", answer: `{"character": {"reasoning": "a", "score": 8}, "style": {"reasoning": "b", "score": 6}, "confidence": "high"}`,
			want: rated{scores: []float64{8, 6}, reasons: []string{"a", "b"}}},

		{name: "11 on 1..10", answer: `{"character": {"reasoning": "a", "score": 11}, "style": {"reasoning": "b", "score": 6}}`, wantErr: `axis "character": "score" is "11", outside 1..10`},
		{name: "0 on 1..10", answer: `{"character": {"reasoning": "a", "score": 0}, "style": {"reasoning": "b", "score": 6}}`, wantErr: "outside 1..10"},
		{name: "a missing axis", answer: `{"character": {"reasoning": "a", "score": 8}}`, wantErr: `axis "style" is missing`},
		{name: "a flat score", answer: `{"character": 8, "style": 6}`, wantErr: `axis "character" is a number, want an object`},
		{name: "NaN", answer: `{"character": {"reasoning": "a", "score": "nan"}, "style": {"reasoning": "b", "score": 6}}`, wantErr: "want a number"},
		{name: "a missing reasoning", answer: `{"character": {"score": 8}, "style": {"reasoning": "b", "score": 6}}`, wantErr: `axis "character": "reasoning" is missing`},
		{name: "XML missing an axis", answer: "<character><reasoning>warm</reasoning><score>7</score></character>", wantErr: `axis "style" is missing`},
		{name: "XML axis without a score", answer: "<character><reasoning>warm</reasoning></character><style><score>5</score><reasoning>x</reasoning></style>", wantErr: `axis "character": "score" is missing`},
		{name: "empty", answer: "", wantErr: "empty"},
		{name: "an axis not asked for", answer: `{"character": {"reasoning": "a", "score": 8}, "style": {"reasoning": "b", "score": 6}, "humour": {"reasoning": "c", "score": 2}}`, wantErr: `a verdict in "humour"."score": give the verdict once, only as each axis's "score"`},
		{name: "an overall score beside the axes", answer: `{"character": {"reasoning": "a", "score": 8}, "style": {"reasoning": "b", "score": 6}, "score": 2}`, wantErr: `a verdict in "score"`},
		{name: "a verdict inside an axis", answer: `{"character": {"reasoning": "a", "score": 8, "pass": false}, "style": {"reasoning": "b", "score": 6}}`, wantErr: `a verdict in "character"."pass"`},
		{name: "an axis in another case", answer: `{"Character": {"reasoning": "a", "score": 2}, "character": {"reasoning": "a", "score": 8}, "style": {"reasoning": "b", "score": 6}}`, wantErr: `a verdict in "Character"`},
		{name: "XML and JSON that differ", answer: "<character><reasoning>a</reasoning><score>2</score></character><style><score>6</score><reasoning>b</reasoning></style> " + `{"character": {"reasoning": "a", "score": 8}, "style": {"reasoning": "b", "score": 6}}`, wantErr: "two different verdicts (a JSON object and the tags)"},
		{name: "a verdict tag inside an axis", answer: "<character><reasoning>a</reasoning><score>8</score><verdict>FAIL</verdict></character><style><score>6</score><reasoning>b</reasoning></style>", wantErr: "a verdict in <character><verdict>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseAxes(tc.answer, names)
			checkParse(t, got, err, tc.want, tc.wantErr)
		})
	}
}

func TestParsePreference(t *testing.T) {
	for _, tc := range []struct {
		name    string
		answer  string
		want    Preference
		wantErr string
	}{
		{name: "A", answer: `{"reasoning": "A gives the date", "winner": "A"}`, want: Preference{Choice: "A", Reasoning: "A gives the date"}},
		{name: "lower-case b", answer: `{"reasoning": "x", "winner": "b"}`, want: Preference{Choice: "B", Reasoning: "x"}},
		{name: "tie", answer: `{"reasoning": "x", "winner": "TIE"}`, want: Preference{Choice: "tie", Reasoning: "x"}},
		{name: "XML", answer: `<reasoning>x</reasoning><winner>A</winner>`, want: Preference{Choice: "A", Reasoning: "x"}},
		{name: "neither", answer: `{"reasoning": "x", "winner": "both"}`, wantErr: `"winner" is "both", want "A", "B" or "tie"`},
		{name: "a number", answer: `{"reasoning": "x", "winner": 1}`, wantErr: `"winner" is a number, want text`},
		{name: "missing", answer: `{"reasoning": "x"}`, wantErr: `"winner" is missing`},
		{name: "a second choice in another field", answer: `{"reasoning": "x", "winner": "A", "better": "B"}`, wantErr: `a verdict in "better": give the verdict once, only as "winner"`},
		{name: "JSON and XML that differ", answer: `<reasoning>x</reasoning><winner>B</winner> {"reasoning": "x", "winner": "A"}`, wantErr: "two different verdicts"},
		{name: "two objects that differ", answer: `{"reasoning": "x", "winner": "A"} {"reasoning": "x", "winner": "tie"}`, wantErr: "two different verdicts (2 JSON objects)"},
		{name: "the same choice in two cases", answer: `{"reasoning": "x", "winner": "A"}` + "\n```json\n" + `{"reasoning": "x", "winner": "a"}` + "\n```", want: Preference{Choice: "A", Reasoning: "x"}},
		{name: "a choice in the prose", answer: `Winner: B. {"reasoning": "x", "winner": "A"}`, wantErr: `a verdict in the text around it ("Winner: B")`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parsePreference(tc.answer)
			checkParse(t, got, err, tc.want, tc.wantErr)
		})
	}
}

func TestParseFollowUp(t *testing.T) {
	for _, tc := range []struct {
		name    string
		answer  string
		want    FollowUpResult
		wantErr string
	}{
		{name: "a question", answer: `{"reasoning": "asks which listing", "needs_followup": true, "reply": "The Beach House."}`,
			want: FollowUpResult{NeedsFollowUp: true, Reply: "The Beach House.", Reasoning: "asks which listing"}},
		{name: "an answer", answer: `{"reasoning": "answers", "needs_followup": false, "reply": ""}`, want: FollowUpResult{Reasoning: "answers"}},
		{name: "the seed's format", answer: `{"needs_followup": false, "followup_response": ""}`, want: FollowUpResult{}},
		{name: "a reply without a follow-up is dropped", answer: `{"needs_followup": false, "reply": "x"}`, want: FollowUpResult{}},
		{name: "XML", answer: `<needs_followup>TRUE</needs_followup><reply>May 3rd.</reply>`, want: FollowUpResult{NeedsFollowUp: true, Reply: "May 3rd."}},
		{name: "a follow-up without a reply", answer: `{"needs_followup": true, "reply": ""}`, wantErr: `"reply" is empty: a follow-up needs the reply to give`},
		{name: "a string for the boolean", answer: `{"needs_followup": "yes", "reply": "x"}`, wantErr: `"needs_followup" is "yes", want true or false`},
		{name: "a number for the boolean", answer: `{"needs_followup": 1, "reply": "x"}`, wantErr: `"needs_followup" is a number`},
		{name: "nothing", answer: "Yes, it asks for clarification.", wantErr: "no JSON object"},
		{name: "a second decision in another field", answer: `{"needs_followup": false, "reply": "", "passed": false}`, wantErr: `a verdict in "passed"`},
		{name: "JSON and XML that differ", answer: `<needs_followup>true</needs_followup><reply>May.</reply> {"needs_followup": false, "reply": ""}`, wantErr: "two different verdicts"},
		{name: "the key in another case", answer: `{"needs_followup": false, "reply": "", "Needs_FollowUp": true}`, wantErr: `a verdict in "Needs_FollowUp"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseFollowUp(tc.answer)
			checkParse(t, got, err, tc.want, tc.wantErr)
		})
	}
}

func checkParse[V any](t *testing.T, got V, err error, want V, wantErr string) {
	t.Helper()
	if wantErr != "" {
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Errorf("error = %v, want one containing %q (got %+v)", err, wantErr, got)
		}
		return
	}
	if err != nil {
		t.Fatalf("error = %v, want none", err)
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(scored{}, rated{})); diff != "" {
		t.Errorf("parsed (-want +got):\n%s", diff)
	}
}
