package spec

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/llmtest"
)

// judgeWith builds item (a judge as YAML) and judges a transcript whose
// final response is reply.
func judgeWith(t *testing.T, item, reply string, model llm.Model) judge.Judgment {
	t.Helper()
	b, err := openItemWith(t, item, model)
	if err != nil {
		t.Fatalf("%s\ndoes not build: %v", item, err)
	}
	defer b.Close()
	tr := &judge.Transcript{Goal: "hi", Turns: []judge.Turn{{Role: judge.RoleUser, Content: "hi"}, {Role: judge.RoleAgent, Content: reply}}}
	return judge.Run(context.Background(), b.Suite.Cases[0].Judge, tr)
}

// TestKindsJudge judges with kinds the suite file could not name before
// the registry, as a suite file writes them.
func TestKindsJudge(t *testing.T) {
	for _, tc := range []struct {
		name, item, reply string
		model             llm.Model
		want              judge.Status
		wantIn            string
	}{
		{name: "a placeholder leaks", item: "no_placeholders: true", reply: "Hi {first_name}, your order shipped.", want: judge.StatusFail, wantIn: "{first_name}"},
		{name: "no placeholder", item: "no_placeholders: true", reply: "Hi Dana, your order shipped.", want: judge.StatusPass},
		{name: "starts_with", item: "starts_with: Hi", reply: "Hi there", want: judge.StatusPass},
		{name: "length too long", item: "length: {max: 5}", reply: "far too long", want: judge.StatusFail},
		{name: "json_schema inline", item: "json_schema: {type: object, required: [id]}", reply: `{"id": 1}`, want: judge.StatusPass},
		{name: "json_schema missing field", item: "json_schema: {type: object, required: [id]}", reply: `{"name": 1}`, want: judge.StatusFail},
		{name: "not", item: "not: {contains: sorry}", reply: "sorry!", want: judge.StatusFail},
		{name: "any", item: "any: [{contains: refund}, {contains: credit}]", reply: "store credit", want: judge.StatusPass},
		{name: "weighted partial credit passes", item: "weighted: [{weight: 3, judge: {contains: a}}, {weight: 1, judge: {contains: zzz}}]\nthreshold: 0.7", reply: "a", want: judge.StatusPass},
		{name: "weighted partial credit fails", item: "weighted: [{weight: 1, judge: {contains: a}}, {weight: 3, judge: {contains: zzz}}]\nthreshold: 0.7", reply: "a", want: judge.StatusFail},
		{name: "a jury of rules, a tie that passes", item: "jury: {jurors: [{contains: a}, {contains: zzz}], ties: pass}", reply: "a", want: judge.StatusPass},
		{name: "a jury of rules, a tie that fails", item: "jury: {jurors: [{contains: a}, {contains: zzz}]}", reply: "a", want: judge.StatusFail},
		{name: "max_tool_calls", item: "max_tool_calls: 0", reply: "a", want: judge.StatusPass},
		{name: "a name", item: "contains: a\nname: says a", reply: "a", want: judge.StatusPass, wantIn: ""},
		{
			name: "pairwise against a baseline", item: "pairwise: {criteria: gives the date, baseline: It ships soon.}", reply: "It ships on 3 May.",
			model: &llmtest.Scripted{Rules: []llmtest.Rule{{Respond: func(req *llm.Request) (llmtest.Rule, bool) {
				// The response with the date wins in either order.
				last := req.Messages[len(req.Messages)-1].Content
				if strings.Index(last, "3 May") < strings.Index(last, "ships soon") {
					return llmtest.Rule{Text: `{"reasoning": "has the date", "winner": "A"}`}, true
				}
				return llmtest.Rule{Text: `{"reasoning": "has the date", "winner": "B"}`}, true
			}}}},
			want: judge.StatusPass, wantIn: "better than the baseline",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := judgeWith(t, tc.item, tc.reply, tc.model)
			if got.Status != tc.want || !strings.Contains(got.Reasoning, tc.wantIn) {
				t.Errorf("got %s: %s\nwant %s with %q", got.Status, got.Reasoning, tc.want, tc.wantIn)
			}
		})
	}
}

