package spec_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/llmtest"
	"github.com/gavelhq/gavel/spec"
)

// testEnv opens models offline: "script:" files (relative to the suite)
// and "fake:" models that answer nothing.
func testEnv() spec.Env {
	return spec.Env{Registry: llm.Registry{
		"script": llmtest.OpenScript,
		"fake": func(llm.Ref, func(string) string) (llm.Model, error) {
			return &llmtest.Scripted{}, nil
		},
	}}
}

// header starts the suites of TestOpenProblems: an agent, a judge model,
// and cases from line 4 on.
const header = agentYAML + "models: {judge: 'fake:judge'}\ncases:\n"

func TestOpenProblems(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{
			name: "case id used twice, inline and in a file",
			files: map[string]string{
				"gavel.yaml": header + `  - {id: a, input: hi, expected_tools: [x]}
  - cases.jsonl
`,
				"cases.jsonl": `{"id": "b", "input": "hi", "expected_tools": ["x"]}
{"id": "a", "input": "hello", "expected_tools": ["x"]}
`,
			},
			want: []string{`cases.jsonl:2: case id "a" is used twice: first at gavel.yaml:4`},
		},
		{
			name: "case id used twice in one file",
			files: map[string]string{
				"gavel.yaml": header + "  - cases.yaml\n",
				"cases.yaml": "- {id: a, input: hi, expected_tools: [x]}\n- {id: a, input: hi, expected_tools: [y]}\n",
			},
			want: []string{`cases.yaml:2: case id "a" is used twice: first at cases.yaml:1`},
		},
		{
			name:  "suite threshold above 1",
			files: map[string]string{"gavel.yaml": "threshold: 1.5\n" + header + "  - {id: a, input: hi, expected_tools: [x]}\n"},
			want:  []string{"gavel.yaml:1:1: threshold 1.5 is out of range"},
		},
		{
			name:  "suite threshold 0",
			files: map[string]string{"gavel.yaml": "threshold: 0\n" + header + "  - {id: a, input: hi, expected_tools: [x]}\n"},
			want:  []string{"gavel.yaml:1:1: threshold 0 is out of range"},
		},
		{
			name:  "judge_threshold above 1",
			files: map[string]string{"gavel.yaml": header + "  - {id: a, input: hi, judge_prompt: be nice, judge_threshold: 1.5}\n"},
			want:  []string{"gavel.yaml:4: case a: the case: judge_prompt: threshold 1.5 is out of range"},
		},
		{
			name: "judge_threshold of a round below 0",
			files: map[string]string{"gavel.yaml": header + `  - id: a
    rounds:
      - {prompt: hi, expected_tools: [x]}
      - {prompt: again, judge_prompt: be nice, judge_threshold: -0.5}
`},
			want: []string{"gavel.yaml:4: case a: round 2: judge_prompt: threshold -0.5 is out of range"},
		},
		{
			name:  "judge threshold above 1",
			files: map[string]string{"gavel.yaml": header + "  - {id: a, input: hi, judges: [{rubric: be nice, threshold: 2}]}\n"},
			want:  []string{"gavel.yaml:4:33: case a: the case: judges[0] (rubric): threshold 2 is out of range"},
		},
		{
			name:  "judge_threshold without judge_prompt",
			files: map[string]string{"gavel.yaml": header + "  - {id: a, input: hi, expected_tools: [x], judge_threshold: 0.5}\n"},
			want:  []string{"gavel.yaml:4: case a: the case: judge_threshold without judge_prompt"},
		},
		{
			name: "unknown rule kind",
			files: map[string]string{"gavel.yaml": header + `  - id: a
    input: hi
    rules: [{contanis: x}]
`},
			want: []string{`gavel.yaml:6:14: unknown kind of judge "contanis": did you mean "contains"?`},
		},
		{
			name: "rules that are wrong",
			files: map[string]string{"gavel.yaml": header + `  - id: a
    input: hi
    rules:
      - {}
      - {contains: a, regex: b}
      - {regex: '('}
      - {max_latency: soon}
      - {contains: a, scope: everywhere}
`},
			want: []string{
				"gavel.yaml:7:9: no kind of judge given: give one kind's key, such as contains",
				"gavel.yaml:8:9: one judge per item: this one gives contains and regex; write them as separate items",
				`gavel.yaml:9:9: case a: the case: rules[2] (regex): regex "(": error parsing regexp`,
				`gavel.yaml:10:9: case a: the case: rules[3] (max_latency): max_latency "soon": want a duration such as 5s`,
				`gavel.yaml:11:9: case a: the case: rules[4] (contains): contains "a": unknown scope "everywhere"`,
			},
		},
		{
			name: "unknown judge kind",
			files: map[string]string{"gavel.yaml": header + `  - id: a
    input: hi
    judges: [{rubrik: be nice}]
`},
			want: []string{`gavel.yaml:6:15: unknown kind of judge "rubrik": did you mean "rubric"?`},
		},
		{
			name: "judges that are wrong",
			files: map[string]string{"gavel.yaml": header + `  - id: a
    input: hi
    judges:
      - {}
      - {rubric: be nice, traits: [polite]}
      - {jury: {jurors: [{rubric: be nice}], strategy: loudest}}
`},
			want: []string{
				"gavel.yaml:7:9: no kind of judge given: give one kind's key",
				"gavel.yaml:8:9: one judge per item: this one gives rubric and traits",
				`gavel.yaml:9:9: case a: the case: judges[2] (jury): jury: unknown strategy "loudest"`,
			},
		},
		{
			name:  "unknown model provider",
			files: map[string]string{"gavel.yaml": agentYAML + "models: {judge: 'nope:judge'}\ncases:\n  - {id: a, input: hi, judge_prompt: be nice}\n"},
			want: []string{
				`gavel.yaml:2:10: models.judge: unknown model provider "nope" in "nope:judge": known are fake, script`,
				`gavel.yaml:4: case a: judge model: unknown model provider "nope" in "nope:judge": known are fake, script`,
			},
		},
		{
			name:  "missing model script",
			files: map[string]string{"gavel.yaml": agentYAML + "models: {judge: 'script:models/judge.yaml'}\ncases:\n  - {id: a, input: hi, judge_prompt: be nice}\n"},
			want:  []string{"gavel.yaml:2:10: models.judge: model script: open models/judge.yaml: no such file or directory"},
		},
		{
			name:  "no judge model",
			files: map[string]string{"gavel.yaml": agentYAML + "cases:\n  - {id: a, input: hi, judge_prompt: be nice}\n"},
			want:  []string{"gavel.yaml:3: case a: judge model: no model: set models.judge in the suite"},
		},
		{
			name:  "no agent",
			files: map[string]string{"gavel.yaml": "cases:\n  - {id: a, input: hi, expected_tools: [x]}\n"},
			want:  []string{"gavel.yaml: no agent: say which agent to test under agent:"},
		},
		{
			name:  "agent of no kind",
			files: map[string]string{"gavel.yaml": "agent: {}\ncases:\n  - {id: a, input: hi, expected_tools: [x]}\n"},
			want:  []string{"gavel.yaml:1:1: agent: say which kind: builtin, http, exec or go"},
		},
		{
			name:  "agent of two kinds",
			files: map[string]string{"gavel.yaml": "agent: {exec: {command: [cat]}, http: {url: 'http://127.0.0.1:1'}}\ncases:\n  - {id: a, input: hi, expected_tools: [x]}\n"},
			want:  []string{"gavel.yaml:1:1: agent: give one kind of agent: builtin, http, exec or go"},
		},
		{
			name:  "no cases",
			files: map[string]string{"gavel.yaml": agentYAML + "cases: []\n"},
			want:  []string{"gavel.yaml: the suite has no cases: list them under cases:"},
		},
		{
			name:  "case without id or name",
			files: map[string]string{"gavel.yaml": header + "  - {input: hi, expected_tools: [x]}\n"},
			want:  []string{"gavel.yaml:4: case (no id): the case has no id"},
		},
		{
			name: "a seed's name stands for its id",
			files: map[string]string{"gavel.yaml": header + "  - {name: lookup, input: hi, expected_tools: [x]}\n" +
				"  - {name: lookup, input: again, expected_tools: [x]}\n"},
			want: []string{`gavel.yaml:5: case id "lookup" is used twice: first at gavel.yaml:4`},
		},
		{
			name:  "nothing to say",
			files: map[string]string{"gavel.yaml": header + "  - {id: a, expected_tools: [x]}\n"},
			want:  []string{"gavel.yaml:4: case a: nothing to say to the agent: give input (or prompt), rounds or a persona"},
		},
		{
			name:  "input and prompt differ",
			files: map[string]string{"gavel.yaml": header + "  - {id: a, input: hi, prompt: hello, expected_tools: [x]}\n"},
			want:  []string{"gavel.yaml:4: case a: input and prompt say different things"},
		},
		{
			name:  "input and rounds",
			files: map[string]string{"gavel.yaml": header + "  - {id: a, input: hi, rounds: [{prompt: hi}], expected_tools: [x]}\n"},
			want:  []string{"gavel.yaml:4: case a: give one of input (or prompt), rounds and persona, not several"},
		},
		{
			name:  "nothing to judge",
			files: map[string]string{"gavel.yaml": header + "  - {id: a, input: hi}\n"},
			want:  []string{"gavel.yaml:4: case a: nothing to judge: give expected_tool_calls, "},
		},
		{
			name:  "unknown tool_call_order",
			files: map[string]string{"gavel.yaml": header + "  - {id: a, input: hi, expected_tool_calls: [{name: x}], tool_call_order: random}\n"},
			want:  []string{`gavel.yaml:4: case a: the case: expected_tool_calls: tool_call_order "random": want strict, any or subset`},
		},
		{
			name:  "tool_call_order without expected_tool_calls",
			files: map[string]string{"gavel.yaml": header + "  - {id: a, input: hi, expected_tools: [x], tool_call_order: any}\n"},
			want:  []string{"gavel.yaml:4: case a: the case: tool_call_order without expected_tool_calls"},
		},
		{
			name:  "tool_error_result invalid beside forbidden_tools",
			files: map[string]string{"gavel.yaml": header + "  - {id: a, input: hi, forbidden_tools: [x], tool_error_result: '('}\n"},
			want:  []string{"gavel.yaml:4: case a: the case: tool_error_result: error parsing regexp"},
		},
		{
			name:  "tool_error_result without a tool rule",
			files: map[string]string{"gavel.yaml": header + "  - {id: a, input: hi, tool_error_result: '^Error:', rules: [{contains: x}]}\n"},
			want:  []string{"gavel.yaml:4: case a: the case: tool_error_result without expected_tools, forbidden_tools, expected_tool_calls or forbidden_tool_calls"},
		},
		{
			name:  "args and arguments",
			files: map[string]string{"gavel.yaml": header + "  - {id: a, input: hi, expected_tool_calls: [{name: x, args: {a: 1}, arguments: {a: 1}}]}\n"},
			want:  []string{"gavel.yaml:4: case a: the case: expected_tool_calls: call 1 gives both args and arguments"},
		},
		{
			name:  "first round revives",
			files: map[string]string{"gavel.yaml": header + "  - {id: a, rounds: [{prompt: hi, revive: true}], expected_tools: [x]}\n"},
			want:  []string{"gavel.yaml:4: case a: round 1: the first round cannot revive the session"},
		},
		{
			name:  "hints without a model",
			files: map[string]string{"gavel.yaml": agentYAML + "cases:\n  - {id: a, input: hi, hints: [order 1], expected_tools: [x]}\n"},
			want:  []string{"gavel.yaml:3: case a: hints need a model to notice the agent's questions"},
		},
		{
			name:  "bad timeout",
			files: map[string]string{"gavel.yaml": "timeout: soon\n" + header + "  - {id: a, input: hi, expected_tools: [x]}\n"},
			want:  []string{`gavel.yaml:1:1: timeout "soon": want a positive duration such as 90s or 5m`},
		},
		{
			name:  "negative trials",
			files: map[string]string{"gavel.yaml": "trials: -1\n" + header + "  - {id: a, input: hi, expected_tools: [x], trials: -2}\n"},
			want: []string{
				"gavel.yaml:1:1: trials -1: the times each case runs cannot be negative",
				"gavel.yaml:5: case a: trials -2 is negative",
			},
		},
		{
			name: "a suite field's problem, at the field",
			files: map[string]string{"gavel.yaml": `agent:
  builtin:
    model: 'fake:agent'
    mcp:
      - {name: tools, command: [cat]}
      - {url: 'http://127.0.0.1:1/mcp', transport: websocket}
models: {judge: 'fake:judge'}
cases:
  - {id: a, input: hi, expected_tools: [x]}
`},
			want: []string{`gavel.yaml:6:41: agent.builtin.mcp[1].transport "websocket"`},
		},
		{
			name:  "empty setup step and check",
			files: map[string]string{"gavel.yaml": header + "  - {id: a, input: hi, expected_tools: [x], setup: [{}], checks: [{}]}\n"},
			want: []string{
				"gavel.yaml:4: case a: setup step 1: no step given: use sql or command",
				"gavel.yaml:4:67: no kind of judge given: give one kind's key, such as contains",
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := suiteDir(t, tc.files)
			env := testEnv()
			env.DryRun = true
			b, err := spec.Open(dir, env)
			if b != nil {
				t.Errorf("got a built suite along with the problems")
			}
			hasProblems(t, dir, err, tc.want...)
		})
	}
}

