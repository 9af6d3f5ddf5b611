package rule

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gavelhq/gavel/judge"
)

// ExpectedTools passes when the agent called every one of the named tools
// at least once; the reasoning names the missing ones.
func ExpectedTools(names ...string) (judge.Judge, error) {
	if err := checkToolNames(names); err != nil {
		return nil, fmt.Errorf("expected_tools: %w", err)
	}
	name := "expected_tools " + strings.Join(names, ", ")
	return toolRule(name, func(calls []judge.ToolCall) judge.Judgment {
		called := calledNames(calls)
		var missing []string
		checks := make([]judge.Check, len(names))
		for i, n := range names {
			checks[i] = judge.Check{Name: n, Passed: true, Message: "called"}
			if !slices.Contains(called, n) {
				checks[i] = judge.Check{Name: n, Passed: false, Message: "not called"}
				missing = append(missing, n)
			}
		}
		if len(missing) > 0 {
			return verdict(name, false, fmt.Sprintf("missing %s (called: %s)", strings.Join(missing, ", "), listOrNone(called)), checks...)
		}
		return verdict(name, true, "called every expected tool: "+strings.Join(names, ", "), checks...)
	}), nil
}

// ForbiddenTools passes when the agent called none of the named tools.
func ForbiddenTools(names ...string) (judge.Judge, error) {
	if err := checkToolNames(names); err != nil {
		return nil, fmt.Errorf("forbidden_tools: %w", err)
	}
	name := "forbidden_tools " + strings.Join(names, ", ")
	return toolRule(name, func(calls []judge.ToolCall) judge.Judgment {
		var found []string
		for i, c := range calls {
			if slices.Contains(names, c.Name) {
				found = append(found, fmt.Sprintf("%s (call %d)", c.Name, i+1))
			}
		}
		if len(found) > 0 {
			return verdict(name, false, "called forbidden tool "+strings.Join(found, ", "))
		}
		return verdict(name, true, "called none of "+strings.Join(names, ", "))
	}), nil
}

// MaxToolCalls passes when the agent made at most max tool calls, counting
// only calls to the named tools when names are given.
func MaxToolCalls(max int, names ...string) (judge.Judge, error) {
	if max < 0 {
		return nil, fmt.Errorf("max_tool_calls: %d is negative", max)
	}
	if len(names) > 0 {
		if err := checkToolNames(names); err != nil {
			return nil, fmt.Errorf("max_tool_calls: %w", err)
		}
	}
	name, of := fmt.Sprintf("max_tool_calls %d", max), "tool calls"
	if len(names) > 0 {
		name += " of " + strings.Join(names, ", ")
		of = "calls to " + strings.Join(names, ", ")
	}
	return toolRule(name, func(calls []judge.ToolCall) judge.Judgment {
		n := 0
		for _, c := range calls {
			if len(names) == 0 || slices.Contains(names, c.Name) {
				n++
			}
		}
		return verdict(name, n <= max, fmt.Sprintf("made %d %s, at most %d allowed", n, of, max))
	}), nil
}

// An ExpectedCall is a tool call a case expects: the tool's name and the
// arguments that matter. Only the keys in Args are compared, as JSON values
// (so 1 equals 1.0); other arguments the agent passes are allowed.
type ExpectedCall struct {
	Name string `json:"name"`
	// Args is a JSON object, or empty for "any arguments".
	Args json.RawMessage `json:"args,omitempty"`
}

// CallOpts are the settings of ToolCalls.
type CallOpts struct {
	// AnyOrder accepts the expected calls in any order. Defaults to the
	// order listed.
	AnyOrder bool
	// AllowExtra accepts calls besides the expected ones. Defaults to
	// exactly the expected calls, no more.
	AllowExtra bool
}

// ToolCalls passes when the agent's tool calls match expected: by default
// exactly those calls in that order; CallOpts loosens the order or allows
// other calls in between. An empty expected list means "no tool calls"
// (unless AllowExtra). The reasoning says where it went wrong: "call 2:
// expected cancel_order, got get_order_status".
func ToolCalls(expected []ExpectedCall, o CallOpts) (judge.Judge, error) {
	want, err := compileCalls(expected)
	if err != nil {
		return nil, fmt.Errorf("tool_calls: %w", err)
	}
	name := "tool_calls"
	switch {
	case o.AnyOrder && o.AllowExtra:
		name += " (any order, extra allowed)"
	case o.AnyOrder:
		name += " (any order)"
	case o.AllowExtra:
		name += " (in order, extra allowed)"
	}
	return toolRule(name, func(calls []judge.ToolCall) judge.Judgment {
		got := decodeCalls(calls)
		var problems []string
		switch {
		case o.AnyOrder:
			problems = unorderedProblems(want, got, o.AllowExtra)
		case o.AllowExtra:
			problems = subsequenceProblems(want, got)
		default:
			problems = sequenceProblems(want, got)
		}
		if len(problems) > 0 {
			return verdict(name, false, strings.Join(problems, "; ")+" (actual calls: "+describeCalls(got)+")")
		}
		return verdict(name, true, fmt.Sprintf("%d call(s) as expected: %s", len(got), describeCalls(got)))
	}), nil
}