// TestCriteriaKeepTheirOrder checks that the axes are asked about and
// reported in the order written, and min_mean and min_axis decide.
func TestCriteriaKeepTheirOrder(t *testing.T) {
	model := &llmtest.Scripted{Rules: []llmtest.Rule{{Text: `{"zeal": {"reasoning": "ok", "score": 9}, "accuracy": {"reasoning": "ok", "score": 6}}`}}}
	got := judgeWith(t, "criteria: {zeal: 'Is it keen?', accuracy: 'Is it right?'}\nmin_mean: 7\nmin_axis: 6", "a", model)
	if got.Status != judge.StatusPass {
		t.Fatalf("got %s: %s", got.Status, got.Reasoning)
	}
	var names []string
	for _, p := range got.Parts {
		names = append(names, p.Name)
	}
	if strings.Join(names, ",") != "zeal,accuracy" {
		t.Errorf("axes reported as %v, want zeal, accuracy", names)
	}
	got = judgeWith(t, "criteria: {zeal: 'Is it keen?', accuracy: 'Is it right?'}\nmin_axis: 7", "a", model)
	if got.Status != judge.StatusFail {
		t.Errorf("an axis below min_axis: got %s: %s", got.Status, got.Reasoning)
	}
}

// TestTiersFollowTheKind checks that a judge runs in its tier whatever
// list names it: an LLM judge under rules: is not asked when a rule fails.
func TestTiersFollowTheKind(t *testing.T) {
	model := &llmtest.Scripted{Rules: []llmtest.Rule{{Text: `{"reasoning": "fine", "score": 1}`}}}
	dir := t.TempDir()
	suite := `agent: {exec: {command: [cat]}}
models: {judge: 'fake:judge'}
cases:
  - id: a
    input: hi
    rules:
      - rubric: Is it fine?
      - contains: refund
`
	if err := os.WriteFile(filepath.Join(dir, "gavel.yaml"), []byte(suite), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := Open(dir, registryEnv(model))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	tr := &judge.Transcript{Turns: []judge.Turn{{Role: judge.RoleUser, Content: "hi"}, {Role: judge.RoleAgent, Content: "no"}}}
	if got := judge.Run(context.Background(), b.Suite.Cases[0].Judge, tr); got.Status != judge.StatusFail {
		t.Errorf("got %s, want FAIL", got.Status)
	}
	if n := len(model.Calls()); n != 0 {
		t.Errorf("the model was asked %d times after a rule failed", n)
	}
}

func TestItemProblems(t *testing.T) {
	for _, tc := range []struct{ name, item, want string }{
		{"a kind without a value", "contains:", `gavel.yaml:7:18: contains: no value given`},
		{"soft on an LLM judge", "rubric: fine?\nsoft: true", `gavel.yaml:7:9: case a: the case: judges[0] (rubric): soft is for judges that ask no model`},
		{"soft on a composite with an LLM judge", "any: [{rubric: 'fine?'}, {contains: a}]\nsoft: true", `judges[0] (any): soft is for judges that ask no model`},
		{"a wrong type, at its place", "max_questions: many", `gavel.yaml:7:24: cases[0].judges[0].max_questions: want a whole number, got a string ("many")`},
		{"an unknown field of a nested judge", "not: {contains: a, ignore_caes: true}", `gavel.yaml:7:28: unknown field "ignore_caes" in a contains judge: did you mean "ignore_case"?`},
		{"a bad part of a composite", "all: [{contains: a}, {regex: '('}]", `judges[0] (all): all[1] (regex): regex "(": error parsing regexp`},
		{"false flags", "valid_json: false", `valid_json: false checks nothing`},
		{"a kind's setting alone", "ignore_case: true", `unknown kind of judge "ignore_case"`},
		{"a missing schema file", "json_schema: nowhere.json", `json_schema: reading the schema`},
		{"weights and parts", "weighted: []", `weighted: no parts`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := openItem(t, tc.item)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v\nwant a problem with %q", err, tc.want)
			}
		})
	}
}

