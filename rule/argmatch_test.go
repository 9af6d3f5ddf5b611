package rule_test

import (
	"context"
	"encoding/json"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/judge/judgetest"
	"github.com/gavelhq/gavel/rule"
)

func TestArgumentMatchers(t *testing.T) {
	tests := []struct {
		name      string
		want      string // the expected args
		exact     bool
		normalize bool
		got       string // the agent's args
		pass      bool
		wantIn    string
	}{
		{name: "plain value", want: `{"city":"Paris"}`, got: `{"city":"Paris","days":2}`, pass: true},
		{name: "plain value differs", want: `{"city":"Paris"}`, got: `{"city":"paris"}`, wantIn: `argument "city" expected "Paris", got "paris"`},
		{name: "nested object is a subset by default", want: `{"stay":{"in":"mon"}}`, got: `{"stay":{"in":"mon","out":"tue"}}`, pass: true},
		{name: "nested object exact per call", want: `{"stay":{"in":"mon"}}`, exact: true, got: `{"stay":{"in":"mon","out":"tue"}}`, wantIn: `argument "stay" unexpected key "out"`},
		{name: "$exact on one argument", want: `{"stay":{"$exact":{"in":"mon"}}}`, got: `{"stay":{"in":"mon","out":"tue"}}`, wantIn: `unexpected key "out"`},
		{name: "$subset in an exact call", want: `{"stay":{"$subset":{"in":"mon"}}}`, exact: true, got: `{"stay":{"in":"mon","out":"tue"}}`, pass: true},
		{name: "$eq is exact", want: `{"stay":{"$eq":{"in":"mon"}}}`, got: `{"stay":{"in":"mon","out":"tue"}}`, wantIn: `expected {"in":"mon"}`},
		{name: "$eq writes $ keys literally", want: `{"q":{"$eq":{"$ref":"x"}}}`, got: `{"q":{"$ref":"x"}}`, pass: true},
		{name: "no other arguments", want: `{"city":"Paris"}`, exact: true, got: `{"city":"Paris","days":2}`, wantIn: `unexpected argument "days" (no other arguments allowed)`},
		{name: "no other arguments, none given", want: `{"city":"Paris"}`, exact: true, got: `{"city":"Paris"}`, pass: true},
		{name: "$any_of", want: `{"city":{"$any_of":["Paris","Lyon"]}}`, got: `{"city":"Lyon"}`, pass: true},
		{name: "$any_of none", want: `{"city":{"$any_of":["Paris","Lyon"]}}`, got: `{"city":"Nice"}`, wantIn: `expected one of "Paris", "Lyon", got "Nice"`},
		{name: "$any_of of matchers", want: `{"n":{"$any_of":[{"$approx":3.14,"$tolerance":0.01},"pi"]}}`, got: `{"n":3.141}`, pass: true},
		{name: "$optional absent", want: `{"unit":{"$optional":true,"$eq":"km"}}`, got: `{}`, pass: true},
		{name: "$optional present and right", want: `{"unit":{"$optional":true,"$eq":"km"}}`, got: `{"unit":"km"}`, pass: true},
		{name: "$optional present and wrong", want: `{"unit":{"$optional":true,"$eq":"km"}}`, got: `{"unit":"mi"}`, wantIn: `argument "unit" expected "km", got "mi"`},
		{name: "$optional alone takes any value", want: `{"note":{"$optional":true}}`, exact: true, got: `{"note":[1,2]}`, pass: true},
		{name: "$optional keys allowed by exact", want: `{"a":1,"b":{"$optional":true,"$eq":2}}`, exact: true, got: `{"a":1}`, pass: true},
		{name: "required argument missing", want: `{"a":1}`, got: `{}`, wantIn: `argument "a" missing (expected 1)`},
		{name: "$regex", want: `{"id":{"$regex":"^[A-Z]{3}\\d+$"}}`, got: `{"id":"ABC123"}`, pass: true},
		{name: "$regex no match", want: `{"id":{"$regex":"^[A-Z]{3}\\d+$"}}`, got: `{"id":"abc123"}`, wantIn: `expected a string matching /^[A-Z]{3}\d+$/, got "abc123"`},
		{name: "$regex on a number", want: `{"id":{"$regex":"1"}}`, got: `{"id":1}`, wantIn: `got 1`},
		{name: "$approx within", want: `{"x":{"$approx":3.14,"$tolerance":0.01}}`, got: `{"x":3.1449}`, pass: true},
		{name: "$approx beyond", want: `{"x":{"$approx":3.14,"$tolerance":0.01}}`, got: `{"x":3.16}`, wantIn: `expected 3.14 ± 0.01, got 3.16`},
		{name: "$approx default tolerance", want: `{"x":{"$approx":0.1}}`, got: `{"x":0.1000000001}`, pass: true},
		{name: "$approx a string", want: `{"x":{"$approx":1}}`, got: `{"x":"1"}`, wantIn: `got "1"`},
		{name: "$normalize", want: `{"city":{"$normalize":true,"$eq":"New York, NY"}}`, got: `{"city":"new-york ny"}`, pass: true},
		{name: "$normalize with $any_of", want: `{"city":{"$normalize":true,"$any_of":["NYC","Boston"]}}`, got: `{"city":"n.y.c."}`, pass: true},
		{name: "$normalize keeps other punctuation", want: `{"city":{"$normalize":true,"$eq":"NYC"}}`, got: `{"city":"NYC!"}`, wantIn: `got "NYC!"`},
		{name: "normalize per call reaches nested strings", want: `{"stay":{"city":"Saint-Malo"},"tags":["A B"]}`, normalize: true, got: `{"stay":{"city":"saint malo"},"tags":["ab"]}`, pass: true},
		{name: "single quotes normalise to double", want: `{"q":"say \"hi\""}`, normalize: true, got: `{"q":"say 'hi'"}`, pass: true},
		{name: "numbers by value", want: `{"n":1}`, got: `{"n":1.0}`, pass: true},
		{name: "arrays in order", want: `{"l":[1,2]}`, got: `{"l":[2,1]}`, wantIn: `argument "l" [0]: expected 1, got 2`},
		{name: "arrays of matchers", want: `{"l":[{"$regex":"^a"},{"$any_of":[1,2]}]}`, got: `{"l":["ab",2]}`, pass: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j, err := rule.ToolCalls([]rule.ExpectedCall{{Name: "f", Args: json.RawMessage(tt.want), Exact: tt.exact, Normalize: tt.normalize}}, rule.CallOpts{})
			if err != nil {
				t.Fatal(err)
			}
			got := judge.Run(context.Background(), j, withCalls("f", tt.got))
			if got.Passed() != tt.pass || !strings.Contains(got.Reasoning, tt.wantIn) {
				t.Errorf("got %s %q, want pass=%v with %q", got.Status, got.Reasoning, tt.pass, tt.wantIn)
			}
		})
	}
}

