package rule_test

import (
	"context"
	"encoding/json"
	"math"
	"testing"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/rule"
)

// call is shorthand for an expected call.
func call(name, args string) rule.ExpectedCall {
	return rule.ExpectedCall{Name: name, Args: json.RawMessage(args)}
}

func TestExpectedAndForbiddenTools(t *testing.T) {
	pass, fail := judge.StatusPass, judge.StatusFail
	lookup := withCalls("get_order_status", `{"order_id":"12345"}`)
	runVerdictCases(t, []verdictCase{
		{"expected tool called", func() (judge.Judge, error) { return rule.ExpectedTools("get_order_status") }, lookup, pass, ""},
		{"names the missing tools", func() (judge.Judge, error) { return rule.ExpectedTools("get_order_status", "cancel_order", "refund") }, lookup, fail, "missing cancel_order, refund (called: get_order_status)"},
		{"nothing called", func() (judge.Judge, error) { return rule.ExpectedTools("get_order_status") }, conversation("hello"), fail, "(called: none)"},
		{"forbidden tool not called", func() (judge.Judge, error) { return rule.ForbiddenTools("cancel_order") }, lookup, pass, ""},
		{"forbidden tool called", func() (judge.Judge, error) { return rule.ForbiddenTools("cancel_order") }, withCalls("get_order_status", `{}`, "cancel_order", `{}`), fail, "called forbidden tool cancel_order (call 2)"},
		{"max calls", func() (judge.Judge, error) { return rule.MaxToolCalls(1) }, withCalls("a", `{}`, "b", `{}`), fail, "made 2 tool calls, at most 1 allowed"},
		{"max calls of one tool", func() (judge.Judge, error) { return rule.MaxToolCalls(1, "a") }, withCalls("a", `{}`, "b", `{}`), pass, "made 1 calls to a"},
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
	build := func(want []rule.ExpectedCall, o rule.CallOpts) func() (judge.Judge, error) {
		return func() (judge.Judge, error) { return rule.ToolCalls(want, o) }
	}
	runVerdictCases(t, []verdictCase{
		{"exact sequence, extra arguments allowed", build(expected, rule.CallOpts{}), lookupThenCancel, pass, "2 call(s) as expected"},
		{"wrong tool at a position", build(expected, rule.CallOpts{}),
			withCalls("cancel_order", `{"order_id":"12345","confirmation":true}`, "get_order_status", `{"order_id":"12345"}`),
			fail, "call 1: expected get_order_status, got cancel_order"},
		{"argument differs", build(expected, rule.CallOpts{}),
			withCalls("get_order_status", `{"order_id":"12345"}`, "cancel_order", `{"order_id":"12345","confirmation":false}`),
			fail, `call 2: cancel_order: argument "confirmation" expected true, got false`},
		{"argument missing", build(expected, rule.CallOpts{}),
			withCalls("get_order_status", `{"order_id":"12345"}`, "cancel_order", `{"order_id":"12345"}`),
			fail, `argument "confirmation" missing (expected true)`},
		{"numbers compare by value", build([]rule.ExpectedCall{call("set_qty", `{"qty":1}`)}, rule.CallOpts{}),
			withCalls("set_qty", `{"qty":1.0}`), pass, ""},
		{"a number is not its string", build([]rule.ExpectedCall{call("set_qty", `{"qty":1}`)}, rule.CallOpts{}),
			withCalls("set_qty", `{"qty":"1"}`), fail, `expected 1, got "1"`},
		{"nested values compare as JSON", build([]rule.ExpectedCall{call("book", `{"when":{"day":"mon","slots":[1,2]}}`)}, rule.CallOpts{}),
			withCalls("book", `{"when":{"slots":[1.0,2],"day":"mon"}}`), pass, ""},
		{"call count mismatch", build(expected[:1], rule.CallOpts{}), lookupThenCancel, fail, "expected 1 call(s), got 2; call 2: unexpected cancel_order"},
		{"too few calls", build(expected, rule.CallOpts{}), withCalls("get_order_status", `{"order_id":"12345"}`), fail, "call 2: expected cancel_order"},
		{"no calls expected, none made", build(nil, rule.CallOpts{}), conversation("Which order do you mean?"), pass, ""},
		{"no calls expected, one made", build(nil, rule.CallOpts{}), withCalls("cancel_order", `{}`), fail, "unexpected cancel_order"},
		{"args not JSON", build(expected[:1], rule.CallOpts{}), withCalls("get_order_status", `{broken`), fail, "arguments are not valid JSON"},
		{"any args when none listed", build([]rule.ExpectedCall{{Name: "get_order_status"}}, rule.CallOpts{}), withCalls("get_order_status", `{"x":1}`), pass, ""},

		{"in order with extra calls", build(expected, rule.CallOpts{AllowExtra: true}),
			withCalls("search", `{}`, "get_order_status", `{"order_id":"12345"}`, "log", `{}`, "cancel_order", `{"order_id":"12345","confirmation":true}`),
			pass, ""},
		{"in order with extra calls, out of order", build(expected, rule.CallOpts{AllowExtra: true}),
			withCalls("cancel_order", `{"order_id":"12345","confirmation":true}`, "get_order_status", `{"order_id":"12345"}`),
			fail, "expected call 2 (cancel_order"},
		{"in order with extra calls, explains the nearest call", build(expected, rule.CallOpts{AllowExtra: true}),
			withCalls("get_order_status", `{"order_id":"12345"}`, "cancel_order", `{"order_id":"12345","confirmation":false}`),
			fail, `nearest: call 2 argument "confirmation" expected true, got false`},

		{"any order", build(expected, rule.CallOpts{AnyOrder: true}),
			withCalls("cancel_order", `{"order_id":"12345","confirmation":true}`, "get_order_status", `{"order_id":"12345"}`),
			pass, ""},
		{"any order, extra call refused", build(expected, rule.CallOpts{AnyOrder: true}),
			withCalls("cancel_order", `{"order_id":"12345","confirmation":true}`, "get_order_status", `{"order_id":"12345"}`, "log", `{}`),
			fail, "unexpected call 3: log"},
		{"any order, extra call allowed", build(expected, rule.CallOpts{AnyOrder: true, AllowExtra: true}),
			withCalls("log", `{}`, "cancel_order", `{"order_id":"12345","confirmation":true}`, "get_order_status", `{"order_id":"12345"}`),
			pass, ""},
		{"any order matches specific before loose", build([]rule.ExpectedCall{{Name: "a"}, call("a", `{"x":1}`)}, rule.CallOpts{AnyOrder: true}),
			withCalls("a", `{"x":1}`, "a", `{"y":2}`), pass, ""},
		{"any order, unmatched call explained", build(expected, rule.CallOpts{AnyOrder: true}),
			withCalls("get_order_status", `{"order_id":"12345"}`, "cancel_order", `{"order_id":"999","confirmation":true}`),
			fail, `no call matched cancel_order {"confirmation":true,"order_id":"12345"}; nearest: cancel_order: argument "order_id" expected "12345", got "999"`},
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

func TestToolRulesRefuseBadConfiguration(t *testing.T) {
	runBuildErrorCases(t, []buildErrorCase{
		{"no expected tools", func() (judge.Judge, error) { return rule.ExpectedTools() }, "no tool names given"},
		{"empty forbidden tool", func() (judge.Judge, error) { return rule.ForbiddenTools("a", " ") }, "tool name 2 is empty"},
		{"args not an object", func() (judge.Judge, error) {
			return rule.ToolCalls([]rule.ExpectedCall{call("a", `[1,2]`)}, rule.CallOpts{})
		}, "expected call 1 (a): args must be a JSON object of argument names and values, got an array"},
		{"args not JSON", func() (judge.Judge, error) {
			return rule.ToolCalls([]rule.ExpectedCall{call("a", `{x}`)}, rule.CallOpts{})
		}, "args are not JSON"},
		{"nameless call", func() (judge.Judge, error) { return rule.ToolCalls([]rule.ExpectedCall{{}}, rule.CallOpts{}) }, "expected call 1 has no tool name"},
		{"F1 threshold", func() (judge.Judge, error) { return rule.ToolCallF1(nil, 2) }, "threshold 2 must lie in 0..1"},
		{"negative max", func() (judge.Judge, error) { return rule.MaxToolCalls(-1) }, "negative"},
	})
}