// TestOpenReportsEveryProblem checks that the problems of loading and
// of building come together, in file and line order, and that nothing is
// built.
func TestOpenReportsEveryProblem(t *testing.T) {
	dir := suiteDir(t, map[string]string{
		"gavel.yaml": `name: broken
threshold: 1.5
agent:
  exec: {command: [cat]}
models: {judge: 'fake:judge'}
cases:
  - id: a
    input: hi
    judge_treshold: 0.7
    judge_prompt: be nice
  - id: a
    input: hello
    expected_tools: [x]
  - id: b
    input: hi
    rules: [{contains: x, regex: y}]
  - cases/*.jsonl
  - missing/*.yaml
`,
		"cases/more.jsonl": `{"id": "c", "input": "hi", "expected_tools": ["x"], "judge_threshold": 1.5, "judge_prompt": "be nice"}
{"id": "d", "input": "hi", "expected_tool_calls": [{"name": "x"}], "tool_call_order": "sometimes"}
`,
	})
	env := testEnv()
	env.DryRun = true
	b, err := spec.Open(dir, env)
	if b != nil {
		t.Errorf("got a built suite along with the problems")
	}
	hasProblems(t, dir, err,
		"cases/more.jsonl:1: case c: the case: judge_prompt: threshold 1.5 is out of range",
		`cases/more.jsonl:2: case d: the case: expected_tool_calls: tool_call_order "sometimes": want strict, any or subset`,
		"gavel.yaml:2:1: threshold 1.5 is out of range",
		`gavel.yaml:9:5: unknown field "judge_treshold" in a case: did you mean "judge_threshold"?`,
		`gavel.yaml:11: case id "a" is used twice: first at gavel.yaml:7`,
		"gavel.yaml:16:13: one judge per item: this one gives contains and regex",
		`gavel.yaml:18: cases "missing/*.yaml" match no file`,
	)
	var problems spec.Problems
	errors.As(err, &problems)
	sorted := slices.IsSortedFunc(problems, func(a, b spec.Problem) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return a.Column - b.Column
	})
	if !sorted {
		t.Errorf("problems out of file and line order:\n%s", strings.Join(problemLines(t, dir, err), "\n"))
	}
}

