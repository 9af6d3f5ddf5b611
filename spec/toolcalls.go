package spec

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/rule"
)

// ToolCallSpec is an expected tool call, or a forbidden one: a tool and
// the arguments that matter.
//
//	expected_tool_calls:
//	  - name: book_flight
//	    args:
//	      date: 2024-05-20                         # the string 2024-05-20
//	      to: {$any_of: [CDG, ORY]}
//	      seat: {$optional: true, $regex: '^[0-9]+[A-F]$'}
//	      price: {$approx: 120, $tolerance: 0.5}
//	      city: {$normalize: true, $eq: New York}  # new-york, NEW YORK...
//	    exact: true                                # no other arguments
//	  - name: calc_area                            # BFCL's possible answer as written
//	    bfcl: {base: [10], height: [5], unit: [units, ""]}
type ToolCallSpec struct {
	Name      string `yaml:"name" doc:"The tool's name."`
	Args      Args   `yaml:"args" doc:"The arguments that matter, by name (others are allowed unless exact). A value is compared as JSON (1 equals 1.0; nested mappings by the keys they list), each scalar of the type written (2024-05-20 and 01234 are strings), or is a matcher, a mapping of $ keys: $any_of: [accepted values], $regex: a Go regular expression found in the string, $approx: a number with $tolerance: (defaults to 1e-6), $eq: a value compared exactly (a mapping with no other keys), $subset: / $exact: a mapping with or without other keys, $optional: true (the argument may be absent; present, it must match the rest), $normalize: true (strings compare case-, white-space- and punctuation-insensitively, as BFCL's standardize_string)."`
	Arguments Args   `yaml:"arguments" doc:"Same as args."`
	BFCL      Args   `yaml:"bfcl" doc:"Instead of args: the call's possible answer as the Berkeley Function Calling Leaderboard writes it, each argument's list of accepted values (\"\" in the list: the argument may be left out; a mapping: a dictionary of such lists). It implies exact and normalize, and is judged as BFCL's AST checker judges it (argument types excepted)."`
	Exact     *bool  `yaml:"exact" doc:"No other arguments: the call, and the mappings within it, hold no keys besides those written (optional ones may be absent). Defaults to false: other arguments are allowed; true with bfcl."`
	Normalize *bool  `yaml:"normalize" doc:"Compare every string of the arguments case-, white-space- and punctuation-insensitively (BFCL's standardize_string: spaces and , . / - _ * ^ dropped, lower case, ' read as \"). Defaults to false; true with bfcl."`
	// MustSucceed reads as its doc says for both expected and forbidden
	// calls: a failed call matches only when it is false.
	MustSucceed *bool `yaml:"must_succeed" doc:"Only a call that succeeded matches. Defaults to true: a failed call (the tool reported an error: MCP isError, or a result matching tool_error_result) does not satisfy an expected call, and is not a forbidden call made (the tool did nothing). false: a failed call matches too (forbid the attempt itself)."`
	Min         *int  `yaml:"min" doc:"An expected call made at least this many times (0: the call is optional). Without min and max: exactly once; max alone: 1 to max."`
	Max         *int  `yaml:"max" doc:"An expected call made at most this many times. With tool_call_order subset, every call that matches counts."`
}

// ToolCallExpectations are the tool-call fields of a case or a round.
type ToolCallExpectations struct {
	ExpectedToolCalls  []ToolCallSpec `yaml:"expected_tool_calls" doc:"The calls the agent must make (an empty list: no calls at all), each a tool and the arguments that matter. Failed calls are set aside: they satisfy no expected call (unless must_succeed: false) and are never extra or out of order."`
	ToolCallOrder      string         `yaml:"tool_call_order" doc:"strict (the order listed, nothing else: the default), any (any order, nothing else), or subset (in order, others allowed)."`
	ForbiddenToolCalls []ToolCallSpec `yaml:"forbidden_tool_calls" doc:"Calls the agent must not make: a tool, and when args are given only calls whose arguments match them (cancel_reservation of reservation ABC, not every cancellation). A failed call is not counted unless must_succeed is false."`
	ToolCallF1         *float64       `yaml:"tool_call_f1" doc:"Partial credit: score the expected_tool_calls by F1 (precision: the share of calls made that were expected; recall: the share of expected calls made; any order, each expected call once) and pass at this score, 0..1, instead of all or nothing. The score is recorded."`
	ToolErrorResult    string         `yaml:"tool_error_result" doc:"A regular expression: a call whose result it matches has failed, for agents that report a tool's error only in its result (tau-bench's tools answer \"Error: ...\"): '^Error:'. A call the agent reports as an error (MCP isError) has failed whatever its result. It holds for every tool rule beside it: expected_tool_calls, forbidden_tool_calls, expected_tools and forbidden_tools (a round gives its own)."`
}

