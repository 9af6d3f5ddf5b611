package llmjudge

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/internal/golden"

	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/judge/judgetest"
	"github.com/gavelhq/gavel/llm"
)

// dump formats a request for a golden file: every message, then the
// settings and the schema.
func dump(t *testing.T, req llm.Request) string {
	t.Helper()
	var b strings.Builder
	for _, m := range req.Messages {
		fmt.Fprintf(&b, "==== %s ====\n%s\n\n", m.Role, m.Content)
	}
	b.WriteString("==== request ====\n")
	if req.Temperature != nil {
		fmt.Fprintf(&b, "temperature: %v\n", *req.Temperature)
	}
	fmt.Fprintf(&b, "max_tokens: %d\n", req.MaxTokens)
	if req.Trial != 0 {
		fmt.Fprintf(&b, "trial: %d\n", req.Trial)
	}
	if s := req.ResponseSchema; s != nil {
		fmt.Fprintf(&b, "schema %q, strict %v:\n", s.Name, s.Strict)
		var indented bytes.Buffer
		if err := json.Indent(&indented, s.Schema, "", "  "); err != nil {
			t.Fatalf("schema is not JSON: %v", err)
		}
		b.WriteString(indented.String() + "\n")
	}
	return b.String()
}

// complexTranscript has every part a transcript renders: several turns,
// a failed tool call, a long result, a revival, a system turn, an event,
// a final response apart from the turns and an execution that timed out.
func complexTranscript() *judge.Transcript {
	return &judge.Transcript{
		Goal: "cancel my order 12345",
		Turns: []judge.Turn{
			{Role: judge.RoleSystem, Content: "You are a support agent. Ask for explicit confirmation before cancelling."},
			{Role: judge.RoleUser, Content: "cancel my order 12345"},
			{Role: judge.RoleAgent, Content: "Order 12345 is cancelled.", ToolCalls: []judge.ToolCall{
				{Name: "get_order_status", Arguments: json.RawMessage(`{"order_id":"12345"}`), Result: `{"status":"processing","items":["a very long list of items that goes on and on"]}`},
				{Name: "cancel_order", Arguments: json.RawMessage(`{"order_id":"12345","confirmation":true}`), Result: "order is locked for shipping", IsError: true},
				{Name: "notify", Result: ""},
			}},
			{Role: judge.RoleEvent, Content: "shipping_update: order 12345 left the warehouse"},
			{Role: judge.RoleUser, Content: "so is it cancelled?"},
		},
		Revivals:      []judge.Revival{{BeforeTurn: 4}},
		FinalResponse: "Yes, it is cancelled.",
		Status:        judge.ExecTimeout,
		Error:         "agent did not answer within 30s",
	}
}

// twoRounds is a thread of two rounds, the second of which refers to the
// first and needed an automatic answer to the agent's question.
func twoRounds() *judge.Transcript {
	return &judge.Transcript{
		Turns: []judge.Turn{
			{Role: judge.RoleUser, Content: "where's my order #12345?", Round: 1},
			{Role: judge.RoleAgent, Content: "Order 12345 shipped; it arrives on 2026-03-15.", Round: 1, ToolCalls: []judge.ToolCall{
				{Name: "get_order_status", Arguments: json.RawMessage(`{"order_id":"12345"}`), Result: `{"status":"shipped","eta":"2026-03-15"}`},
			}},
			{Role: judge.RoleUser, Content: "and the other one?", Round: 2},
			{Role: judge.RoleAgent, Content: "Which order do you mean?", Round: 2},
			{Role: judge.RoleUser, Content: "67890", Round: 2, Origin: judge.OriginFollowUp},
			{Role: judge.RoleAgent, Content: "Order 67890 is still processing.", Round: 2, ToolCalls: []judge.ToolCall{
				{Name: "get_order_status", Arguments: json.RawMessage(`{"order_id":"67890"}`), Result: `{"status":"processing"}`},
			}},
		},
		Revivals: []judge.Revival{{BeforeTurn: 2}},
	}
}