func TestArgumentMatchersRefuseBadPatterns(t *testing.T) {
	build := func(args string) func() (judge.Judge, error) {
		return func() (judge.Judge, error) {
			return rule.ToolCalls([]rule.ExpectedCall{{Name: "f", Args: json.RawMessage(args)}}, rule.CallOpts{})
		}
	}
	judgetest.RunBuildErrorCases(t, []judgetest.BuildErrorCase{
		{Name: "unknown matcher", Build: build(`{"a":{"$anyof":[1]}}`), WantErr: `argument a: unknown matcher "$anyof"`},
		{Name: "matcher keys beside others", Build: build(`{"a":{"$eq":1,"b":2}}`), WantErr: `"b" beside matcher keys ($eq)`},
		{Name: "two tests", Build: build(`{"a":{"$eq":1,"$regex":"x"}}`), WantErr: "one test per matcher: this one gives $eq and $regex"},
		{Name: "no test", Build: build(`{"a":{"$normalize":true}}`), WantErr: "a matcher with no test"},
		{Name: "bad regex", Build: build(`{"a":{"$regex":"("}}`), WantErr: "$regex: error parsing regexp"},
		{Name: "any_of not a list", Build: build(`{"a":{"$any_of":1}}`), WantErr: "$any_of: want a list of accepted values, got a number"},
		{Name: "tolerance alone", Build: build(`{"a":{"$tolerance":1,"$eq":1}}`), WantErr: "$tolerance without $approx"},
		{Name: "negative tolerance", Build: build(`{"a":{"$approx":1,"$tolerance":-1}}`), WantErr: "$tolerance: want a number of at least 0"},
		{Name: "approx beyond a float64", Build: build(`{"a":{"$approx":1e400}}`), WantErr: "$approx: 1e400 is not a number a float64 holds"},
		{Name: "optional not a boolean", Build: build(`{"a":{"$optional":"yes"}}`), WantErr: "$optional: want true or false, got a string"},
		{Name: "args a matcher", Build: build(`{"$eq":{}}`), WantErr: "args are the arguments by name, not a matcher"},
		{Name: "nested error has a path", Build: build(`{"a":{"b":[{"$bad":1}]}}`), WantErr: `argument a: b: [0]: unknown matcher "$bad"`},
		{Name: "max 0", Build: func() (judge.Judge, error) {
			return rule.ToolCalls([]rule.ExpectedCall{{Name: "f", Max: ptr(0)}}, rule.CallOpts{})
		}, WantErr: "forbid a call instead"},
		{Name: "max below min", Build: func() (judge.Judge, error) {
			return rule.ToolCalls([]rule.ExpectedCall{{Name: "f", Min: ptr(3), Max: ptr(2)}}, rule.CallOpts{})
		}, WantErr: "max 2 is below min 3"},
		{Name: "forbidden with counts", Build: func() (judge.Judge, error) {
			return rule.ForbiddenCalls([]rule.ExpectedCall{{Name: "f", Max: ptr(2)}}, rule.CallOpts{})
		}, WantErr: "min and max are for expected calls"},
		{Name: "no forbidden calls", Build: func() (judge.Judge, error) { return rule.ForbiddenCalls(nil, rule.CallOpts{}) }, WantErr: "no calls given"},
	})
}