// ToolCallsSpec is the tool-call judge's settings, as one item: the
// expected calls, their order, the forbidden calls and how calls match.
// Expectations' tool-call fields build one.
type ToolCallsSpec struct {
	Calls       []ToolCallSpec `yaml:"calls" doc:"The calls the agent must make (an empty list: no calls at all)."`
	Order       string         `yaml:"order" doc:"strict (the order listed, nothing else: the default), any (any order, nothing else), or subset (in order, others allowed)."`
	Exact       bool           `yaml:"exact" doc:"No other arguments, for every call that does not say (see a call's exact)."`
	Normalize   bool           `yaml:"normalize" doc:"Strings compare normalised, for every call that does not say (see a call's normalize)."`
	MustSucceed *bool          `yaml:"must_succeed" doc:"Only calls that succeeded match, for every call that does not say. Defaults to true."`
	Forbidden   []ToolCallSpec `yaml:"forbidden" doc:"Calls the agent must not make (see forbidden_tool_calls)."`
	F1          *float64       `yaml:"f1" doc:"Score the calls by F1 and pass at this score, 0..1, instead of all or nothing (see tool_call_f1)."`
	ErrorResult string         `yaml:"error_result" doc:"A regular expression: a call whose result it matches has failed (see tool_error_result)."`
}

// Spec returns the expectations' tool-call fields as a ToolCallsSpec, and
// whether they ask anything of tool calls.
func (e ToolCallExpectations) Spec() (ToolCallsSpec, bool) {
	s := ToolCallsSpec{Calls: e.ExpectedToolCalls, Order: e.ToolCallOrder, Forbidden: e.ForbiddenToolCalls, F1: e.ToolCallF1, ErrorResult: e.ToolErrorResult}
	return s, e.ExpectedToolCalls != nil || len(e.ForbiddenToolCalls) > 0
}

// Judges builds the judges s describes: one for the expected calls (when
// Calls is not nil) and one for the forbidden calls (when there are any).
// An error says which field is wrong.
func (s ToolCallsSpec) Judges() ([]judge.Judge, error) {
	var opts rule.CallOpts
	switch s.Order {
	case "", "strict":
	case "any":
		opts.AnyOrder = true
	case "subset":
		opts.AllowExtra = true
	default:
		return nil, fmt.Errorf("expected_tool_calls: tool_call_order %q: want strict, any or subset", s.Order)
	}
	failed, err := failedCallOpts("tool_error_result", s.ErrorResult)
	if err != nil {
		return nil, err
	}
	opts.ErrorResult = failed.ErrorResult
	var out []judge.Judge
	if s.Calls != nil {
		calls, err := s.expectedCalls(s.Calls, "call")
		if err != nil {
			return nil, fmt.Errorf("expected_tool_calls: %w", err)
		}
		var j judge.Judge
		if s.F1 != nil {
			j, err = rule.ToolCallF1With(calls, *s.F1, opts)
		} else {
			j, err = rule.ToolCalls(calls, opts)
		}
		if err != nil {
			return nil, fmt.Errorf("expected_tool_calls: %w", err)
		}
		out = append(out, j)
	} else if s.Order != "" {
		return nil, errors.New("tool_call_order without expected_tool_calls")
	} else if s.F1 != nil {
		return nil, errors.New("tool_call_f1 without expected_tool_calls")
	}
	if len(s.Forbidden) > 0 {
		calls, err := s.expectedCalls(s.Forbidden, "forbidden call")
		if err != nil {
			return nil, fmt.Errorf("forbidden_tool_calls: %w", err)
		}
		j, err := rule.ForbiddenCalls(calls, opts)
		if err != nil {
			return nil, err
		}
		out = append(out, j)
	}
	return out, nil
}

