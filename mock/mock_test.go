package mock_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/mock"
	"github.com/gavelhq/gavel/rule"
)

func when(t *testing.T, args string) rule.ArgsMatcher {
	t.Helper()
	m, err := rule.NewArgsMatcher(json.RawMessage(args), false, false)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// Results are tried in order; a Once result answers one call of a trial,
// so results in a row answer calls in order; a trial starts afresh.
func TestToolbox(t *testing.T) {
	box, err := mock.New([]mock.Tool{{
		Name: "get_order_status", Description: "Looks an order up.",
		Results: []mock.Result{
			{When: when(t, `{"order_id": "12345"}`), Once: true, Text: "the order database is down", Error: true},
			{When: when(t, `{"order_id": "12345"}`), Text: `{"status": "shipped"}`},
			{Text: "no such order"},
		},
	}})
	if err != nil {
		t.Fatal(err)
	}
	trial := agent.NewScope("case_001#1")
	ctx := agent.WithScopes(context.Background(), trial, agent.NewScope("case_001"))
	for _, tc := range []struct {
		args, result string
		isError      bool
	}{
		{`{"order_id": "12345"}`, "the order database is down", true},
		{`{"order_id": "12345"}`, `{"status": "shipped"}`, false},
		{`{"order_id": "999"}`, "no such order", false},
	} {
		call, err := box.Call(ctx, "get_order_status", json.RawMessage(tc.args))
		if err != nil || call.Result != tc.result || call.IsError != tc.isError {
			t.Errorf("%s: %q (error %v), %v; want %q (error %v)", tc.args, call.Result, call.IsError, err, tc.result, tc.isError)
		}
	}
	trial.End()
	next := agent.WithScopes(context.Background(), agent.NewScope("case_001#2"), agent.NewScope("case_001"))
	if call, _ := box.Call(next, "get_order_status", json.RawMessage(`{"order_id": "12345"}`)); call.Result != "the order database is down" {
		t.Errorf("the next trial's first call: %q, want the failure again", call.Result)
	}
	if _, err := box.Call(ctx, "refund_everything", nil); !errors.Is(err, mock.ErrUnknownTool) {
		t.Errorf("a made-up tool: %v", err)
	}
	tools, _ := box.Tools(ctx)
	if len(tools) != 1 || tools[0].Name != "get_order_status" || string(tools[0].Parameters) != `{"type":"object"}` {
		t.Errorf("tools %+v", tools)
	}
	if _, err := mock.New([]mock.Tool{{Name: "a"}, {Name: "a"}}); err == nil {
		t.Error("two tools of one name")
	}
}

// A case's own results answer that case's calls first; other cases get
// the tool's; a case cannot answer for a tool the toolbox lacks.
func TestToolboxCase(t *testing.T) {
	box, err := mock.New([]mock.Tool{{Name: "get_order_status", Results: []mock.Result{{Text: "shipped"}}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := box.SetCase("outage", "get_order_status", []mock.Result{{Text: "the order database is down", Error: true}}); err != nil {
		t.Fatal(err)
	}
	inCase := func(id string) context.Context {
		return agent.WithScopes(context.Background(), agent.NewScope(id+"#1"), agent.NewScope(id))
	}
	for _, tc := range []struct {
		ctx    context.Context
		result string
	}{
		{inCase("outage"), "the order database is down"},
		{inCase("lookup"), "shipped"},
		{context.Background(), "shipped"},
	} {
		if call, _ := box.Call(tc.ctx, "get_order_status", json.RawMessage(`{}`)); call.Result != tc.result {
			t.Errorf("%q, want %q", call.Result, tc.result)
		}
	}
	if err := box.SetCase("outage", "refund", nil); !errors.Is(err, mock.ErrUnknownTool) {
		t.Errorf("a case's answers of a tool the suite lacks: %v", err)
	}
}