func ptr[T any](v T) *T { return &v }

// failedCalls is a transcript of calls given as name, arguments and
// whether the call failed.
func failedCalls(calls ...any) *judge.Transcript {
	turn := judge.Turn{Role: judge.RoleAgent, Content: "done"}
	for i := 0; i+2 < len(calls); i += 3 {
		c := judge.ToolCall{Name: calls[i].(string), Arguments: json.RawMessage(calls[i+1].(string))}
		if calls[i+2].(bool) {
			c.IsError, c.Result = true, "Error: reservation not found"
		}
		turn.ToolCalls = append(turn.ToolCalls, c)
	}
	return &judge.Transcript{Turns: []judge.Turn{{Role: judge.RoleUser, Content: "go"}, turn}}
}

// TestFailedCalls checks τ-bench's view of failed calls: a call that
// returned an error changed nothing, so it satisfies no expected call
// (unless MatchFailed) and is not a forbidden call made (unless the
// pattern forbids the attempt).
func TestFailedCalls(t *testing.T) {
	pass, fail := judge.StatusPass, judge.StatusFail
	cancel := []rule.ExpectedCall{{Name: "cancel_reservation", Args: json.RawMessage(`{"reservation_id":"ABC"}`)}}
	forbidABC := []rule.ExpectedCall{{Name: "cancel_reservation", Args: json.RawMessage(`{"reservation_id":"ABC"}`)}}
	tcs := func(want []rule.ExpectedCall, o rule.CallOpts) func() (judge.Judge, error) {
		return func() (judge.Judge, error) { return rule.ToolCalls(want, o) }
	}
	forbidden := func(f []rule.ExpectedCall, o rule.CallOpts) func() (judge.Judge, error) {
		return func() (judge.Judge, error) { return rule.ForbiddenCalls(f, o) }
	}
	judgetest.RunCases(t, []judgetest.Case{
		{Name: "a failed call does not satisfy an expected call", Build: tcs(cancel, rule.CallOpts{}),
			Transcript: failedCalls("cancel_reservation", `{"reservation_id":"ABC"}`, true),
			WantStatus: fail, WantIn: []string{"expected 1 call(s), got 0", "1 failed call(s) set aside"}},
		{Name: "a failed call then a retry that succeeds", Build: tcs(cancel, rule.CallOpts{}),
			Transcript: failedCalls("cancel_reservation", `{"reservation_id":"ABC"}`, true, "cancel_reservation", `{"reservation_id":"ABC"}`, false),
			WantStatus: pass},
		{Name: "a failed call is not extra in any order", Build: tcs(cancel, rule.CallOpts{AnyOrder: true}),
			Transcript: failedCalls("get_reservation", `{}`, true, "cancel_reservation", `{"reservation_id":"ABC"}`, false),
			WantStatus: pass},
		{Name: "MatchFailed accepts a failed call", Build: tcs([]rule.ExpectedCall{{Name: "cancel_reservation", MatchFailed: true}}, rule.CallOpts{}),
			Transcript: failedCalls("cancel_reservation", `{"reservation_id":"ABC"}`, true), WantStatus: pass},
		{Name: "an error result counts as failed", Build: tcs(cancel, rule.CallOpts{ErrorResult: regexp.MustCompile(`^Error:`)}),
			Transcript: withResult("cancel_reservation", `{"reservation_id":"ABC"}`, "Error: not cancellable"),
			WantStatus: fail, WantIn: []string{"set aside"}},
		{Name: "without ErrorResult an error text is a result", Build: tcs(cancel, rule.CallOpts{}),
			Transcript: withResult("cancel_reservation", `{"reservation_id":"ABC"}`, "Error: not cancellable"), WantStatus: pass},

		{Name: "forbidden call made", Build: forbidden(forbidABC, rule.CallOpts{}),
			Transcript: failedCalls("cancel_reservation", `{"reservation_id":"ABC"}`, false),
			WantStatus: fail, WantIn: []string{`made forbidden call cancel_reservation {"reservation_id":"ABC"} (call 1)`}},
		{Name: "forbidden call limited by arguments: another reservation", Build: forbidden(forbidABC, rule.CallOpts{}),
			Transcript: failedCalls("cancel_reservation", `{"reservation_id":"XYZ"}`, false), WantStatus: pass},
		{Name: "a failed forbidden call is not counted", Build: forbidden(forbidABC, rule.CallOpts{}),
			Transcript: failedCalls("cancel_reservation", `{"reservation_id":"ABC"}`, true),
			WantStatus: pass, WantIn: []string{"1 failed attempt(s) not counted"}},
		{Name: "forbidding the attempt", Build: forbidden([]rule.ExpectedCall{{Name: "cancel_reservation", MatchFailed: true}}, rule.CallOpts{}),
			Transcript: failedCalls("cancel_reservation", `{"reservation_id":"ABC"}`, true),
			WantStatus: fail, WantIn: []string{"(call 1, failed)"}},
		{Name: "forbidden with a matcher", Build: forbidden([]rule.ExpectedCall{{Name: "refund", Args: json.RawMessage(`{"amount":{"$regex":"^[0-9]{4,}"}}`)}}, rule.CallOpts{}),
			Transcript: failedCalls("refund", `{"amount":"50"}`, false), WantStatus: pass},

		{Name: "expected_tools ignores a failed call", Build: func() (judge.Judge, error) { return rule.ExpectedTools("cancel_reservation") },
			Transcript: failedCalls("cancel_reservation", `{}`, true), WantStatus: fail, WantIn: []string{"(called: none; failed: cancel_reservation)"}},
		{Name: "forbidden_tools ignores a failed call", Build: func() (judge.Judge, error) { return rule.ForbiddenTools("cancel_reservation") },
			Transcript: failedCalls("cancel_reservation", `{}`, true), WantStatus: pass},
		{Name: "expected_tools: an error result counts as failed", Build: func() (judge.Judge, error) {
			return rule.ExpectedToolsWith([]string{"book"}, rule.CallOpts{ErrorResult: regexp.MustCompile(`^Error:`)})
		}, Transcript: withResult("book", `{}`, "Error: no seat"), WantStatus: fail, WantIn: []string{"missing book (called: none; failed: book)"}},
		{Name: "forbidden_tools: an error result counts as failed", Build: func() (judge.Judge, error) {
			return rule.ForbiddenToolsWith([]string{"cancel"}, rule.CallOpts{ErrorResult: regexp.MustCompile(`^Error:`)})
		}, Transcript: withResult("cancel", `{}`, "Error: not allowed"), WantStatus: pass, WantIn: []string{"called none of cancel (1 failed attempt(s) not counted)"}},
		{Name: "forbidden_tools: a result that does not match is a call made", Build: func() (judge.Judge, error) {
			return rule.ForbiddenToolsWith([]string{"cancel"}, rule.CallOpts{ErrorResult: regexp.MustCompile(`^Error:`)})
		}, Transcript: withResult("cancel", `{}`, "cancelled; Error: none"), WantStatus: fail, WantIn: []string{"called forbidden tool cancel (call 1)"}},
	})
}

