package rule_test

import (
	"context"
	"encoding/json"
	"math"
	"testing"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/judge/judgetest"
	"github.com/gavelhq/gavel/rule"
)

// call is shorthand for an expected call.
func call(name, args string) rule.ExpectedCall {
	return rule.ExpectedCall{Name: name, Args: json.RawMessage(args)}
}

func TestExpectedAndForbiddenTools(t *testing.T) {
	pass, fail := judge.StatusPass, judge.StatusFail
	lookup := withCalls("get_order_status", `{"order_id":"12345"}`)
	judgetest.RunCases(t, []judgetest.Case{
		{Name: "expected tool called", Build: func() (judge.Judge, error) { return rule.ExpectedTools("get_order_status") }, Transcript: lookup, WantStatus: pass},
		{Name: "names the missing tools", Build: func() (judge.Judge, error) { return rule.ExpectedTools("get_order_status", "cancel_order", "refund") }, Transcript: lookup, WantStatus: fail, WantIn: []string{"missing cancel_order, refund (called: get_order_status)"}},
		{Name: "nothing called", Build: func() (judge.Judge, error) { return rule.ExpectedTools("get_order_status") }, Transcript: conversation("hello"), WantStatus: fail, WantIn: []string{"(called: none)"}},
		{Name: "forbidden tool not called", Build: func() (judge.Judge, error) { return rule.ForbiddenTools("cancel_order") }, Transcript: lookup, WantStatus: pass},
		{Name: "forbidden tool called", Build: func() (judge.Judge, error) { return rule.ForbiddenTools("cancel_order") }, Transcript: withCalls("get_order_status", `{}`, "cancel_order", `{}`), WantStatus: fail, WantIn: []string{"called forbidden tool cancel_order (call 2)"}},
		{Name: "max calls", Build: func() (judge.Judge, error) { return rule.MaxToolCalls(1) }, Transcript: withCalls("a", `{}`, "b", `{}`), WantStatus: fail, WantIn: []string{"made 2 tool calls, at most 1 allowed"}},
		{Name: "max calls of one tool", Build: func() (judge.Judge, error) { return rule.MaxToolCalls(1, "a") }, Transcript: withCalls("a", `{}`, "b", `{}`), WantStatus: pass, WantIn: []string{"made 1 calls to a"}},
	})
}