// judgeScript plays the LLM judges of TestBuildSeedSchemas: traits pass
// when the response gives a date, rubrics score 0.8 when the response
// gives the address (not an earlier round: the history) and 0.6
// otherwise.
const judgeScript = `name: judge
rules:
  - when: {system: 'traits a good response', text: '2026-03-15'}
    text: '{"reasoning": "Gives the delivery date, no apology.", "score": 3}'
  - when: {system: 'traits a good response'}
    text: '{"reasoning": "No date.", "score": 1}'
  - when: {text: "(?s)assistant's response:.*12 Ocean Drive"}
    text: '{"reasoning": "Name, address, price.", "score": 0.8}'
  - text: '{"reasoning": "Vague.", "score": 0.6}'
`

// TestBuildSeedSchemas loads cases as the seeds write them, in JSON Lines,
// YAML and inline, and checks what they say and how they are judged.
func TestBuildSeedSchemas(t *testing.T) {
	dir := suiteDir(t, map[string]string{
		"gavel.yaml": agentYAML + `models: {judge: 'script:judge.yaml'}
cases:
  - cases/*.jsonl
  - cases/*.yaml
  - id: multi_round_conversation
    name: multi_round_conversation
    rounds:
      - prompt: What are my listings?
        judge_prompt: Should list all properties
      - prompt: What's the occupancy for the first one?
        judge_prompt: Should reference the first listing from previous response and show occupancy data
    test_agent_revival: true
`,
		"judge.yaml": judgeScript,
		// Seed 004's case, as written.
		"cases/orders.jsonl": `{"id": "case_001", "input": "where's my order #12345?", "expected_tool_calls": [{"name": "get_order_status", "args": {"order_id": "12345"}}], "expected_response_traits": ["mentions delivery date", "no false apology"], "tags": ["happy_path", "lookup"], "difficulty": "easy", "metadata": {"source": "trace_2026_03_09", "owner": "evals-team"}}
`,
		// Seed 000's case, with an id (the seed names its cases by name).
		"cases/listings.yaml": `- id: get_listing_details
  name: get_listing_details
  prompt: What are the details of my Beach House listing?
  expected_tools: [get_listing_details]
  judge_prompt: |
    The response should contain:
    - The listing name (Beach House)
    - The property address
    - Current pricing information
    - Occupancy rate or availability status
    The information should be formatted clearly and be easy to read.
  judge_threshold: 0.7
- id: lenient_listing_details
  prompt: What are the details of my Beach House listing?
  expected_tools: [get_listing_details]
  judge_prompt: The response describes the listing.
  judge_threshold: 0.5
`,
	})
	var mu sync.Mutex
	calls := map[string]int{} // model calls by role
	env := testEnv()
	env.Wrap = func(role string, _ llm.Ref, m llm.Model) llm.Model {
		return llm.Func(func(ctx context.Context, req *llm.Request) (*llm.Response, error) {
			mu.Lock()
			calls[role]++
			mu.Unlock()
			return m.Generate(ctx, req)
		})
	}
	b, err := spec.Open(dir, env)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()

	type caseSummary struct {
		ID, Source, Difficulty string
		Tags                   []string
		Metadata               map[string]string
		Prompts                []string
		Revive                 []bool
		Expected               string
	}
	var got []caseSummary
	for _, c := range b.Suite.Cases {
		s := caseSummary{ID: c.ID, Source: strings.TrimPrefix(c.Source, dir+string(filepath.Separator)), Difficulty: c.Difficulty,
			Tags: c.Tags, Metadata: c.Metadata, Expected: c.Expected}
		for _, r := range c.Script.Rounds {
			s.Prompts = append(s.Prompts, r.Prompt)
			s.Revive = append(s.Revive, r.Revive)
		}
		got = append(got, s)
	}
	want := []caseSummary{
		{
			ID: "case_001", Source: "cases/orders.jsonl:1", Difficulty: "easy",
			Tags: []string{"happy_path", "lookup"}, Metadata: map[string]string{"source": "trace_2026_03_09", "owner": "evals-team"},
			Prompts: []string{"where's my order #12345?"}, Revive: []bool{false},
			Expected: `tool calls get_order_status{"order_id":"12345"}; traits: mentions delivery date, no false apology`,
		},
		{
			ID: "get_listing_details", Source: "cases/listings.yaml:1",
			Prompts: []string{"What are the details of my Beach House listing?"}, Revive: []bool{false},
			Expected: "calls get_listing_details; The response should contain: - The listing name (Beach House) - The property address - Current pricing information - ...",
		},
		{
			ID: "lenient_listing_details", Source: "cases/listings.yaml:13",
			Prompts: []string{"What are the details of my Beach House listing?"}, Revive: []bool{false},
			Expected: "calls get_listing_details; The response describes the listing.",
		},
		{
			ID: "multi_round_conversation", Source: "gavel.yaml:6",
			Prompts: []string{"What are my listings?", "What's the occupancy for the first one?"}, Revive: []bool{false, true},
			Expected: "round 1: Should list all properties; round 2: Should reference the first listing from previous response and show occupancy data",
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("cases (-want +got):\n%s", diff)
	}

	cases := map[string]judge.Judge{}
	for _, c := range b.Suite.Cases {
		cases[c.ID] = c.Judge
	}
	for _, tc := range []struct {
		name, caseID string
		transcript   *judge.Transcript
		want         judge.Status
		judgeCalls   int
	}{
		{
			name: "tool call and traits as expected", caseID: "case_001",
			transcript: single("where's my order #12345?", "It ships, expected on 2026-03-15.", call("get_order_status", `{"order_id": "12345"}`)),
			want:       judge.StatusPass, judgeCalls: 1,
		},
		{
			name: "wrong argument fails before the judge", caseID: "case_001",
			transcript: single("where's my order #12345?", "It ships, expected on 2026-03-15.", call("get_order_status", `{"order_id": "54321"}`)),
			want:       judge.StatusFail, judgeCalls: 0,
		},
		{
			name: "traits missing", caseID: "case_001",
			transcript: single("where's my order #12345?", "It ships soon.", call("get_order_status", `{"order_id": "12345"}`)),
			want:       judge.StatusFail, judgeCalls: 1,
		},
		{
			name: "rubric score 0.8 reaches judge_threshold 0.7", caseID: "get_listing_details",
			transcript: single("What are the details of my Beach House listing?", "Beach House, 12 Ocean Drive, $200 a night, free in May.", call("get_listing_details", `{}`)),
			want:       judge.StatusPass, judgeCalls: 1,
		},
		{
			name: "rubric score 0.6 misses judge_threshold 0.7", caseID: "get_listing_details",
			transcript: single("What are the details of my Beach House listing?", "It is a nice house.", call("get_listing_details", `{}`)),
			want:       judge.StatusFail, judgeCalls: 1,
		},
		{
			name: "rubric score 0.6 reaches judge_threshold 0.5", caseID: "lenient_listing_details",
			transcript: single("What are the details of my Beach House listing?", "It is a nice house.", call("get_listing_details", `{}`)),
			want:       judge.StatusPass, judgeCalls: 1,
		},
		{
			name: "expected tool missing", caseID: "get_listing_details",
			transcript: single("What are the details of my Beach House listing?", "Beach House, 12 Ocean Drive, $200 a night, free in May."),
			want:       judge.StatusFail, judgeCalls: 0,
		},
		{
			name: "each round judged on its own", caseID: "multi_round_conversation",
			transcript: &judge.Transcript{Turns: []judge.Turn{
				{Role: judge.RoleUser, Content: "What are my listings?", Round: 1},
				{Role: judge.RoleAgent, Content: "Beach House, 12 Ocean Drive.", Round: 1},
				{Role: judge.RoleUser, Content: "What's the occupancy for the first one?", Round: 2},
				{Role: judge.RoleAgent, Content: "It is 80% booked.", Round: 2},
			}},
			want: judge.StatusFail, judgeCalls: 2, // round 2 scores 0.6, below the default threshold
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mu.Lock()
			clear(calls)
			mu.Unlock()
			v := judge.Run(t.Context(), cases[tc.caseID], tc.transcript)
			if v.Status != tc.want {
				t.Errorf("got %s, want %s: %s", v.Status, tc.want, v.Reasoning)
			}
			mu.Lock()
			defer mu.Unlock()
			if calls["judge"] != tc.judgeCalls {
				t.Errorf("judge model called %d times, want %d", calls["judge"], tc.judgeCalls)
			}
		})
	}
}