// expectedCalls converts calls to the rule's.
func (s ToolCallsSpec) expectedCalls(specs []ToolCallSpec, noun string) ([]rule.ExpectedCall, error) {
	calls := make([]rule.ExpectedCall, 0, len(specs))
	for i, c := range specs {
		if c.Args != nil && c.Arguments != nil {
			return nil, fmt.Errorf("%s %d gives both args and arguments: they are the same field", noun, i+1)
		}
		if c.BFCL != nil && (c.Args != nil || c.Arguments != nil) {
			return nil, fmt.Errorf("%s %d gives bfcl and args: bfcl is the arguments written as BFCL does; give one", noun, i+1)
		}
		e := rule.ExpectedCall{Name: c.Name, Exact: s.Exact, Normalize: s.Normalize, Min: c.Min, Max: c.Max}
		switch {
		case c.BFCL != nil:
			raw, err := json.Marshal(map[string]any(c.BFCL))
			if err != nil {
				return nil, fmt.Errorf("%s %d (%s): %w", noun, i+1, c.Name, err)
			}
			if e, err = rule.BFCLCall(c.Name, raw); err != nil {
				return nil, fmt.Errorf("%s %d: %w", noun, i+1, err)
			}
			e.Min, e.Max = c.Min, c.Max
		case c.Args != nil || c.Arguments != nil:
			args := c.Args
			if args == nil {
				args = c.Arguments
			}
			raw, err := json.Marshal(map[string]any(args))
			if err != nil {
				return nil, fmt.Errorf("%s %d (%s): %w", noun, i+1, c.Name, err)
			}
			e.Args = raw
		}
		if c.Exact != nil {
			e.Exact = *c.Exact
		}
		if c.Normalize != nil {
			e.Normalize = *c.Normalize
		}
		mustSucceed := s.MustSucceed == nil || *s.MustSucceed
		if c.MustSucceed != nil {
			mustSucceed = *c.MustSucceed
		}
		e.MatchFailed = !mustSucceed
		calls = append(calls, e)
	}
	return calls, nil
}

// failedCallOpts compiles a field that says which calls failed
// (tool_error_result, error_result) into the settings every tool rule
// reads it from. An empty field leaves IsError alone to say so.
func failedCallOpts(field, errorResult string) (rule.CallOpts, error) {
	if errorResult == "" {
		return rule.CallOpts{}, nil
	}
	re, err := regexp.Compile(errorResult)
	if err != nil {
		return rule.CallOpts{}, fmt.Errorf("%s: %w", field, err)
	}
	return rule.CallOpts{ErrorResult: re}, nil
}

// toolCallWords says what the tool-call fields expect, for reports.
func toolCallWords(e ToolCallExpectations) []string {
	var words []string
	if e.ExpectedToolCalls != nil {
		var calls []string
		for _, c := range e.ExpectedToolCalls {
			calls = append(calls, callWords(c))
		}
		w := "tool calls " + strings.Join(calls, ", ")
		if e.ToolCallF1 != nil {
			w += fmt.Sprintf(" (F1 at least %g)", *e.ToolCallF1)
		}
		words = append(words, w)
	}
	if len(e.ForbiddenToolCalls) > 0 {
		var calls []string
		for _, c := range e.ForbiddenToolCalls {
			calls = append(calls, callWords(c))
		}
		words = append(words, "never calls "+strings.Join(calls, ", "))
	}
	return words
}

func callWords(c ToolCallSpec) string {
	args := c.Args
	for _, a := range []Args{c.Arguments, c.BFCL} {
		if args == nil {
			args = a
		}
	}
	if args == nil {
		return c.Name + "{}"
	}
	b, _ := json.Marshal(map[string]any(args))
	return c.Name + string(b)
}
