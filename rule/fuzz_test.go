package rule_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/rule"
)

// The fuzz targets call Judge directly, not through judge.Run, which would
// turn a panic into an ERROR judgment and hide it. A rule that reads only
// the transcript has no reason to fail to judge, so anything but PASS or
// FAIL is a bug too.

func FuzzTextRules(f *testing.F) {
	f.Add("Your order 12345 has shipped.", "shipped")
	f.Add("Hi {name}!\n\n\nWhich one??  — ok", "[A-Z]+")
	f.Add("\xff\xfe invalid utf-8 ？", "(?i)\\p{Lu}")
	f.Add("", "")
	f.Fuzz(func(t *testing.T, reply, needle string) {
		var judges []judge.Judge
		add := func(j judge.Judge, err error) {
			if err == nil {
				judges = append(judges, j)
			}
		}
		for _, o := range []rule.Opts{{}, {Negate: true, IgnoreCase: true, Scope: rule.EachTurn}} {
			add(rule.Equals(needle, o))
			add(rule.Contains(needle, o))
			add(rule.ContainsAll([]string{needle, "a"}, o))
			add(rule.ContainsAny([]string{needle, "a"}, o))
			add(rule.Regex(needle, o))
			add(rule.StartsWith(needle, o))
		}
		add(rule.ForbiddenPhrases([]string{needle}, rule.EachTurn))
		add(rule.Length(1, 10, rule.Final))
		add(rule.MaxQuestions(1, rule.EachTurn))
		add(rule.MaxBubbles(2, rule.EachTurn))
		add(rule.LowercaseOnly(rule.Final))
		add(rule.NoEmDash(rule.Final))
		add(rule.NoPlaceholders(rule.Final))

		tr := conversation(reply, needle)
		for _, j := range judges {
			got, err := j.Judge(context.Background(), tr)
			if err != nil || (got.Status != judge.StatusPass && got.Status != judge.StatusFail) {
				t.Fatalf("%s on %q: got %s, %v; want PASS or FAIL", got.Name, reply, got.Status, err)
			}
		}
	})
}

func FuzzJSONRules(f *testing.F) {
	f.Add(`{"order_id":"12345","qty":1}`, `{"type":"object","required":["order_id"]}`)
	f.Add(`[1, 2.0, 1e400, -0, "x"]`, `{"items":{"type":"number","multipleOf":0.01}}`)
	f.Add(`{"a":{"b":[{"c":null}]}}`, `{"$ref":"#/$defs/x","$defs":{"x":{"pattern":"^a"}}}`)
	f.Add(`1e999999999`, `{"maximum":1e999999999}`)
	f.Add(`{`, `{"$ref":"#/nope"}`)
	f.Add(`{"a":{"$any_of":[1,{"$regex":"^x"}]},"b":{"$optional":true,"$approx":1e308,"$tolerance":1e308}}`, `{"a":"xy","b":-1e308}`)
	f.Add(`{"a":{"$approx":1e400}}`, `{"a":1e400}`)
	f.Add(`{"a":{"$exact":{"b":{"$normalize":true,"$eq":["A-B"]}}}}`, `{"a":{"b":["ab"]}}`)
	f.Fuzz(func(t *testing.T, value, schema string) {
		var judges []judge.Judge
		add := func(j judge.Judge, err error) {
			if err == nil {
				judges = append(judges, j)
			}
		}
		add(rule.ValidJSON(rule.EachTurn))
		add(rule.JSONSchema([]byte(schema), rule.EachTurn))
		expected := []rule.ExpectedCall{{Name: "t", Args: json.RawMessage(value)}}
		add(rule.ToolCalls(expected, rule.CallOpts{}))
		add(rule.ToolCalls(expected, rule.CallOpts{AnyOrder: true, AllowExtra: true}))
		add(rule.ToolCallF1(expected, 0.5))
		one, two := 1, 2
		counted := []rule.ExpectedCall{{Name: "t", Args: json.RawMessage(value), Exact: true, Normalize: true, MatchFailed: true, Min: &one, Max: &two}}
		add(rule.ToolCalls(counted, rule.CallOpts{}))
		add(rule.ToolCalls(counted, rule.CallOpts{AnyOrder: true}))
		add(rule.ToolCalls(counted, rule.CallOpts{AllowExtra: true}))
		add(rule.ForbiddenCalls(expected, rule.CallOpts{}))
		if b, err := rule.BFCLCall("t", json.RawMessage(value)); err == nil {
			add(rule.ToolCalls([]rule.ExpectedCall{b}, rule.CallOpts{AnyOrder: true}))
		}

		tr := conversation(value, schema)
		tr.Turns[1].ToolCalls = []judge.ToolCall{{Name: "t", Arguments: json.RawMessage(value)}, {Name: "t", Arguments: json.RawMessage(schema)}}
		for _, j := range judges {
			got, err := j.Judge(context.Background(), tr)
			if err != nil || (got.Status != judge.StatusPass && got.Status != judge.StatusFail) {
				t.Fatalf("%s on %q: got %s, %v; want PASS or FAIL", got.Name, value, got.Status, err)
			}
		}
	})
}
