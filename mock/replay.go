package mock

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/judge"
)

// A Recording is the tool calls a run made, by case id and, for each
// case, by trial: rec[id][0] are the calls of the case's first trial, in
// the order they were made.
type Recording map[string][][]judge.ToolCall

// What becomes of a call a Replay finds no record of.
const (
	// UnmatchedError answers it with an error result that says so,
	// marked judge.ReplayUnmatched: the live server is not called.
	UnmatchedError = "error"
	// UnmatchedLive lets it through to the live server.
	UnmatchedLive = "live"
)

// UnmatchedModes are the values of NewReplay's unmatched, the default
// first.
var UnmatchedModes = []string{UnmatchedError, UnmatchedLive}

// A Replay answers tool calls with the results a run recorded, so that
// the agent's tools answer as they did then, whatever the live servers
// would say now.
//
// A call is matched by its case (agent.CaseScope), its tool and its
// arguments, as JSON values: the order of an object's keys and
// whitespace do not count, numbers are compared as written. Trial n of a
// case replays trial n of the recorded case, or its first trial when the
// recorded run had fewer. Identical calls in a trial get the recorded
// results of identical calls in their order; past the last, the last one
// again, as a server that no longer changes would answer.
//
// A recorded call whose result Gavel made is not replayed: one with a
// fault injected on purpose (judge.ToolCall.Injected), and one a replay
// refused. A call replayed from a run that was itself replayed is
// replayed: its result is still the server's. Why so:
// docs/decisions/0025-replayed-tool-results.md.
type Replay struct {
	run       string
	unmatched string
	// calls are by case id, then by trial, then by tool and canonical
	// arguments (key).
	calls map[string][]map[string][]judge.ToolCall

	mu   sync.Mutex
	used map[string]int // trial + key → calls answered so far
}

// NewReplay returns a replay of rec, the calls of the run whose id is run
// (for messages). unmatched is UnmatchedError (the default, when "") or
// UnmatchedLive.
func NewReplay(run string, rec Recording, unmatched string) (*Replay, error) {
	if unmatched == "" {
		unmatched = UnmatchedError
	}
	if !slices.Contains(UnmatchedModes, unmatched) {
		return nil, fmt.Errorf("unmatched %q: want one of %s", unmatched, strings.Join(UnmatchedModes, ", "))
	}
	r := &Replay{run: run, unmatched: unmatched, calls: map[string][]map[string][]judge.ToolCall{}, used: map[string]int{}}
	for id, trials := range rec {
		byKey := make([]map[string][]judge.ToolCall, len(trials))
		for i, calls := range trials {
			byKey[i] = map[string][]judge.ToolCall{}
			for _, c := range calls {
				if c.Injected != "" || c.Replayed == judge.ReplayUnmatched {
					continue
				}
				k := callKey(c.Name, c.Arguments)
				byKey[i][k] = append(byKey[i][k], c)
			}
		}
		r.calls[id] = byKey
	}
	return r, nil
}

// Run is the id of the run replayed.
func (r *Replay) Run() string { return r.run }

// Answer answers a call of tool with args, in ctx (a trial's, whose case
// it matches by), from the recording: it returns the call as the agent
// gets it, marked Replayed, and true. A call without a record is, as the
// replay's unmatched says, an error result marked judge.ReplayUnmatched,
// or, live, let through: false. Answer is an mcp.Replay.
func (r *Replay) Answer(ctx context.Context, tool string, args json.RawMessage) (judge.ToolCall, bool) {
	trial, ofCase := agent.TrialScope(ctx), agent.CaseScope(ctx)
	if trial == nil || ofCase == nil {
		return r.miss(tool, args, "it was made outside any trial, so no case's calls can answer it")
	}
	n := trialNumber(trial.Key, ofCase.Key)
	trials := r.calls[ofCase.Key]
	if len(trials) == 0 {
		return r.miss(tool, args, fmt.Sprintf("the recorded run has no trial of case %q", ofCase.Key))
	}
	recorded := trials[0]
	if n <= len(trials) {
		recorded = trials[n-1]
	}
	key := callKey(tool, args)
	calls := recorded[key]
	if len(calls) == 0 {
		return r.miss(tool, args, fmt.Sprintf("its trial of case %q made no call of %q with these arguments", ofCase.Key, tool))
	}
	used := trial.Key + "\x00" + key
	r.mu.Lock()
	if _, seen := r.used[used]; !seen {
		trial.OnEnd(func() { r.mu.Lock(); delete(r.used, used); r.mu.Unlock() })
	}
	i := min(r.used[used], len(calls)-1)
	r.used[used]++
	r.mu.Unlock()
	c := calls[i]
	return judge.ToolCall{Name: tool, Arguments: args, Result: c.Result, IsError: c.IsError, Replayed: judge.ReplayRecorded}, true
}

// miss is Answer's answer to a call without a record, for the reason
// why.
func (r *Replay) miss(tool string, args json.RawMessage, why string) (judge.ToolCall, bool) {
	if r.unmatched == UnmatchedLive {
		return judge.ToolCall{}, false
	}
	return judge.ToolCall{Name: tool, Arguments: args, IsError: true, Replayed: judge.ReplayUnmatched,
		Result: fmt.Sprintf("not in the recorded run %s, whose tool results this run replays: %s; the live server was not called (replay_tools unmatched: live lets such calls through)", r.run, why)}, true
}

// Replayed returns box with the calls r answers answered by r instead of
// box, each marked in its record (judge.ToolCall.Replayed).
func Replayed(box agent.Toolbox, r *Replay) agent.Toolbox { return replayed{box, r} }

type replayed struct {
	agent.Toolbox
	r *Replay
}

func (b replayed) Call(ctx context.Context, name string, args json.RawMessage) (judge.ToolCall, error) {
	if call, ok := b.r.Answer(ctx, name, args); ok {
		return call, nil
	}
	return b.Toolbox.Call(ctx, name, args)
}

// trialNumber is the number of the trial whose scope is keyed trial, of
// the case keyed ofCase ("case#2" of "case"); 1 when it says none.
func trialNumber(trial, ofCase string) int {
	n, err := strconv.Atoi(strings.TrimPrefix(trial, ofCase+"#"))
	if err != nil || n < 1 {
		return 1
	}
	return n
}

// callKey is what a call is matched by: its tool and its arguments as a
// JSON value, written canonically (object keys sorted, no whitespace,
// numbers as written). No arguments, null and {} are alike; arguments
// that are not JSON are compared as given, without surrounding space.
func callKey(tool string, args json.RawMessage) string {
	return tool + "\x00" + canonicalJSON(args)
}

func canonicalJSON(raw json.RawMessage) string {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || string(trimmed) == "null" {
		return "{}"
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return string(trimmed)
	}
	out, err := json.Marshal(v)
	if err != nil {
		return string(trimmed)
	}
	return string(out)
}