// ToolCallF1 scores the agent's tool calls against expected with partial
// credit: the F1 of precision (how many calls were expected) and recall
// (how many expected calls were made), matching calls in any order. It
// passes when F1 is at least threshold (0..1).
func ToolCallF1(expected []ExpectedCall, threshold float64) (judge.Judge, error) {
	want, err := compileCalls(expected)
	if err != nil {
		return nil, fmt.Errorf("tool_call_f1: %w", err)
	}
	if math.IsNaN(threshold) || threshold < 0 || threshold > 1 {
		return nil, fmt.Errorf("tool_call_f1: threshold %v must lie in 0..1", threshold)
	}
	name := "tool_call_f1"
	return toolRule(name, func(calls []judge.ToolCall) judge.Judgment {
		got := decodeCalls(calls)
		_, matched := matchCalls(want, got)
		// Nothing made where nothing was expected is perfect precision and
		// recall alike.
		precision, recall := 1.0, 1.0
		if len(got) > 0 {
			precision = float64(matched) / float64(len(got))
		}
		if len(want) > 0 {
			recall = float64(matched) / float64(len(want))
		}
		f1 := 0.0
		if precision+recall > 0 {
			f1 = 2 * precision * recall / (precision + recall)
		}
		j := verdict(name, f1 >= threshold, fmt.Sprintf("F1 %.2f (precision %.2f: %d of %d calls expected; recall %.2f: %d of %d expected calls made), threshold %.2f",
			f1, precision, matched, len(got), recall, matched, len(want), threshold))
		j.Score, _ = judge.Number(f1, 0, 1)
		return j
	}), nil
}

// toolRule builds a rule over the transcript's tool calls.
func toolRule(name string, check func([]judge.ToolCall) judge.Judgment) judge.Judge {
	return transcriptRule(name, func(t *judge.Transcript) judge.Judgment {
		return check(t.ToolCalls())
	})
}

// A wantCall is an ExpectedCall with its arguments decoded.
type wantCall struct {
	name string
	args map[string]any // nil: any arguments
}

func (w wantCall) String() string {
	if w.args == nil {
		return w.name
	}
	return w.name + " " + renderJSON(w.args, 120)
}

// A gotCall is an actual call with its arguments decoded.
type gotCall struct {
	name    string
	args    map[string]any
	argsErr error // the arguments are not a JSON object
}

func (g gotCall) String() string {
	if g.argsErr != nil || len(g.args) == 0 {
		return g.name
	}
	return g.name + " " + renderJSON(g.args, 120)
}

func compileCalls(expected []ExpectedCall) ([]wantCall, error) {
	want := make([]wantCall, len(expected))
	for i, e := range expected {
		if strings.TrimSpace(e.Name) == "" {
			return nil, fmt.Errorf("expected call %d has no tool name", i+1)
		}
		want[i].name = e.Name
		if len(e.Args) == 0 || string(e.Args) == "null" {
			continue
		}
		v, err := decodeJSON(e.Args)
		if err != nil {
			return nil, fmt.Errorf("expected call %d (%s): args are not JSON: %w", i+1, e.Name, err)
		}
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("expected call %d (%s): args must be a JSON object of argument names and values, got %s", i+1, e.Name, jsonKind(v))
		}
		want[i].args = obj
	}
	return want, nil
}

func decodeCalls(calls []judge.ToolCall) []gotCall {
	got := make([]gotCall, len(calls))
	for i, c := range calls {
		got[i].name = c.Name
		if len(c.Arguments) == 0 {
			continue
		}
		v, err := decodeJSON(c.Arguments)
		obj, ok := v.(map[string]any)
		switch {
		case err != nil:
			got[i].argsErr = fmt.Errorf("its arguments are not valid JSON: %v", err)
		case v == nil:
		case !ok:
			got[i].argsErr = fmt.Errorf("its arguments are %s, not an object", jsonKind(v))
		default:
			got[i].args = obj
		}
	}
	return got
}

// mismatch says why g does not satisfy w, or "" when it does.
func mismatch(w wantCall, g gotCall) string {
	if w.name != g.name {
		return fmt.Sprintf("expected %s, got %s", w.name, g.name)
	}
	if w.args == nil {
		return ""
	}
	if g.argsErr != nil {
		return fmt.Sprintf("%s: %v", g.name, g.argsErr)
	}
	keys := make([]string, 0, len(w.args))
	for k := range w.args {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		gv, ok := g.args[k]
		switch {
		case !ok:
			return fmt.Sprintf("%s: argument %q missing (expected %s)", g.name, k, renderJSON(w.args[k], 60))
		case !jsonEqual(w.args[k], gv):
			return fmt.Sprintf("%s: argument %q expected %s, got %s", g.name, k, renderJSON(w.args[k], 60), renderJSON(gv, 60))
		}
	}
	return ""
}

