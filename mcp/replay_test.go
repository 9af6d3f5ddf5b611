package mcp

import (
	"context"
	"encoding/json"

	"github.com/gavelhq/gavel/judge"
	"testing"
)

type turnKey struct{}

// A proxy with a replay: the calls it answers get its answer, recorded
// marked replayed, and faults strike them too; the others reach the
// upstream. The replay can tell whose turn a call is of from the log.
func TestProxyReplay(t *testing.T) {
	upstream := Server{Name: "orders", URL: serveOrders(t, TransportStreamable, "tok"), Headers: map[string]string{"Authorization": "Bearer tok"}}
	var log Log
	p := newTestProxy(t, upstream, &log)
	var turns []any
	p.SetReplay(func(ctx context.Context, tool string, args json.RawMessage) (judge.ToolCall, bool) {
		if turn := log.Turn(); turn != nil {
			turns = append(turns, turn.Value(turnKey{}))
		}
		if tool != "get_order_status" {
			return judge.ToolCall{}, false
		}
		return judge.ToolCall{Name: tool, Arguments: args, Result: "recorded: lost in transit", Replayed: judge.ReplayRecorded}, true
	})
	agent := connectHTTP(t, p)
	log.SetTurn(context.WithValue(context.Background(), turnKey{}, "trial 1"))
	replayed, err := agent.Call(context.Background(), "get_order_status", json.RawMessage(`{"order_id":"A-1001"}`))
	if err != nil || replayed.Result != "recorded: lost in transit" {
		t.Errorf("a replayed call: %+v, %v", replayed, err)
	}
	live, err := agent.Call(context.Background(), "cancel_order", json.RawMessage(`{"order_id":"A-1001"}`))
	if err != nil || live.Result == "" || live.Result == "recorded: lost in transit" {
		t.Errorf("a call the replay lets through: %+v, %v", live, err)
	}
	log.SetTurn(nil)
	recorded := log.Take()
	if len(recorded) != 2 || recorded[0].Replayed != judge.ReplayRecorded || recorded[1].Replayed != "" {
		t.Errorf("recorded %+v, want the first call marked replayed, the second not", recorded)
	}
	if len(turns) != 2 || turns[0] != "trial 1" || turns[1] != "trial 1" {
		t.Errorf("the replay saw turns %v, want trial 1 twice", turns)
	}

	p.SetFaults(func(context.Context, string) (Fault, bool) { return Fault{Kind: FaultTruncate}, true })
	cut, err := agent.Call(context.Background(), "get_order_status", json.RawMessage(`{"order_id":"A-1001"}`))
	if err != nil || cut.Result != "recorded: lo" {
		t.Errorf("a replayed call truncated: %q, %v", cut.Result, err)
	}
	if got := log.Take(); len(got) != 1 || got[0].Injected != "truncated" || got[0].Replayed != judge.ReplayRecorded {
		t.Errorf("recorded %+v, want it marked replayed and injected", got)
	}
}