// single is the transcript of a single-prompt conversation.
func single(prompt, response string, calls ...judge.ToolCall) *judge.Transcript {
	return &judge.Transcript{Goal: prompt, FinalResponse: response, Turns: []judge.Turn{
		{Role: judge.RoleUser, Content: prompt},
		{Role: judge.RoleAgent, Content: response, ToolCalls: calls},
	}}
}

func call(name, args string) judge.ToolCall {
	return judge.ToolCall{Name: name, Arguments: json.RawMessage(args)}
}

func TestBuildSettings(t *testing.T) {
	dir := suiteDir(t, map[string]string{"gavel.yaml": agentYAML + `description: settings
concurrency: 3
timeout: 90s
trials: 2
max_followups: -1
models: {judge: 'fake:judge', user: 'fake:user'}
cases:
  - {id: inherits, input: hi, expected_tools: [x]}
  - {id: overrides, input: hi, expected_tools: [x], max_followups: 2, trials: 5}
`})
	env := testEnv()
	env.DryRun = true
	b, err := spec.Open(dir, env)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	s := b.Suite
	type settings struct {
		Name, Description string
		Threshold         float64
		Trials            int
		Concurrency       int
		Timeout           time.Duration
		Models            map[string]string
		FollowUps         bool
		CaseFollowUps     []int
		CaseTrials        []int
	}
	got := settings{Name: s.Name, Description: s.Description, Threshold: s.Threshold, Trials: s.Trials,
		Concurrency: b.Concurrency, Timeout: b.Timeout, Models: s.Models, FollowUps: b.FollowUps != nil}
	for _, c := range s.Cases {
		got.CaseFollowUps = append(got.CaseFollowUps, c.Script.MaxFollowUps)
		got.CaseTrials = append(got.CaseTrials, c.Trials)
	}
	want := settings{
		Name: filepath.Base(dir), Description: "settings", Threshold: 1, Trials: 2, Concurrency: 3, Timeout: 90 * time.Second,
		Models: map[string]string{"judge": "fake:judge", "user": "fake:user"}, FollowUps: true,
		CaseFollowUps: []int{-1, 2}, CaseTrials: []int{0, 5},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("settings (-want +got):\n%s", diff)
	}
}