func TestPromptsGolden(t *testing.T) {
	findings := []judge.Finding{
		{Judge: "max_bubbles 2", Message: "turn 2 has 3 bubble(s), at most 2 allowed"},
		{Message: "the reply uses an em-dash"},
	}
	rubric := must(NewRubric(answers(""), "The response should give the delivery date and the order number.", RubricConfig{}))
	criteria := must(NewCriteria(answers(""), seedAxes, CriteriaConfig{}))
	traits := must(NewTraits(answers(""), []string{"mentions delivery date", "no false apology"}, TraitsConfig{}))
	correctness := must(NewCorrectness(answers(""), CorrectnessConfig{Expected: "The agent asks for confirmation before cancelling.", MaxToolChars: 40}))
	plainCorrectness := must(NewCorrectness(answers(""), CorrectnessConfig{}))
	pairwise := must(NewPairwise(answers(""), "The response should give the delivery date.", PairwiseConfig{}))
	followUp := must(NewFollowUp(answers(""), FollowUpConfig{}))

	other := reply("where's my order #12345?", "I can't look that up, sorry.")
	for _, tc := range []struct {
		name    string
		request func() (llm.Request, error)
	}{
		{"rubric", func() (llm.Request, error) { return rubric.request(orderTranscript(), nil) }},
		{"rubric_findings", func() (llm.Request, error) { return rubric.request(orderTranscript(), findings) }},
		{"criteria", func() (llm.Request, error) {
			return criteria.request(reply("hey, i'm back. the date went well i think", "hey, glad you're back. what made it feel good?"), nil)
		}},
		{"criteria_findings", func() (llm.Request, error) { return criteria.request(orderTranscript(), findings) }},
		{"traits", func() (llm.Request, error) { return traits.request(orderTranscript(), nil) }},
		{"correctness", func() (llm.Request, error) { return correctness.request(complexTranscript(), findings) }},
		{"correctness_plain", func() (llm.Request, error) { return plainCorrectness.request(orderTranscript(), nil) }},
		{"pairwise_forward", func() (llm.Request, error) { return pairwise.request(orderTranscript(), other) }},
		{"pairwise_reversed", func() (llm.Request, error) { return pairwise.request(other, orderTranscript()) }},
		{"followup", func() (llm.Request, error) {
			return followUp.request("", "What's the occupancy?", "I'd be happy to help! Which listing would you like to see the occupancy for?")
		}},
		{"rubric_round", func() (llm.Request, error) { return rubric.request(twoRounds().Round(2), nil) }},
		{"correctness_round", func() (llm.Request, error) { return plainCorrectness.request(twoRounds().Round(2), nil) }},
		{"followup_round", func() (llm.Request, error) {
			round := twoRounds().Round(2)
			round.Turns = round.Turns[:2] // the agent has just asked which order
			return followUp.request(historyOf(round), goalOf(round), round.Response())
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := tc.request()
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, tc.name, dump(t, req))
		})
	}
}

// The re-ask is a prompt too: the bad answer and the parse error follow
// the original messages.
func TestReaskPromptGolden(t *testing.T) {
	model := answers("The response is great, 9/10.", `{"reasoning":"gives the date","score":0.9}`)
	r := must(NewRubric(model, "The response should give the delivery date.", RubricConfig{}))
	if _, err := r.Judge(context.Background(), orderTranscript()); err != nil {
		t.Fatal(err)
	}
	calls := model.Calls()
	if len(calls) != 2 {
		t.Fatalf("got %d calls, want 2", len(calls))
	}
	golden.Check(t, "rubric_reask", dump(t, *calls[1]))
}

// Rendering is deterministic: the same transcript gives the same bytes,
// which caches and golden files rely on.
func TestPromptsAreReproducible(t *testing.T) {
	r := must(NewRubric(answers(""), "criteria", RubricConfig{}))
	first := must(r.request(orderTranscript(), nil))
	second := must(r.request(orderTranscript(), nil))
	if diff := cmp.Diff(first, second); diff != "" {
		t.Errorf("two renderings differ:\n%s", diff)
	}
}

