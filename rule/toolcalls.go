package rule

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/gavelhq/gavel/judge"
)

// ExpectedTools passes when the agent called every one of the named tools
// at least once, successfully: a failed call (IsError) does not count. The
// reasoning names the missing ones, and the failed calls.
func ExpectedTools(names ...string) (judge.Judge, error) {
	return ExpectedToolsWith(names, CallOpts{})
}

// ExpectedToolsWith is ExpectedTools with settings: only ErrorResult is
// read, so a call whose result says it failed does not count either.
func ExpectedToolsWith(names []string, o CallOpts) (judge.Judge, error) {
	if err := checkToolNames(names); err != nil {
		return nil, fmt.Errorf("expected_tools: %w", err)
	}
	name := "expected_tools " + strings.Join(names, ", ")
	return toolRule(name, func(calls []judge.ToolCall) judge.Judgment {
		ok, failed := splitToolCalls(calls, o)
		called := calledNames(ok)
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
			aside := ""
			if len(failed) > 0 {
				aside = "; failed: " + strings.Join(calledNames(failed), ", ")
			}
			return verdict(name, false, fmt.Sprintf("missing %s (called: %s%s)", strings.Join(missing, ", "), listOrNone(called), aside), checks...)
		}
		return verdict(name, true, "called every expected tool: "+strings.Join(names, ", "), checks...)
	}), nil
}

// ForbiddenTools passes when the agent called none of the named tools. A
// failed call (IsError) is not counted: the tool did nothing. Forbid the
// attempt with ForbiddenCalls and MatchFailed.
func ForbiddenTools(names ...string) (judge.Judge, error) {
	return ForbiddenToolsWith(names, CallOpts{})
}