func TestToolCalls(t *testing.T) {
	pass, fail := judge.StatusPass, judge.StatusFail
	lookupThenCancel := withCalls(
		"get_order_status", `{"order_id":"12345"}`,
		"cancel_order", `{"order_id":"12345","confirmation":true,"reason":"changed mind"}`,
	)
	expected := []rule.ExpectedCall{
		call("get_order_status", `{"order_id":"12345"}`),
		call("cancel_order", `{"order_id":"12345","confirmation":true}`),
	}
	twice := []rule.ExpectedCall{expected[0], expected[0]}
	build := func(want []rule.ExpectedCall, o rule.CallOpts) func() (judge.Judge, error) {
		return func() (judge.Judge, error) { return rule.ToolCalls(want, o) }
	}
	judgetest.RunCases(t, []judgetest.Case{
		{Name: "exact sequence, extra arguments allowed", Build: build(expected, rule.CallOpts{}), Transcript: lookupThenCancel, WantStatus: pass, WantIn: []string{"2 call(s) as expected"}},
		{Name: "wrong tool at a position", Build: build(expected, rule.CallOpts{}),
			Transcript: withCalls("cancel_order", `{"order_id":"12345","confirmation":true}`, "get_order_status", `{"order_id":"12345"}`),
			WantStatus: fail, WantIn: []string{"call 1: expected get_order_status, got cancel_order"}},
		{Name: "argument differs", Build: build(expected, rule.CallOpts{}),
			Transcript: withCalls("get_order_status", `{"order_id":"12345"}`, "cancel_order", `{"order_id":"12345","confirmation":false}`),
			WantStatus: fail, WantIn: []string{`call 2: cancel_order: argument "confirmation" expected true, got false`}},
		{Name: "argument missing", Build: build(expected, rule.CallOpts{}),
			Transcript: withCalls("get_order_status", `{"order_id":"12345"}`, "cancel_order", `{"order_id":"12345"}`),
			WantStatus: fail, WantIn: []string{`argument "confirmation" missing (expected true)`}},
		{Name: "numbers compare by value", Build: build([]rule.ExpectedCall{call("set_qty", `{"qty":1}`)}, rule.CallOpts{}),
			Transcript: withCalls("set_qty", `{"qty":1.0}`), WantStatus: pass},
		{Name: "a number is not its string", Build: build([]rule.ExpectedCall{call("set_qty", `{"qty":1}`)}, rule.CallOpts{}),
			Transcript: withCalls("set_qty", `{"qty":"1"}`), WantStatus: fail, WantIn: []string{`expected 1, got "1"`}},
		{Name: "nested values compare as JSON", Build: build([]rule.ExpectedCall{call("book", `{"when":{"day":"mon","slots":[1,2]}}`)}, rule.CallOpts{}),
			Transcript: withCalls("book", `{"when":{"slots":[1.0,2],"day":"mon"}}`), WantStatus: pass},
		{Name: "call count mismatch", Build: build(expected[:1], rule.CallOpts{}), Transcript: lookupThenCancel, WantStatus: fail, WantIn: []string{"expected 1 call(s), got 2; call 2: unexpected cancel_order"}},
		{Name: "too few calls", Build: build(expected, rule.CallOpts{}), Transcript: withCalls("get_order_status", `{"order_id":"12345"}`), WantStatus: fail, WantIn: []string{"call 2: expected cancel_order"}},
		{Name: "no calls expected, none made", Build: build(nil, rule.CallOpts{}), Transcript: conversation("Which order do you mean?"), WantStatus: pass},
		{Name: "no calls expected, one made", Build: build(nil, rule.CallOpts{}), Transcript: withCalls("cancel_order", `{}`), WantStatus: fail, WantIn: []string{"unexpected cancel_order"}},
		{Name: "args not JSON", Build: build(expected[:1], rule.CallOpts{}), Transcript: withCalls("get_order_status", `{broken`), WantStatus: fail, WantIn: []string{"arguments are not valid JSON"}},
		{Name: "any args when none listed", Build: build([]rule.ExpectedCall{{Name: "get_order_status"}}, rule.CallOpts{}), Transcript: withCalls("get_order_status", `{"x":1}`), WantStatus: pass},

		{Name: "in order with extra calls", Build: build(expected, rule.CallOpts{AllowExtra: true}),
			Transcript: withCalls("search", `{}`, "get_order_status", `{"order_id":"12345"}`, "log", `{}`, "cancel_order", `{"order_id":"12345","confirmation":true}`),
			WantStatus: pass},
		// The same call expected twice needs two calls: one actual call
		// never satisfies two expectations.
		{Name: "in order with extra calls, the same call expected twice, made once", Build: build(twice, rule.CallOpts{AllowExtra: true}),
			Transcript: withCalls("get_order_status", `{"order_id":"12345"}`, "log", `{}`),
			WantStatus: fail, WantIn: []string{"expected call 2 (get_order_status"}},
		{Name: "in order with extra calls, the same call expected twice, made twice", Build: build(twice, rule.CallOpts{AllowExtra: true}),
			Transcript: withCalls("get_order_status", `{"order_id":"12345"}`, "log", `{}`, "get_order_status", `{"order_id":"12345"}`),
			WantStatus: pass},
		{Name: "in order, the same call expected twice, made once", Build: build(twice, rule.CallOpts{}),
			Transcript: withCalls("get_order_status", `{"order_id":"12345"}`),
			WantStatus: fail, WantIn: []string{"call 2: expected get_order_status"}},
		{Name: "any order, the same call expected twice, made once", Build: build(twice, rule.CallOpts{AnyOrder: true, AllowExtra: true}),
			Transcript: withCalls("get_order_status", `{"order_id":"12345"}`),
			WantStatus: fail, WantIn: []string{"no call matched get_order_status"}},
		{Name: "in order with extra calls, out of order", Build: build(expected, rule.CallOpts{AllowExtra: true}),
			Transcript: withCalls("cancel_order", `{"order_id":"12345","confirmation":true}`, "get_order_status", `{"order_id":"12345"}`),
			WantStatus: fail, WantIn: []string{"expected call 2 (cancel_order"}},
		{Name: "in order with extra calls, explains the nearest call", Build: build(expected, rule.CallOpts{AllowExtra: true}),
			Transcript: withCalls("get_order_status", `{"order_id":"12345"}`, "cancel_order", `{"order_id":"12345","confirmation":false}`),
			WantStatus: fail, WantIn: []string{`nearest: call 2 argument "confirmation" expected true, got false`}},

		{Name: "any order", Build: build(expected, rule.CallOpts{AnyOrder: true}),
			Transcript: withCalls("cancel_order", `{"order_id":"12345","confirmation":true}`, "get_order_status", `{"order_id":"12345"}`),
			WantStatus: pass},
		{Name: "any order, extra call refused", Build: build(expected, rule.CallOpts{AnyOrder: true}),
			Transcript: withCalls("cancel_order", `{"order_id":"12345","confirmation":true}`, "get_order_status", `{"order_id":"12345"}`, "log", `{}`),
			WantStatus: fail, WantIn: []string{"unexpected call 3: log"}},
		{Name: "any order, extra call allowed", Build: build(expected, rule.CallOpts{AnyOrder: true, AllowExtra: true}),
			Transcript: withCalls("log", `{}`, "cancel_order", `{"order_id":"12345","confirmation":true}`, "get_order_status", `{"order_id":"12345"}`),
			WantStatus: pass},
		{Name: "any order matches specific before loose", Build: build([]rule.ExpectedCall{{Name: "a"}, call("a", `{"x":1}`)}, rule.CallOpts{AnyOrder: true}),
			Transcript: withCalls("a", `{"x":1}`, "a", `{"y":2}`), WantStatus: pass},
		{Name: "any order, unmatched call explained", Build: build(expected, rule.CallOpts{AnyOrder: true}),
			Transcript: withCalls("get_order_status", `{"order_id":"12345"}`, "cancel_order", `{"order_id":"999","confirmation":true}`),
			WantStatus: fail, WantIn: []string{`no call matched cancel_order {"confirmation":true,"order_id":"12345"}; nearest: cancel_order: argument "order_id" expected "12345", got "999"`}},
	})
}