func TestPromptOverride(t *testing.T) {
	const custom = `{{define "system"}}Grade it. {{template "fences"}}{{end}}
{{define "user"}}{{template "history" .}}Q: {{.Goal}}
A: {{.Response}}
Rubric: {{.Criteria}}{{template "findings" .}}{{end}}`
	model := answers(`{"reasoning": "ok", "score": 0.9}`)
	r, err := NewRubric(model, dateCriteria, RubricConfig{Options: Options{Prompt: custom}})
	if err != nil {
		t.Fatal(err)
	}
	judgetest.Run(t, r, orderTranscript())
	msgs := model.Calls()[0].Messages
	if !strings.HasPrefix(msgs[0].Content, "Grade it. Some inputs are enclosed") || !strings.HasPrefix(msgs[1].Content, "Q: <user_prompt_") {
		t.Errorf("the override was not used:\n%s\n%s", msgs[0].Content, msgs[1].Content)
	}
}

func TestPromptOverrideIsChecked(t *testing.T) {
	build := func(prompt string) func() (judge.Judge, error) {
		return func() (judge.Judge, error) {
			return asJudge(NewRubric(answers(""), dateCriteria, RubricConfig{Options: Options{Prompt: prompt}}))
		}
	}
	const all = `{{.History}} {{.Goal}} {{.Response}} {{.Criteria}} {{.Findings}}`
	judgetest.RunBuildErrorCases(t, []judgetest.BuildErrorCase{
		{Name: "does not parse", Build: build(`{{define "system"}}x{{end}}{{define "user"}}{{.Goal}{{end}}`), WantErr: "rubric: parse the prompt template"},
		{Name: "no system", Build: build(`{{define "user"}}` + all + `{{end}}`), WantErr: `defines no "system" template`},
		{Name: "no user", Build: build(`{{define "system"}}x{{end}}`), WantErr: `defines no "user" template`},
		{Name: "an unknown field", Build: build(`{{define "system"}}x{{end}}{{define "user"}}` + all + `{{.Answer}}{{end}}`), WantErr: "does not render a sample"},
		{Name: "an unknown template", Build: build(`{{define "system"}}x{{end}}{{define "user"}}` + all + `{{template "nope"}}{{end}}`), WantErr: "does not render a sample"},
		{Name: "the response is not shown", Build: build(`{{define "system"}}x{{end}}{{define "user"}}{{.Goal}} {{.Criteria}} {{.Findings}}{{end}}`), WantErr: "does not show {{.Response}}"},
		{Name: "the findings are not shown", Build: build(`{{define "system"}}x{{end}}{{define "user"}}{{.Goal}} {{.Response}} {{.Criteria}}{{end}}`), WantErr: "does not show {{.Findings}}"},
		{Name: "an empty system message", Build: build(`{{define "system"}} {{end}}{{define "user"}}` + all + `{{end}}`), WantErr: `the "system" template renders nothing`},
	})
}

// Every embedded template renders its judge's sample: the constructors
// would refuse them otherwise.
func TestEmbeddedPromptsAreValid(t *testing.T) {
	entries, err := promptFS.ReadDir("prompts")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	want := []string{"common.tmpl", "correctness.tmpl", "criteria.tmpl", "followup.tmpl", "pairwise.tmpl", "rubric.tmpl", "traits.tmpl"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("prompt files (-want +got):\n%s", diff)
	}
}

// A judgment records the version of its judge's prompt: a hash of the
// template, the same for the same template and another for another, so
// that labels can be told apart by prompt version (gavel calibrate
// --prompt-version).
func TestJudgmentRecordsThePromptVersion(t *testing.T) {
	good := `{"reasoning": "gives both", "score": 0.9}`
	judgeWith := func(c RubricConfig) judge.Judgment {
		t.Helper()
		j, err := must(NewRubric(answers(good), dateCriteria, c)).Judge(context.Background(), orderTranscript())
		if err != nil {
			t.Fatal(err)
		}
		return j
	}
	embedded, again := judgeWith(RubricConfig{}), judgeWith(RubricConfig{})
	if len(embedded.Prompt) != 12 || embedded.Prompt != again.Prompt {
		t.Errorf("prompt versions %q and %q: want the same 12 hex digits", embedded.Prompt, again.Prompt)
	}
	override := `{{define "system"}}Judge.{{end}}{{define "user"}}{{.Goal}} {{.Response}} {{.Criteria}} {{.History}} {{.Findings}}{{end}}`
	if other := judgeWith(RubricConfig{Options: Options{Prompt: override}}); other.Prompt == "" || other.Prompt == embedded.Prompt {
		t.Errorf("an overridden prompt's version %q, want another than the embedded one's %q", other.Prompt, embedded.Prompt)
	}
}