// sequenceProblems compares calls position by position: exactly want, in
// order.
func sequenceProblems(want []wantCall, got []gotCall) []string {
	var problems []string
	if len(want) != len(got) {
		problems = append(problems, fmt.Sprintf("expected %d call(s), got %d", len(want), len(got)))
	}
	for i := range max(len(want), len(got)) {
		switch {
		case i >= len(got):
			problems = append(problems, fmt.Sprintf("call %d: expected %s, got no call", i+1, want[i]))
		case i >= len(want):
			problems = append(problems, fmt.Sprintf("call %d: unexpected %s", i+1, got[i].name))
		default:
			if m := mismatch(want[i], got[i]); m != "" {
				problems = append(problems, fmt.Sprintf("call %d: %s", i+1, m))
			}
		}
	}
	return problems
}

// subsequenceProblems finds want in order within got, other calls allowed
// in between. Taking the earliest match for each expected call is optimal:
// it leaves the most calls for the ones after it.
func subsequenceProblems(want []wantCall, got []gotCall) []string {
	next := 0
	for i, w := range want {
		found := -1
		for j := next; j < len(got); j++ {
			if mismatch(w, got[j]) == "" {
				found = j
				break
			}
		}
		if found < 0 {
			problem := fmt.Sprintf("expected call %d (%s) not made after call %d", i+1, w, next)
			if next == 0 {
				problem = fmt.Sprintf("expected call %d (%s) not made", i+1, w)
			}
			if hint := nearestMismatch(w, got[next:], next); hint != "" {
				problem += "; nearest: " + hint
			}
			return []string{problem}
		}
		next = found + 1
	}
	return nil
}

// unorderedProblems matches want and got in any order.
func unorderedProblems(want []wantCall, got []gotCall, allowExtra bool) []string {
	wantToGot, _ := matchCalls(want, got)
	usedGot := make([]bool, len(got))
	for _, j := range wantToGot {
		if j >= 0 {
			usedGot[j] = true
		}
	}
	var problems []string
	for i, j := range wantToGot {
		if j < 0 {
			problem := fmt.Sprintf("no call matched %s", want[i])
			var free []gotCall
			for k, g := range got {
				if !usedGot[k] {
					free = append(free, g)
				}
			}
			if hint := nearestMismatch(want[i], free, -1); hint != "" {
				problem += "; nearest: " + hint
			}
			problems = append(problems, problem)
		}
	}
	if !allowExtra {
		for j, used := range usedGot {
			if !used {
				problems = append(problems, fmt.Sprintf("unexpected call %d: %s", j+1, got[j]))
			}
		}
	}
	return problems
}

// nearestMismatch explains why the first call to the same tool among calls
// does not match w. offset numbers the calls for the message (-1: unnumbered).
func nearestMismatch(w wantCall, calls []gotCall, offset int) string {
	for k, g := range calls {
		if g.name == w.name {
			if offset < 0 {
				return mismatch(w, g)
			}
			return fmt.Sprintf("call %d %s", offset+k+1, strings.TrimPrefix(mismatch(w, g), g.name+": "))
		}
	}
	return ""
}

// matchCalls pairs expected and actual calls one to one, as many as
// possible (a maximum bipartite matching by augmenting paths: a greedy
// pairing could spend a specific actual call on a loose expectation). It
// returns, for each expected call, the index of its actual call or -1.
func matchCalls(want []wantCall, got []gotCall) ([]int, int) {
	fits := make([][]bool, len(want))
	for i, w := range want {
		fits[i] = make([]bool, len(got))
		for j, g := range got {
			fits[i][j] = mismatch(w, g) == ""
		}
	}
	gotToWant := make([]int, len(got))
	for j := range gotToWant {
		gotToWant[j] = -1
	}
	var augment func(i int, seen []bool) bool
	augment = func(i int, seen []bool) bool {
		for j := range got {
			if fits[i][j] && !seen[j] {
				seen[j] = true
				if gotToWant[j] < 0 || augment(gotToWant[j], seen) {
					gotToWant[j] = i
					return true
				}
			}
		}
		return false
	}
	matched := 0
	for i := range want {
		if augment(i, make([]bool, len(got))) {
			matched++
		}
	}
	wantToGot := make([]int, len(want))
	for i := range wantToGot {
		wantToGot[i] = -1
	}
	for j, i := range gotToWant {
		if i >= 0 {
			wantToGot[i] = j
		}
	}
	return wantToGot, matched
}

func calledNames(calls []judge.ToolCall) []string {
	var names []string
	for _, c := range calls {
		if !slices.Contains(names, c.Name) {
			names = append(names, c.Name)
		}
	}
	return names
}

func describeCalls(got []gotCall) string {
	if len(got) == 0 {
		return "none"
	}
	s := make([]string, len(got))
	for i, g := range got {
		s[i] = g.String()
	}
	return strings.Join(s, ", ")
}

func listOrNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

func checkToolNames(names []string) error {
	if len(names) == 0 {
		return errors.New("no tool names given")
	}
	for i, n := range names {
		if strings.TrimSpace(n) == "" {
			return fmt.Errorf("tool name %d is empty", i+1)
		}
	}
	return nil
}