func TestToolCallF1(t *testing.T) {
	expected := []rule.ExpectedCall{call("a", `{}`), call("b", `{}`)}
	tests := []struct {
		name       string
		transcript *judge.Transcript
		wantF1     float64
		wantStatus judge.Status
	}{
		{"all calls right", withCalls("a", `{}`, "b", `{}`), 1, judge.StatusPass},
		{"one of two, no extra", withCalls("a", `{}`), 2.0 / 3, judge.StatusFail},
		{"both plus one extra", withCalls("a", `{}`, "b", `{}`, "c", `{}`), 0.8, judge.StatusPass},
		{"nothing right", withCalls("c", `{}`), 0, judge.StatusFail},
		{"no calls", conversation("hi"), 0, judge.StatusFail},
	}
	j, err := rule.ToolCallF1(expected, 0.75)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := judge.Run(context.Background(), j, tt.transcript)
			if got.Status != tt.wantStatus || math.Abs(got.Score.Normalized()-tt.wantF1) > 1e-9 {
				t.Errorf("got %s F1 %v, want %s F1 %v (%s)", got.Status, got.Score.Normalized(), tt.wantStatus, tt.wantF1, got.Reasoning)
			}
		})
	}

	none, err := rule.ToolCallF1(nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := judge.Run(context.Background(), none, conversation("hi")); got.Status != judge.StatusPass {
		t.Errorf("no calls expected and none made: got %s, want PASS (%s)", got.Status, got.Reasoning)
	}
}