func TestBuildDryRun(t *testing.T) {
	suite := agentYAML + "models: {judge: 'counted:judge'}\ncases:\n  - {id: a, input: hi, judge_prompt: be nice}\n"
	for _, tc := range []struct {
		name   string
		dryRun bool
		opened int
	}{
		{"dry run opens no model", true, 0},
		{"a run opens each model once", false, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := suiteDir(t, map[string]string{"gavel.yaml": suite})
			opened := 0
			var wrapped []string
			env := spec.Env{
				DryRun: tc.dryRun,
				Registry: llm.Registry{"counted": func(llm.Ref, func(string) string) (llm.Model, error) {
					opened++
					return &llmtest.Scripted{}, nil
				}},
				Wrap: func(role string, _ llm.Ref, m llm.Model) llm.Model {
					wrapped = append(wrapped, role)
					return m
				},
			}
			b, err := spec.Open(dir, env)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			if opened != tc.opened {
				t.Errorf("models opened: got %d, want %d", opened, tc.opened)
			}
			if want := []string{"judge"}; !slices.Equal(wrapped, want) {
				t.Errorf("models wrapped: got %q, want %q", wrapped, want)
			}
		})
	}
}

// Wrap is given each model's reference as resolved, so that a cache can
// key its answers by it: ${VAR} expanded, a script's path absolute.
func TestBuildWrapGetsResolvedReferences(t *testing.T) {
	suite := "agent: {builtin: {model: 'fake:${M}@http://127.0.0.1:8000/v1'}}\n" +
		"models: {judge: 'script:models/judge.yaml'}\n" +
		"cases:\n  - {id: a, input: hi, judge_prompt: be nice}\n"
	dir := suiteDir(t, map[string]string{"gavel.yaml": suite, "models/judge.yaml": "rules: [{text: ok}]\n"})
	env := testEnv()
	env.Getenv = func(k string) string { return map[string]string{"M": "model-b"}[k] }
	got := map[string]llm.Ref{}
	env.Wrap = func(role string, ref llm.Ref, m llm.Model) llm.Model {
		got[role] = ref
		return m
	}
	b, err := spec.Open(dir, env)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	want := map[string]llm.Ref{
		"agent": {Provider: "fake", Model: "model-b", BaseURL: "http://127.0.0.1:8000/v1"},
		"judge": {Provider: "script", Model: filepath.Join(dir, "models", "judge.yaml")},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("references given to Wrap (-want +got):\n%s", diff)
	}
}

// TestOpenSupportDesk builds the example suite without running it.
func TestOpenSupportDesk(t *testing.T) {
	env := testEnv()
	env.DryRun = true
	b, err := spec.Open(filepath.Join("..", "examples", "support-desk"), env)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if got, want := len(b.Suite.Cases), 11; got != want {
		t.Errorf("cases: got %d, want %d", got, want)
	}
}