func withResult(name, args, result string) *judge.Transcript {
	t := withCalls(name, args)
	t.Turns[1].ToolCalls[0].Result = result
	return t
}

func TestCallCounts(t *testing.T) {
	pass, fail := judge.StatusPass, judge.StatusFail
	search := func(min, max *int) rule.ExpectedCall { return rule.ExpectedCall{Name: "search", Min: min, Max: max} }
	book := rule.ExpectedCall{Name: "book"}
	build := func(o rule.CallOpts, want ...rule.ExpectedCall) func() (judge.Judge, error) {
		return func() (judge.Judge, error) { return rule.ToolCalls(want, o) }
	}
	s3b := withCalls("search", `{}`, "search", `{}`, "search", `{}`, "book", `{}`)
	judgetest.RunCases(t, []judgetest.Case{
		{Name: "strict: a run within bounds", Build: build(rule.CallOpts{}, search(ptr(1), ptr(3)), book), Transcript: s3b, WantStatus: pass},
		{Name: "strict: a run too long", Build: build(rule.CallOpts{}, search(ptr(1), ptr(2)), book), Transcript: s3b,
			WantStatus: fail, WantIn: []string{"expected call 1 (search (1 to 2 times)) fits calls 1, 2, 3"}},
		{Name: "strict: at least", Build: build(rule.CallOpts{}, search(ptr(2), nil), book), Transcript: s3b, WantStatus: pass},
		{Name: "strict: at least, too few", Build: build(rule.CallOpts{}, search(ptr(4), nil), book), Transcript: s3b, WantStatus: fail},
		{Name: "strict: optional call absent", Build: build(rule.CallOpts{}, search(ptr(0), nil), book), Transcript: withCalls("book", `{}`), WantStatus: pass},
		{Name: "strict: an unexpected call", Build: build(rule.CallOpts{}, search(ptr(0), nil), book), Transcript: withCalls("log", `{}`, "book", `{}`),
			WantStatus: fail, WantIn: []string{"call 1 (log) fits no expected call"}},
		{Name: "subset: at most counts every matching call", Build: build(rule.CallOpts{AllowExtra: true}, search(nil, ptr(2)), book), Transcript: s3b,
			WantStatus: fail, WantIn: []string{"3 calls match search (1 to 2 times), at most 2 allowed"}},
		{Name: "subset: within bounds with others between", Build: build(rule.CallOpts{AllowExtra: true}, search(nil, ptr(3)), book),
			Transcript: withCalls("search", `{}`, "log", `{}`, "search", `{}`, "book", `{}`), WantStatus: pass},
		{Name: "any order: counts", Build: build(rule.CallOpts{AnyOrder: true}, book, search(ptr(2), ptr(3))), Transcript: s3b, WantStatus: pass},
		{Name: "any order: too many", Build: build(rule.CallOpts{AnyOrder: true}, book, search(ptr(1), ptr(2))), Transcript: s3b,
			WantStatus: fail, WantIn: []string{"unexpected call 3: search"}},
		{Name: "any order: too few", Build: build(rule.CallOpts{AnyOrder: true}, book, search(ptr(4), nil)), Transcript: s3b,
			WantStatus: fail, WantIn: []string{"3 call(s) matched search (at least 4 times)"}},
		{Name: "a failed call is passed over with counts", Build: build(rule.CallOpts{}, search(ptr(1), ptr(2)), book),
			Transcript: failedCalls("search", `{}`, false, "book", `{}`, true, "book", `{}`, false), WantStatus: pass},
	})
}

