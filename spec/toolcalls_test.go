package spec_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/spec"
)

// openCases opens a suite and returns its cases by id.
func openCases(t *testing.T, files map[string]string) map[string]*builtCase {
	t.Helper()
	b, err := spec.Open(suiteDir(t, files), testEnv())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	out := map[string]*builtCase{}
	for _, c := range b.Suite.Cases {
		out[c.ID] = &builtCase{judge: c.Judge, metadata: c.Metadata, expected: c.Expected}
		for _, r := range c.Script.Rounds {
			if r.Event != nil {
				out[c.ID].payload = string(r.Event.Payload)
			}
		}
	}
	return out
}

type builtCase struct {
	judge    judge.Judge
	metadata map[string]string
	expected string
	payload  string
}

// TestToolCallArgsKeepTheirYAMLTypes checks that a date and a zip code
// with a leading zero, written plain in YAML, match the strings the agent
// sends (YAML 1.1 made them a timestamp and the octal number 668).
func TestToolCallArgsKeepTheirYAMLTypes(t *testing.T) {
	cases := openCases(t, map[string]string{
		"gavel.yaml": agentYAML + `cases:
  - id: book
    input: book it
    expected_tool_calls:
      - name: book
        args:
          date: 2024-05-20
          when: 2024-05-20T10:30:00Z
          zip: 01234
          hex: 0x1F
          seats: 2
          price: 19.50
          quoted: "7"
          ok: true
          none: null
`,
	})
	for _, tc := range []struct {
		name, args string
		want       judge.Status
	}{
		{"the strings written", `{"date":"2024-05-20","when":"2024-05-20T10:30:00Z","zip":"01234","hex":"0x1F","seats":2,"price":19.5,"quoted":"7","ok":true,"none":null}`, judge.StatusPass},
		{"a timestamp is not the date written", `{"date":"2024-05-20T00:00:00Z","when":"2024-05-20T10:30:00Z","zip":"01234","hex":"0x1F","seats":2,"price":19.5,"quoted":"7","ok":true,"none":null}`, judge.StatusFail},
		{"octal 668 is not the zip written", `{"date":"2024-05-20","when":"2024-05-20T10:30:00Z","zip":668,"hex":"0x1F","seats":2,"price":19.5,"quoted":"7","ok":true,"none":null}`, judge.StatusFail},
		{"a plain number stays a number", `{"date":"2024-05-20","when":"2024-05-20T10:30:00Z","zip":"01234","hex":"0x1F","seats":"2","price":19.5,"quoted":"7","ok":true,"none":null}`, judge.StatusFail},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := judge.Run(t.Context(), cases["book"].judge, single("book it", "booked", call("book", tc.args)))
			if v.Status != tc.want {
				t.Errorf("got %s, want %s: %s", v.Status, tc.want, v.Reasoning)
			}
		})
	}
}

func TestEventPayloadAndMetadataKeepTheirYAMLTypes(t *testing.T) {
	cases := openCases(t, map[string]string{
		"gavel.yaml": agentYAML + `cases:
  - id: e
    metadata:
      source: bfcl
      reviewed: 2024-05-20
      zip: 01234
      origin: {dataset: bfcl, id: 7, split: [simple, multiple]}
    rounds:
      - event: {name: due, payload: {date: 2024-05-20, zip: 01234, n: 3}}
        expected_tools: [remind]
`,
	})
	c := cases["e"]
	var payload map[string]any
	if err := json.Unmarshal([]byte(c.payload), &payload); err != nil {
		t.Fatalf("payload %s: %v", c.payload, err)
	}
	if payload["date"] != "2024-05-20" || payload["zip"] != "01234" || payload["n"] != 3.0 {
		t.Errorf("payload %s, want the date and zip as written and n a number", c.payload)
	}
	want := map[string]string{"source": "bfcl", "reviewed": "2024-05-20", "zip": "01234", "origin": `{"dataset":"bfcl","id":7,"split":["simple","multiple"]}`}
	for k, v := range want {
		if c.metadata[k] != v {
			t.Errorf("metadata %s = %q, want %q", k, c.metadata[k], v)
		}
	}
}