// An F1 exactly at the threshold passes: 3 expected calls made, with 2
// extra, is precision 3/5 and recall 1, F1 0.75 (which 2PR/(P+R) rounds
// to 0.7499999999999999); 6 of 10 is F1 0.75 too.
func TestToolCallF1AtThreshold(t *testing.T) {
	tests := []struct {
		name       string
		expected   []rule.ExpectedCall
		transcript *judge.Transcript
		threshold  float64
		want       judge.Status
	}{
		{"3 expected, made with 2 extra, at 0.75", []rule.ExpectedCall{call("a", `{}`), call("b", `{}`), call("c", `{}`)},
			withCalls("a", `{}`, "b", `{}`, "c", `{}`, "d", `{}`, "e", `{}`), 0.75, judge.StatusPass},
		{"5 expected, 3 made, at 0.75", []rule.ExpectedCall{call("a", `{}`), call("b", `{}`), call("c", `{}`), call("d", `{}`), call("e", `{}`)},
			withCalls("a", `{}`, "b", `{}`, "c", `{}`), 0.75, judge.StatusPass},
		{"2 expected, 1 made, at 2/3", []rule.ExpectedCall{call("a", `{}`), call("b", `{}`)},
			withCalls("a", `{}`), 2.0 / 3, judge.StatusPass},
		{"3 expected, made with 2 extra, at 0.76", []rule.ExpectedCall{call("a", `{}`), call("b", `{}`), call("c", `{}`)},
			withCalls("a", `{}`, "b", `{}`, "c", `{}`, "d", `{}`, "e", `{}`), 0.76, judge.StatusFail},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			j, err := rule.ToolCallF1(tc.expected, tc.threshold)
			if err != nil {
				t.Fatal(err)
			}
			if got := judge.Run(context.Background(), j, tc.transcript); got.Status != tc.want {
				t.Errorf("got %s, want %s (%s)", got.Status, tc.want, got.Reasoning)
			}
		})
	}
}

func TestToolRulesRefuseBadConfiguration(t *testing.T) {
	judgetest.RunBuildErrorCases(t, []judgetest.BuildErrorCase{
		{Name: "no expected tools", Build: func() (judge.Judge, error) { return rule.ExpectedTools() }, WantErr: "no tool names given"},
		{Name: "empty forbidden tool", Build: func() (judge.Judge, error) { return rule.ForbiddenTools("a", " ") }, WantErr: "tool name 2 is empty"},
		{Name: "args not an object", Build: func() (judge.Judge, error) {
			return rule.ToolCalls([]rule.ExpectedCall{call("a", `[1,2]`)}, rule.CallOpts{})
		}, WantErr: "expected call 1 (a): args must be a JSON object of argument names and values, got an array"},
		{Name: "args not JSON", Build: func() (judge.Judge, error) {
			return rule.ToolCalls([]rule.ExpectedCall{call("a", `{x}`)}, rule.CallOpts{})
		}, WantErr: "args are not JSON"},
		{Name: "nameless call", Build: func() (judge.Judge, error) { return rule.ToolCalls([]rule.ExpectedCall{{}}, rule.CallOpts{}) }, WantErr: "expected call 1 has no tool name"},
		{Name: "F1 threshold", Build: func() (judge.Judge, error) { return rule.ToolCallF1(nil, 2) }, WantErr: "threshold 2 must lie in 0..1"},
		{Name: "negative max", Build: func() (judge.Judge, error) { return rule.MaxToolCalls(-1) }, WantErr: "negative"},
	})
}
