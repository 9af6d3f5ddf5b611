package mock_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/mock"
)

// liveBox is a fake live server: it counts its calls and answers "live".
type liveBox struct{ calls atomic.Int32 }

func (b *liveBox) Tools(context.Context) ([]llm.Tool, error) { return nil, nil }
func (b *liveBox) Call(_ context.Context, name string, args json.RawMessage) (judge.ToolCall, error) {
	b.calls.Add(1)
	return judge.ToolCall{Name: name, Arguments: args, Result: "live"}, nil
}

// inTrial is the context of trial n of case id.
func inTrial(id string, n int) (context.Context, func()) {
	trial := agent.NewScope(id + "#" + string(rune('0'+n)))
	return agent.WithScopes(context.Background(), trial, agent.NewScope(id)), trial.End
}

// recording is a run's calls: case a's two trials, case b's one.
var recording = mock.Recording{
	"a": {
		{
			{Name: "get_order", Arguments: json.RawMessage(`{"id": "1", "full": true}`), Result: "order 1: shipped"},
			{Name: "get_order", Arguments: json.RawMessage(`{"full":true,"id":"1"}`), Result: "order 1: delivered"},
			{Name: "get_order", Arguments: json.RawMessage(`{"id":"2"}`), Result: "no order 2", IsError: true},
			{Name: "search", Arguments: json.RawMessage(`{"q":"x"}`), Result: "broken on purpose", IsError: true, Injected: "error"},
			{Name: "list", Result: "1, 2"},
		},
		{
			{Name: "get_order", Arguments: json.RawMessage(`{"id":"1","full":true}`), Result: "order 1: lost"},
		},
	},
	"b": {{{Name: "get_order", Arguments: json.RawMessage(`{"id":"1","full":true}`), Result: "order 1 of b"}}},
}

// Replayed calls: matched by case, trial, tool and arguments (key order
// and whitespace aside), identical ones in their recorded order and then
// the last again; a failed call replays as failed; a call the recorded
// run did not make (or made only with a fault injected) is an error, or
// goes to the live server, as the replay says; the live server is called
// for nothing else.
func TestReplay(t *testing.T) {
	type call struct {
		id       string
		trial    int
		tool     string
		args     string
		result   string // "live": the live server answered
		isError  bool
		replayed string
	}
	const notIn = "not in the recorded run r1"
	for _, tc := range []struct {
		name, unmatched string
		calls           []call
	}{
		{"identical calls in order, then the last again", "", []call{
			{"a", 1, "get_order", `{"id":"1","full":true}`, "order 1: shipped", false, judge.ReplayRecorded},
			{"a", 1, "get_order", `{ "full": true, "id": "1" }`, "order 1: delivered", false, judge.ReplayRecorded},
			{"a", 1, "get_order", `{"id":"1","full":true}`, "order 1: delivered", false, judge.ReplayRecorded},
		}},
		{"a failed call, and no arguments", "", []call{
			{"a", 1, "get_order", `{"id":"2"}`, "no order 2", true, judge.ReplayRecorded},
			{"a", 1, "list", `{}`, "1, 2", false, judge.ReplayRecorded},
			{"a", 1, "list", ``, "1, 2", false, judge.ReplayRecorded},
		}},
		{"by trial, and a trial the recorded run lacks replays the first", "", []call{
			{"a", 2, "get_order", `{"id":"1","full":true}`, "order 1: lost", false, judge.ReplayRecorded},
			{"a", 3, "get_order", `{"id":"1","full":true}`, "order 1: shipped", false, judge.ReplayRecorded},
		}},
		{"by case", "", []call{
			{"b", 1, "get_order", `{"id":"1","full":true}`, "order 1 of b", false, judge.ReplayRecorded},
		}},
		{"unmatched, refused", "error", []call{
			{"a", 1, "get_order", `{"id":"1"}`, notIn, true, judge.ReplayUnmatched},
			{"a", 1, "search", `{"q":"x"}`, notIn, true, judge.ReplayUnmatched},
			{"c", 1, "get_order", `{"id":"1","full":true}`, notIn, true, judge.ReplayUnmatched},
			{"a", 1, "get_order", `{"id":1,"full":true}`, notIn, true, judge.ReplayUnmatched},
		}},
		{"unmatched, live", "live", []call{
			{"a", 1, "get_order", `{"id":"1"}`, "live", false, ""},
			{"a", 1, "search", `{"q":"x"}`, "live", false, ""},
			{"c", 1, "get_order", `{"id":"1","full":true}`, "live", false, ""},
			{"a", 1, "get_order", `{"id":"1","full":true}`, "order 1: shipped", false, judge.ReplayRecorded},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := mock.NewReplay("r1", recording, tc.unmatched)
			if err != nil {
				t.Fatal(err)
			}
			live := &liveBox{}
			box := mock.Replayed(live, r)
			wantLive := int32(0)
			ctxs := map[string]context.Context{}
			for _, c := range tc.calls {
				key := c.id + "#" + string(rune('0'+c.trial))
				if ctxs[key] == nil {
					ctx, end := inTrial(c.id, c.trial)
					defer end()
					ctxs[key] = ctx
				}
				got, err := box.Call(ctxs[key], c.tool, json.RawMessage(c.args))
				if err != nil {
					t.Fatal(err)
				}
				if !strings.HasPrefix(got.Result, c.result) || got.IsError != c.isError || got.Replayed != c.replayed || got.Injected != "" {
					t.Errorf("%s trial %d: %s %s\ngot:  %q, is error %v, replayed %q\nwant: %q…, is error %v, replayed %q",
						c.id, c.trial, c.tool, c.args, got.Result, got.IsError, got.Replayed, c.result, c.isError, c.replayed)
				}
				if got.Name != c.tool || string(got.Arguments) != c.args {
					t.Errorf("record of %s %s: %s %s, want the call as made", c.tool, c.args, got.Name, got.Arguments)
				}
				if c.result == "live" {
					wantLive++
				}
			}
			if n := live.calls.Load(); n != wantLive {
				t.Errorf("the live server was called %d times, want %d", n, wantLive)
			}
		})
	}
}

// A new trial of a case starts its identical calls from the first
// recorded one again; a call outside a trial matches no case.
func TestReplayTrialsAfresh(t *testing.T) {
	r, err := mock.NewReplay("r1", recording, "")
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		ctx, end := inTrial("a", 1)
		for _, want := range []string{"order 1: shipped", "order 1: delivered"} {
			got, ok := r.Answer(ctx, "get_order", json.RawMessage(`{"id":"1","full":true}`))
			if !ok || got.Result != want {
				t.Errorf("got %q, %v, want %q", got.Result, ok, want)
			}
		}
		end()
	}
	got, ok := r.Answer(context.Background(), "list", nil)
	if !ok || got.Replayed != judge.ReplayUnmatched || !strings.Contains(got.Result, "outside any trial") {
		t.Errorf("a call outside a trial: %+v, %v", got, ok)
	}
	if _, err := mock.NewReplay("r1", recording, "sometimes"); err == nil || !strings.Contains(err.Error(), "error, live") {
		t.Errorf("unmatched sometimes: %v, want an error naming error and live", err)
	}
}