func TestToolCallF1SetsFailedCallsAside(t *testing.T) {
	j, err := rule.ToolCallF1([]rule.ExpectedCall{{Name: "a"}, {Name: "b"}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	got := judge.Run(context.Background(), j, failedCalls("a", `{}`, false, "c", `{}`, true, "b", `{}`, false))
	if got.Status != judge.StatusPass || got.Score.Normalized() != 1 {
		t.Errorf("got %s F1 %v, want PASS 1 (%s)", got.Status, got.Score.Normalized(), got.Reasoning)
	}
}

// TestToolCallF1CountsFailedCallsItMatches checks that a failed call an
// expected call with MatchFailed takes is a call made: it counts in
// precision's denominator as in its numerator.
func TestToolCallF1CountsFailedCallsItMatches(t *testing.T) {
	expected := []rule.ExpectedCall{{Name: "a", MatchFailed: true}, {Name: "b"}}
	for _, tc := range []struct {
		name       string
		transcript *judge.Transcript
		wantF1     float64
		wantIn     string
	}{
		{"the failed call matched, nothing else", failedCalls("a", `{}`, true, "b", `{}`, false), 1, "precision 1.00: 2 of 2 calls expected"},
		{"the failed call matched, one extra", failedCalls("a", `{}`, true, "b", `{}`, false, "c", `{}`, false), 0.8, "precision 0.67: 2 of 3 calls expected"},
		{"a failed call not matched is set aside", failedCalls("a", `{}`, true, "b", `{}`, false, "c", `{}`, true), 1, "precision 1.00: 2 of 2 calls expected"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j, err := rule.ToolCallF1(expected, 0.5)
			if err != nil {
				t.Fatal(err)
			}
			got := judge.Run(t.Context(), j, tc.transcript)
			if math.Abs(got.Score.Normalized()-tc.wantF1) > 1e-9 || !strings.Contains(got.Reasoning, tc.wantIn) {
				t.Errorf("got F1 %v %q, want F1 %v with %q", got.Score.Normalized(), got.Reasoning, tc.wantF1, tc.wantIn)
			}
		})
	}
}