// TestToolCallMatchersFromYAML builds the matchers, failed calls,
// forbidden calls, counts and F1 from a suite file.
func TestToolCallMatchersFromYAML(t *testing.T) {
	cases := openCases(t, map[string]string{
		"gavel.yaml": agentYAML + `cases:
  - id: matchers
    input: go
    expected_tool_calls:
      - name: book_flight
        args:
          to: {$any_of: [CDG, ORY]}
          seat: {$optional: true, $regex: '^[0-9]+[A-F]$'}
          price: {$approx: 120, $tolerance: 0.5}
          city: {$normalize: true, $eq: New York}
          stay: {nights: 2}
        exact: true
  - id: bfcl
    input: go
    expected_tool_calls:
      - name: calc_area
        bfcl: {base: [10], height: [5], unit: [units, ""]}
  - id: tau
    input: go
    tool_error_result: '^Error:'
    expected_tool_calls:
      - {name: get_reservation, min: 1, max: 3}
      - {name: cancel_reservation, args: {reservation_id: XYZ}}
    forbidden_tool_calls:
      - {name: cancel_reservation, args: {reservation_id: ABC}}
  - id: attempt
    input: go
    forbidden_tool_calls:
      - {name: delete_user, must_succeed: false}
  - id: f1
    input: go
    tool_call_order: any
    tool_call_f1: 0.6
    expected_tool_calls: [{name: a}, {name: b}]
`,
	})
	failed := func(name, args string) judge.ToolCall {
		c := call(name, args)
		c.IsError = true
		return c
	}
	errResult := func(name, args string) judge.ToolCall {
		c := call(name, args)
		c.Result = "Error: reservation cannot be cancelled"
		return c
	}
	for _, tc := range []struct {
		name, caseID string
		calls        []judge.ToolCall
		want         judge.Status
		wantIn       string
	}{
		{"matchers pass", "matchers", []judge.ToolCall{call("book_flight", `{"to":"ORY","price":120.2,"city":"new-york","stay":{"nights":2}}`)}, judge.StatusPass, ""},
		{"optional given wrong", "matchers", []judge.ToolCall{call("book_flight", `{"to":"ORY","seat":"12Z","price":120,"city":"NEW YORK","stay":{"nights":2}}`)}, judge.StatusFail, `argument "seat"`},
		{"no other arguments", "matchers", []judge.ToolCall{call("book_flight", `{"to":"CDG","price":120,"city":"New York","stay":{"nights":2},"meal":"veg"}`)}, judge.StatusFail, `unexpected argument "meal"`},
		{"nested exact too", "matchers", []judge.ToolCall{call("book_flight", `{"to":"CDG","price":120,"city":"New York","stay":{"nights":2,"room":"a"}}`)}, judge.StatusFail, `unexpected key "room"`},
		{"bfcl optional left out", "bfcl", []judge.ToolCall{call("calc_area", `{"base":10,"height":5}`)}, judge.StatusPass, ""},
		{"bfcl extra argument", "bfcl", []judge.ToolCall{call("calc_area", `{"base":10,"height":5,"color":"red"}`)}, judge.StatusFail, `unexpected argument "color"`},
		{"tau: failed cancel, then the right one", "tau", []judge.ToolCall{call("get_reservation", `{}`), errResult("cancel_reservation", `{"reservation_id":"ABC"}`), call("cancel_reservation", `{"reservation_id":"XYZ"}`)}, judge.StatusPass, ""},
		{"tau: isError does not satisfy", "tau", []judge.ToolCall{call("get_reservation", `{}`), failed("cancel_reservation", `{"reservation_id":"XYZ"}`)}, judge.StatusFail, "cancel_reservation failed (a call must succeed)"},
		{"tau: forbidden reservation cancelled", "tau", []judge.ToolCall{call("get_reservation", `{}`), call("cancel_reservation", `{"reservation_id":"ABC"}`), call("cancel_reservation", `{"reservation_id":"XYZ"}`)}, judge.StatusFail, "made forbidden call cancel_reservation"},
		{"tau: too many lookups", "tau", []judge.ToolCall{call("get_reservation", `{}`), call("get_reservation", `{}`), call("get_reservation", `{}`), call("get_reservation", `{}`), call("cancel_reservation", `{"reservation_id":"XYZ"}`)}, judge.StatusFail, "fits calls 1, 2, 3, 4"},
		{"attempt forbidden", "attempt", []judge.ToolCall{failed("delete_user", `{}`)}, judge.StatusFail, "failed"},
		{"f1 partial credit", "f1", []judge.ToolCall{call("b", `{}`)}, judge.StatusPass, "F1 0.67"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := judge.Run(t.Context(), cases[tc.caseID].judge, single("go", "done", tc.calls...))
			if v.Status != tc.want || !strings.Contains(v.Reasoning+judgeChecks(v), tc.wantIn) {
				t.Errorf("got %s %q, want %s with %q", v.Status, v.Reasoning+judgeChecks(v), tc.want, tc.wantIn)
			}
		})
	}
	if got := cases["tau"].expected; !strings.Contains(got, `never calls cancel_reservation{"reservation_id":"ABC"}`) {
		t.Errorf("expected %q, want the forbidden call in words", got)
	}
}

// judgeChecks writes the reasonings of a judgment's checks.
func judgeChecks(j judge.Judgment) string {
	var s []string
	for _, c := range j.Checks {
		s = append(s, c.Message)
	}
	return strings.Join(s, "; ")
}