// ForbiddenToolsWith is ForbiddenTools with settings: only ErrorResult is
// read, so a call whose result says it failed is not counted either.
func ForbiddenToolsWith(names []string, o CallOpts) (judge.Judge, error) {
	if err := checkToolNames(names); err != nil {
		return nil, fmt.Errorf("forbidden_tools: %w", err)
	}
	name := "forbidden_tools " + strings.Join(names, ", ")
	return toolRule(name, func(calls []judge.ToolCall) judge.Judgment {
		var found []string
		failedAttempts := 0
		for i, c := range calls {
			switch {
			case !slices.Contains(names, c.Name):
			case o.failed(c):
				failedAttempts++
			default:
				found = append(found, fmt.Sprintf("%s (call %d)", c.Name, i+1))
			}
		}
		if len(found) > 0 {
			return verdict(name, false, "called forbidden tool "+strings.Join(found, ", "))
		}
		msg := "called none of " + strings.Join(names, ", ")
		if failedAttempts > 0 {
			msg += fmt.Sprintf(" (%d failed attempt(s) not counted)", failedAttempts)
		}
		return verdict(name, true, msg)
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

// An ExpectedCall is a tool call a case expects (or, to ForbiddenCalls, a
// call it forbids): the tool's name and the arguments that matter.
//
// Args is a JSON object of argument names and expected values. By default
// only its keys are compared (the agent may pass other arguments), values
// as JSON (1 equals 1.0), nested objects by the keys they list. A value
// may be a matcher, an object whose keys start with "$": {"$any_of": [...]},
// {"$regex": "..."}, {"$approx": 3.14, "$tolerance": 0.01},
// {"$optional": true, ...}, {"$normalize": true, ...}, {"$eq": v},
// {"$subset": {...}}, {"$exact": {...}}; see the package documentation.
//
// A call that failed (judge.ToolCall.IsError, or a result matching
// CallOpts.ErrorResult) matches only when MatchFailed is set: by default
// a call must succeed to satisfy an expectation, and a failed call is not
// a forbidden call made.
type ExpectedCall struct {
	Name string `json:"name"`
	// Args is a JSON object, or empty for "any arguments".
	Args json.RawMessage `json:"args,omitempty"`
	// Exact refuses arguments, and keys of nested objects, that Args does
	// not list ("no other arguments"); optional ones may be absent.
	// Defaults to a subset: other arguments allowed.
	Exact bool `json:"exact,omitempty"`
	// Normalize compares every string of Args case-, white-space- and
	// punctuation-insensitively, like BFCL's checker (see normalizeString).
	Normalize bool `json:"normalize,omitempty"`
	// MatchFailed lets a failed call match too. Defaults to successful
	// calls only.
	MatchFailed bool `json:"match_failed,omitempty"`
	// Min and Max bound how many calls match this expectation: at least
	// Min, at most Max. Neither set: exactly one. Min alone: at least Min.
	// Max alone: 1 to Max. Min may be 0 (the call is optional).
	Min *int `json:"min,omitempty"`
	Max *int `json:"max,omitempty"`
}

// CallOpts are the settings of ToolCalls.
type CallOpts struct {
	// AnyOrder accepts the expected calls in any order. Defaults to the
	// order listed.
	AnyOrder bool
	// AllowExtra accepts calls besides the expected ones. Defaults to
	// exactly the expected calls, no more. Failed calls are never extra:
	// an agent may retry.
	AllowExtra bool
	// ErrorResult, when set, marks a call whose result it matches as
	// failed, for agents that report a tool's error only in its result
	// (τ-bench's tools answer "Error: ..."). A call with IsError is failed
	// whatever its result.
	ErrorResult *regexp.Regexp
}

// failed says whether call c failed: the agent reported an error
// (IsError), or its result matches ErrorResult. It is the one notion of a
// failed call every tool rule that sets failed calls aside reads.
func (o CallOpts) failed(c judge.ToolCall) bool {
	return c.IsError || (o.ErrorResult != nil && o.ErrorResult.MatchString(c.Result))
}

// unbounded is a Max without bound.
const unbounded = math.MaxInt

// ToolCalls passes when the agent's tool calls match expected: by default
// exactly those calls in that order; CallOpts loosens the order or allows
// other calls in between. An empty expected list means "no tool calls"
// (unless AllowExtra). Failed calls are set aside: they satisfy no
// expectation (unless it has MatchFailed), and are neither extra nor out
// of order. The reasoning says where it went wrong: "call 2: expected
// cancel_order, got get_order_status".
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
	general := false // counts, or failed calls that may match: the general matcher
	for _, w := range want {
		general = general || w.counted || w.matchFailed
	}
	return toolRule(name, func(calls []judge.ToolCall) judge.Judgment {
		all := decodeCalls(calls, o)
		got, failed := all, []gotCall(nil)
		if !general {
			got, failed = splitFailed(all)
		}
		var problems []string
		switch {
		case general && o.AnyOrder:
			problems = countedUnorderedProblems(want, got, o.AllowExtra)
		case general:
			problems = countedSequenceProblems(want, got, o.AllowExtra)
		case o.AnyOrder:
			problems = unorderedProblems(want, got, o.AllowExtra)
		case o.AllowExtra:
			problems = subsequenceProblems(want, got)
		default:
			problems = sequenceProblems(want, got)
		}
		if general && o.AllowExtra {
			problems = append(problems, maxProblems(want, got)...)
		}
		aside := ""
		if len(failed) > 0 {
			aside = fmt.Sprintf("; %d failed call(s) set aside: %s", len(failed), describeCalls(failed))
		}
		if len(problems) > 0 {
			return verdict(name, false, strings.Join(problems, "; ")+" (actual calls: "+describeCalls(all)+")"+aside)
		}
		return verdict(name, true, fmt.Sprintf("%d call(s) as expected: %s", len(got), describeCalls(got))+aside)
	}), nil
}

// ForbiddenCalls passes when the agent made none of the calls forbidden
// describes: a tool, and when Args are given, only calls whose arguments
// match them (forbid cancel_reservation of reservation ABC, not every
// cancellation). A failed call is not a forbidden call made, unless the
// pattern has MatchFailed (forbid the attempt). Min and Max are refused.
func ForbiddenCalls(forbidden []ExpectedCall, o CallOpts) (judge.Judge, error) {
	if len(forbidden) == 0 {
		return nil, errors.New("forbidden_tool_calls: no calls given")
	}
	for i, f := range forbidden {
		if f.Min != nil || f.Max != nil {
			return nil, fmt.Errorf("forbidden_tool_calls: call %d (%s): min and max are for expected calls", i+1, f.Name)
		}
	}
	want, err := compileCalls(forbidden)
	if err != nil {
		return nil, fmt.Errorf("forbidden_tool_calls: %w", err)
	}
	descs := make([]string, len(want))
	for i, w := range want {
		descs[i] = w.String()
	}
	name := "forbidden_tool_calls " + strings.Join(descs, ", ")
	return toolRule(name, func(calls []judge.ToolCall) judge.Judgment {
		var found []string
		failedMatches := 0
		for _, g := range decodeCalls(calls, o) {
			for _, w := range want {
				if mismatch(w, g) == "" {
					found = append(found, fmt.Sprintf("%s (call %d%s)", g, g.index+1, map[bool]string{true: ", failed"}[g.failed]))
					break
				}
				if g.failed && w.args.mismatchArgs(g) == "" && w.name == g.name {
					failedMatches++
					break
				}
			}
		}
		if len(found) > 0 {
			return verdict(name, false, "made forbidden call "+strings.Join(found, ", "))
		}
		msg := "made none of " + strings.Join(descs, ", ")
		if failedMatches > 0 {
			msg += fmt.Sprintf(" (%d failed attempt(s) not counted)", failedMatches)
		}
		return verdict(name, true, msg)
	}), nil
}

// ToolCallF1 scores the agent's tool calls against expected with partial
// credit: the F1 of precision (how many calls were expected) and recall
// (how many expected calls were made), matching calls in any order, each
// expected call once (Min and Max are not read). Failed calls are set
// aside unless an expected call with MatchFailed matches them. It passes
// when F1 is at least threshold (0..1).
func ToolCallF1(expected []ExpectedCall, threshold float64) (judge.Judge, error) {
	return ToolCallF1With(expected, threshold, CallOpts{})
}

// ToolCallF1With is ToolCallF1 with settings: only ErrorResult is read.
func ToolCallF1With(expected []ExpectedCall, threshold float64, o CallOpts) (judge.Judge, error) {
	want, err := compileCalls(expected)
	if err != nil {
		return nil, fmt.Errorf("tool_call_f1: %w", err)
	}
	if math.IsNaN(threshold) || threshold < 0 || threshold > 1 {
		return nil, fmt.Errorf("tool_call_f1: threshold %v must lie in 0..1", threshold)
	}
	name := "tool_call_f1"
	return toolRule(name, func(calls []judge.ToolCall) judge.Judgment {
		got := decodeCalls(calls, o)
		wantToGot, matched := matchCalls(want, got)
		used := make([]bool, len(got))
		for _, j := range wantToGot {
			if j >= 0 {
				used[j] = true
			}
		}
		made := 0 // the calls that count: successful ones, and failed ones matched
		for j, g := range got {
			if !g.failed || used[j] {
				made++
			}
		}
		// Nothing made where nothing was expected is perfect precision and
		// recall alike.
		precision, recall, f1 := 1.0, 1.0, 1.0
		if made > 0 {
			precision = float64(matched) / float64(made)
		}
		if len(want) > 0 {
			recall = float64(matched) / float64(len(want))
		}
		if made+len(want) > 0 {
			// 2PR/(P+R) from the counts, in one division, so that an F1 of
			// 0.75 is 0.75 and not 0.7499999999999999.
			f1 = float64(2*matched) / float64(made+len(want))
		}
		j := verdict(name, judge.CompareToThreshold(f1, threshold) >= 0, fmt.Sprintf("F1 %.2f (precision %.2f: %d of %d calls expected; recall %.2f: %d of %d expected calls made), threshold %.2f",
			f1, precision, matched, made, recall, matched, len(want), threshold))
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

// A wantCall is an ExpectedCall compiled.
type wantCall struct {
	name        string
	args        *argsPattern // nil: any arguments
	matchFailed bool
	counted     bool // Min or Max given
	min, max    int  // max: unbounded for no bound
}

func (w wantCall) String() string {
	s := w.name
	if w.args != nil {
		s += " " + w.args.String()
	}
	if w.counted {
		switch {
		case w.max == unbounded:
			s += fmt.Sprintf(" (at least %d times)", w.min)
		case w.min == w.max:
			s += fmt.Sprintf(" (%d times)", w.min)
		default:
			s += fmt.Sprintf(" (%d to %d times)", w.min, w.max)
		}
	}
	return s
}

// argsPattern is a call's expected arguments.
type argsPattern struct {
	objectPattern
}

// mismatchArgs says why g's arguments do not match, or "".
func (a *argsPattern) mismatchArgs(g gotCall) string {
	if a == nil {
		return ""
	}
	if g.argsErr != nil {
		return g.argsErr.Error()
	}
	return a.keysMismatch(g.args, "argument")
}

// A gotCall is an actual call with its arguments decoded.
type gotCall struct {
	index   int // in the transcript, from 0
	name    string
	args    map[string]any
	argsErr error // the arguments are not a JSON object
	failed  bool  // CallOpts.failed
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
		w := wantCall{name: e.Name, matchFailed: e.MatchFailed, min: 1, max: 1}
		if e.Min != nil || e.Max != nil {
			w.counted = true
			switch {
			case e.Min != nil && e.Max != nil:
				w.min, w.max = *e.Min, *e.Max
			case e.Min != nil:
				w.min, w.max = *e.Min, unbounded
			default:
				w.max = *e.Max
			}
			switch {
			case w.min < 0:
				return nil, fmt.Errorf("expected call %d (%s): min %d is negative", i+1, e.Name, w.min)
			case w.max < 1:
				return nil, fmt.Errorf("expected call %d (%s): max %d: an expected call is made at least once if at all; forbid a call instead", i+1, e.Name, w.max)
			case w.max < w.min:
				return nil, fmt.Errorf("expected call %d (%s): max %d is below min %d", i+1, e.Name, w.max, w.min)
			}
		}
		want[i] = w
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
		m := compileMode{exact: e.Exact, normalize: e.Normalize}
		var p objectPattern
		if isMatcher(obj) {
			return nil, fmt.Errorf("expected call %d (%s): args are the arguments by name, not a matcher: put matchers on arguments", i+1, e.Name)
		}
		if p, err = compileObject(obj, e.Exact, m); err != nil {
			return nil, fmt.Errorf("expected call %d (%s): argument %w", i+1, e.Name, err)
		}
		want[i].args = &argsPattern{p}
	}
	return want, nil
}

// decodeCalls decodes the calls' arguments and marks the failed ones.
func decodeCalls(calls []judge.ToolCall, o CallOpts) []gotCall {
	got := make([]gotCall, len(calls))
	for i, c := range calls {
		got[i].index = i
		got[i].name = c.Name
		got[i].failed = o.failed(c)
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

// splitFailed separates the failed calls.
func splitFailed(calls []gotCall) (ok, failed []gotCall) {
	for _, c := range calls {
		if c.failed {
			failed = append(failed, c)
		} else {
			ok = append(ok, c)
		}
	}
	return ok, failed
}

// mismatch says why g does not satisfy w, or "" when it does.
func mismatch(w wantCall, g gotCall) string {
	if w.name != g.name {
		return fmt.Sprintf("expected %s, got %s", w.name, g.name)
	}
	if g.failed && !w.matchFailed {
		return fmt.Sprintf("%s failed (a call must succeed)", g.name)
	}
	if m := w.args.mismatchArgs(g); m != "" {
		return fmt.Sprintf("%s: %s", g.name, m)
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
			problems = append(problems, fmt.Sprintf("call %d: unexpected %s", got[i].index+1, got[i].name))
		default:
			if m := mismatch(want[i], got[i]); m != "" {
				problems = append(problems, fmt.Sprintf("call %d: %s", got[i].index+1, m))
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
			problem := fmt.Sprintf("expected call %d (%s) not made", i+1, w)
			if next > 0 {
				problem = fmt.Sprintf("expected call %d (%s) not made after call %d", i+1, w, got[next-1].index+1)
			}
			if hint := nearestMismatch(w, got[next:], true); hint != "" {
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
			problems = append(problems, unmatchedProblem(want[i], got, usedGot))
		}
	}
	if !allowExtra {
		problems = append(problems, extraProblems(got, usedGot)...)
	}
	return problems
}

func unmatchedProblem(w wantCall, got []gotCall, used []bool) string {
	problem := fmt.Sprintf("no call matched %s", w)
	var free []gotCall
	for k, g := range got {
		if !used[k] {
			free = append(free, g)
		}
	}
	if hint := nearestMismatch(w, free, false); hint != "" {
		problem += "; nearest: " + hint
	}
	return problem
}

// extraProblems names the calls not used, failed ones aside.
func extraProblems(got []gotCall, used []bool) []string {
	var problems []string
	for j, u := range used {
		if !u && !got[j].failed {
			problems = append(problems, fmt.Sprintf("unexpected call %d: %s", got[j].index+1, got[j]))
		}
	}
	return problems
}

// nearestMismatch explains why the first call to the same tool among calls
// does not match w, numbered or not.
func nearestMismatch(w wantCall, calls []gotCall, numbered bool) string {
	for _, g := range calls {
		if g.name == w.name {
			if !numbered {
				return mismatch(w, g)
			}
			return fmt.Sprintf("call %d %s", g.index+1, strings.TrimPrefix(mismatch(w, g), g.name+": "))
		}
	}
	return ""
}

// fitTable says which actual calls satisfy which expected ones.
func fitTable(want []wantCall, got []gotCall) [][]bool {
	fits := make([][]bool, len(want))
	for i, w := range want {
		fits[i] = make([]bool, len(got))
		for j, g := range got {
			fits[i][j] = mismatch(w, g) == ""
		}
	}
	return fits
}

// matchCalls pairs expected and actual calls one to one, as many as
// possible (a maximum bipartite matching by augmenting paths: a greedy
// pairing could spend a specific actual call on a loose expectation). It
// returns, for each expected call, the index of its actual call or -1.
func matchCalls(want []wantCall, got []gotCall) ([]int, int) {
	slots := make([]int, len(want))
	for i := range slots {
		slots[i] = i
	}
	gotToSlot, matched := matchSlots(fitTable(want, got), slots, len(got))
	wantToGot := make([]int, len(want))
	for i := range wantToGot {
		wantToGot[i] = -1
	}
	for j, s := range gotToSlot {
		if s >= 0 {
			wantToGot[s] = j
		}
	}
	return wantToGot, matched
}

// matchSlots is a maximum bipartite matching of slots (each an index
// into fits: the expected call it stands for) to actual calls, slots
// tried in order: a slot matched stays matched as later ones augment, so
// slots listed first are matched first. It returns, for each actual
// call, the slot matched to it or -1, and how many slots matched.
func matchSlots(fits [][]bool, slots []int, ngot int) ([]int, int) {
	gotToSlot := make([]int, ngot)
	for j := range gotToSlot {
		gotToSlot[j] = -1
	}
	var augment func(s int, seen []bool) bool
	augment = func(s int, seen []bool) bool {
		for j := range ngot {
			if fits[slots[s]][j] && !seen[j] {
				seen[j] = true
				if gotToSlot[j] < 0 || augment(gotToSlot[j], seen) {
					gotToSlot[j] = s
					return true
				}
			}
		}
		return false
	}
	matched := 0
	for s := range slots {
		if augment(s, make([]bool, ngot)) {
			matched++
		}
	}
	return gotToSlot, matched
}

// countedUnorderedProblems matches in any order with counts: each
// expected call takes from min to max actual calls. The min calls of
// every expected call are matched first, then further ones up to max.
func countedUnorderedProblems(want []wantCall, got []gotCall, allowExtra bool) []string {
	var slots []int
	for i, w := range want {
		for range w.min {
			slots = append(slots, i)
		}
	}
	required := len(slots)
	for i, w := range want {
		for range min(w.max, len(got)) - w.min {
			slots = append(slots, i)
		}
	}
	gotToSlot, _ := matchSlots(fitTable(want, got), slots, len(got))
	count := make([]int, len(want))
	used := make([]bool, len(got))
	requiredMatched := make([]int, len(want))
	for j, s := range gotToSlot {
		if s >= 0 {
			used[j] = true
			count[slots[s]]++
			if s < required {
				requiredMatched[slots[s]]++
			}
		}
	}
	var problems []string
	for i, w := range want {
		if requiredMatched[i] < w.min {
			p := unmatchedProblem(w, got, used)
			if w.counted {
				p = fmt.Sprintf("%d call(s) matched %s", count[i], w)
				if hint := nearestMismatch(w, unusedCalls(got, used), false); hint != "" {
					p += "; nearest: " + hint
				}
			}
			problems = append(problems, p)
		}
	}
	if !allowExtra {
		problems = append(problems, extraProblems(got, used)...)
	}
	return problems
}

func unusedCalls(got []gotCall, used []bool) []gotCall {
	var free []gotCall
	for j, g := range got {
		if !used[j] {
			free = append(free, g)
		}
	}
	return free
}

// countedSequenceProblems matches in order with counts: each expected
// call takes a run of min to max actual calls, in the order listed;
// failed calls may be passed over, and with allowExtra any call.
func countedSequenceProblems(want []wantCall, got []gotCall, allowExtra bool) []string {
	fits := fitTable(want, got)
	// state: expected call k, actual call j, calls taken by k so far c
	// (capped where more make no difference).
	capOf := func(k int) int {
		if want[k].max == unbounded {
			return want[k].min
		}
		return want[k].max
	}
	type state struct{ k, j, c int }
	memo := map[state]bool{}
	var ok func(s state) bool
	ok = func(s state) bool {
		if v, seen := memo[s]; seen {
			return v
		}
		memo[s] = false
		r := false
		switch {
		case s.k == len(want) && s.j == len(got):
			r = true
		default:
			if s.j < len(got) && (got[s.j].failed || allowExtra) {
				r = ok(state{s.k, s.j + 1, s.c})
			}
			if !r && s.k < len(want) && s.j < len(got) && fits[s.k][s.j] && s.c < want[s.k].max {
				r = ok(state{s.k, s.j + 1, min(s.c+1, capOf(s.k))})
			}
			if !r && s.k < len(want) && s.c >= want[s.k].min {
				r = ok(state{s.k + 1, s.j, 0})
			}
		}
		memo[s] = r
		return r
	}
	if ok(state{}) {
		return nil
	}
	// Say which calls fit which expectation: the sequence cannot be made
	// of them.
	var problems []string
	for k, w := range want {
		var fit []string
		for j := range got {
			if fits[k][j] {
				fit = append(fit, fmt.Sprint(got[j].index+1))
			}
		}
		p := fmt.Sprintf("expected call %d (%s) fits calls %s", k+1, w, listOrNone(fit))
		if len(fit) == 0 {
			p = fmt.Sprintf("expected call %d (%s) fits no call", k+1, w)
			if hint := nearestMismatch(w, got, true); hint != "" {
				p += "; nearest: " + hint
			}
		}
		problems = append(problems, p)
	}
	if !allowExtra {
		for j, g := range got {
			fitsAny := false
			for k := range want {
				fitsAny = fitsAny || fits[k][j]
			}
			if !fitsAny && !g.failed {
				problems = append(problems, fmt.Sprintf("call %d (%s) fits no expected call", g.index+1, g))
			}
		}
	}
	return append([]string{"the calls do not make the expected sequence"}, problems...)
}

// maxProblems checks, where other calls are allowed, that no more calls
// match an expected call than its max: every matching call counts.
func maxProblems(want []wantCall, got []gotCall) []string {
	var problems []string
	for _, w := range want {
		if !w.counted || w.max == unbounded {
			continue
		}
		n := 0
		for _, g := range got {
			if mismatch(w, g) == "" {
				n++
			}
		}
		if n > w.max {
			problems = append(problems, fmt.Sprintf("%d calls match %s, at most %d allowed", n, w, w.max))
		}
	}
	return problems
}

// splitToolCalls separates the calls that failed.
func splitToolCalls(calls []judge.ToolCall, o CallOpts) (ok, failed []judge.ToolCall) {
	for _, c := range calls {
		if o.failed(c) {
			failed = append(failed, c)
		} else {
			ok = append(ok, c)
		}
	}
	return ok, failed
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
		if g.failed {
			s[i] += " (failed)"
		}
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