// TestEachTurnJudgesEveryTurn checks that each_turn asks the judge about
// every agent turn, and fails the case on one bad turn.
func TestEachTurnJudgesEveryTurn(t *testing.T) {
	b, err := openItem(t, "each_turn: {max_questions: 0}")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	tr := &judge.Transcript{Turns: []judge.Turn{
		{Role: judge.RoleUser, Content: "hey"}, {Role: judge.RoleAgent, Content: "what's up?"},
		{Role: judge.RoleUser, Content: "nm"}, {Role: judge.RoleAgent, Content: "cool."},
	}}
	got := judge.Run(context.Background(), b.Suite.Cases[0].Judge, tr)
	if got.Status != judge.StatusFail || !strings.Contains(got.Reasoning, "turn 1") {
		t.Errorf("got %s: %s", got.Status, got.Reasoning)
	}
}

// TestEveryCase checks that every case gets the suite's every_case
// judges, written inline or kept in a file, and that a mistake in that
// file is reported where it is.
func TestEveryCase(t *testing.T) {
	write := func(t *testing.T, files map[string]string) string {
		dir := t.TempDir()
		for name, content := range files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	const cases = "cases:\n  - {id: a, input: hi}\n  - {id: b, input: hey, rules: [{contains: hi}]}\n"
	for name, files := range map[string]map[string]string{
		"inline": {"gavel.yaml": "agent: {exec: {command: [cat]}}\nevery_case:\n  rules: [{no_placeholders: true}, {max_questions: 0}]\n" + cases},
		"a file": {
			"gavel.yaml": "agent: {exec: {command: [cat]}}\nevery_case: style.yaml\n" + cases,
			"style.yaml": "# Ori's style: the prompts read this file too.\nrules:\n  - no_placeholders: true\n  - max_questions: 0\n",
		},
	} {
		t.Run(name, func(t *testing.T) {
			b, err := Open(write(t, files), registryEnv(nil))
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			leak := &judge.Transcript{Turns: []judge.Turn{{Role: judge.RoleUser, Content: "hi"}, {Role: judge.RoleAgent, Content: "hi {name}"}}}
			for _, c := range b.Suite.Cases {
				if got := judge.Run(context.Background(), c.Judge, leak); got.Status != judge.StatusFail || !strings.Contains(got.Reasoning, "{name}") {
					t.Errorf("case %s: got %s: %s", c.ID, got.Status, got.Reasoning)
				}
				if !strings.Contains(c.Expected, "every case: no_placeholders") && !strings.Contains(c.Expected, "every case: the 2 judges of style.yaml") {
					t.Errorf("case %s expects %q", c.ID, c.Expected)
				}
			}
		})
	}
	_, err := Open(write(t, map[string]string{
		"gavel.yaml": "agent: {exec: {command: [cat]}}\nevery_case: style.yaml\n" + cases,
		"style.yaml": "rules:\n  - no_placeholder: true\n  - max_bubbles: many\n",
	}), registryEnv(nil))
	for _, want := range []string{`style.yaml:2:5: unknown kind of judge "no_placeholder": did you mean "no_placeholders"?`, `style.yaml:3:18: rules[1].max_bubbles: want a whole number, got a string ("many")`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v\nwant %s", err, want)
		}
	}
	_, err = Open(write(t, map[string]string{"gavel.yaml": "agent: {exec: {command: [cat]}}\nevery_case: nowhere.yaml\n" + cases}), registryEnv(nil))
	if err == nil || !strings.Contains(err.Error(), "gavel.yaml:2: every_case: cannot read nowhere.yaml") {
		t.Errorf("got %v", err)
	}
}

// TestItemValuesKeepTheirMeaning refuses what yaml would change without a
// word, and says what is wrong in the words of the format.
func TestItemValuesKeepTheirMeaning(t *testing.T) {
	for _, tc := range []struct{ item, want string }{
		{"max_questions: 1.5", `cases[0].judges[0].max_questions: want a whole number, got a number (1.5)`},
		{"criteria: [a, b]", `criteria[0]: an axis of the list is {name: ..., description: ...}`},
	} {
		_, err := openItem(t, tc.item)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "struct {") {
			t.Errorf("%s: got %v\nwant a problem with %q", tc.item, err, tc.want)
		}
	}
	if _, err := openItem(t, "max_questions: 2.0"); err != nil {
		t.Errorf("max_questions: 2.0 is a whole number: %v", err)
	}
}