// TestToolCallsSpecDefaults checks the settings of the tool_calls judge
// kind that apply to every call that does not say.
func TestToolCallsSpecDefaults(t *testing.T) {
	no := false
	failed := call("book", `{"city":"new york","extra":1}`)
	failed.IsError = true
	for _, tc := range []struct {
		name  string
		spec  spec.ToolCallsSpec
		calls []judge.ToolCall
		want  judge.Status
	}{
		{"subset, exact strings by default", spec.ToolCallsSpec{Calls: []spec.ToolCallSpec{{Name: "book", Args: spec.Args{"city": "New York"}}}},
			[]judge.ToolCall{call("book", `{"city":"new york","extra":1}`)}, judge.StatusFail},
		{"normalize for every call", spec.ToolCallsSpec{Normalize: true, Calls: []spec.ToolCallSpec{{Name: "book", Args: spec.Args{"city": "New York"}}}},
			[]judge.ToolCall{call("book", `{"city":"new york","extra":1}`)}, judge.StatusPass},
		{"exact for every call", spec.ToolCallsSpec{Normalize: true, Exact: true, Calls: []spec.ToolCallSpec{{Name: "book", Args: spec.Args{"city": "New York"}}}},
			[]judge.ToolCall{call("book", `{"city":"new york","extra":1}`)}, judge.StatusFail},
		{"a call overrides exact", spec.ToolCallsSpec{Normalize: true, Exact: true, Calls: []spec.ToolCallSpec{{Name: "book", Args: spec.Args{"city": "New York"}, Exact: &no}}},
			[]judge.ToolCall{call("book", `{"city":"new york","extra":1}`)}, judge.StatusPass},
		{"must_succeed false for every call", spec.ToolCallsSpec{MustSucceed: &no, Normalize: true, Calls: []spec.ToolCallSpec{{Name: "book", Args: spec.Args{"city": "New York"}}}},
			[]judge.ToolCall{failed}, judge.StatusPass},
		{"forbidden only", spec.ToolCallsSpec{Forbidden: []spec.ToolCallSpec{{Name: "book"}}},
			[]judge.ToolCall{call("book", `{}`)}, judge.StatusFail},
	} {
		t.Run(tc.name, func(t *testing.T) {
			js, err := tc.spec.Judges()
			if err != nil {
				t.Fatal(err)
			}
			v := judge.Run(t.Context(), judge.All(js...), single("go", "done", tc.calls...))
			if v.Status != tc.want {
				t.Errorf("got %s, want %s: %s", v.Status, tc.want, v.Reasoning)
			}
		})
	}
	for _, bad := range []struct {
		spec spec.ToolCallsSpec
		want string
	}{
		{spec.ToolCallsSpec{Order: "any"}, "tool_call_order without expected_tool_calls"},
		{spec.ToolCallsSpec{Calls: []spec.ToolCallSpec{}, ErrorResult: "("}, "tool_error_result: error parsing regexp"},
		{spec.ToolCallsSpec{Calls: []spec.ToolCallSpec{{Name: "a", Args: spec.Args{}, BFCL: spec.Args{}}}}, "gives bfcl and args"},
	} {
		if _, err := bad.spec.Judges(); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%+v: got %v, want an error with %q", bad.spec, err, bad.want)
		}
	}
}

// TestToolErrorResultForEveryToolRule checks issue 22 item 10: a case's
// tool_error_result says which calls failed for expected_tools and
// forbidden_tools as for expected_tool_calls, and the kinds of the same
// names take an error_result.
func TestToolErrorResultForEveryToolRule(t *testing.T) {
	cases := openCases(t, map[string]string{
		"gavel.yaml": agentYAML + `cases:
  - id: fields
    input: go
    tool_error_result: '^Error:'
    expected_tools: [book]
    forbidden_tools: [cancel]
  - id: kinds
    input: go
    rules:
      - {expected_tools: [book], error_result: '^Error:'}
      - {forbidden_tools: [cancel], error_result: '^Error:'}
  - id: without
    input: go
    expected_tools: [book]
    forbidden_tools: [cancel]
`,
	})
	result := func(name, res string) judge.ToolCall {
		c := call(name, `{}`)
		c.Result = res
		return c
	}
	noSeat, notAllowed := result("book", "Error: no seat"), result("cancel", "Error: not allowed")
	booked, cancelled := result("book", "booked"), result("cancel", "cancelled")
	for _, tc := range []struct {
		name, caseID string
		calls        []judge.ToolCall
		want         judge.Status
		wantIn       string
	}{
		{"a failed cancel is no forbidden call", "fields", []judge.ToolCall{booked, notAllowed}, judge.StatusPass, ""},
		{"a failed book is no expected call", "fields", []judge.ToolCall{noSeat}, judge.StatusFail, "missing book (called: none; failed: book)"},
		{"a cancel that succeeded is forbidden", "fields", []judge.ToolCall{booked, cancelled}, judge.StatusFail, "called forbidden tool cancel (call 2)"},
		{"kinds: a failed cancel is no forbidden call", "kinds", []judge.ToolCall{booked, notAllowed}, judge.StatusPass, ""},
		{"kinds: a failed book is no expected call", "kinds", []judge.ToolCall{noSeat}, judge.StatusFail, "missing book"},
		{"without tool_error_result an error text is a result", "without", []judge.ToolCall{noSeat, notAllowed}, judge.StatusFail, "called forbidden tool cancel (call 2)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := judge.Run(t.Context(), cases[tc.caseID].judge, single("go", "done", tc.calls...))
			if v.Status != tc.want || !strings.Contains(v.Reasoning+judgeChecks(v), tc.wantIn) {
				t.Errorf("got %s %q, want %s with %q", v.Status, v.Reasoning+judgeChecks(v), tc.want, tc.wantIn)
			}
		})
	}
}
