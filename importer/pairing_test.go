package importer

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A testSpan is a span of an OTLP JSON file made for a test: its
// operation, times (in seconds) and string attributes; status, when not
// "", makes it an ERROR with that message.
type testSpan struct {
	op         string
	start, end int64
	attrs      map[string]string
	status     string
}

// otlpFile writes the spans, of one trace, as an OTLP JSON file and
// returns its path.
func otlpFile(t *testing.T, spans ...testSpan) string {
	t.Helper()
	var out []map[string]any
	for i, s := range spans {
		attrs := []map[string]any{{"key": "gen_ai.operation.name", "value": map[string]any{"stringValue": s.op}}}
		for k, v := range s.attrs {
			attrs = append(attrs, map[string]any{"key": k, "value": map[string]any{"stringValue": v}})
		}
		span := map[string]any{"traceId": "7a2b", "spanId": strings.Repeat("0", 15) + string(rune('a'+i)), "name": s.op,
			"startTimeUnixNano": s.start * 1e9, "endTimeUnixNano": s.end * 1e9, "attributes": attrs}
		if s.status != "" {
			span["status"] = map[string]any{"code": 2, "message": s.status}
		}
		out = append(out, span)
	}
	data, err := json.Marshal(map[string]any{"resourceSpans": []any{map[string]any{"scopeSpans": []any{map[string]any{"spans": out}}}}})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "spans.otlp.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// jsonLines writes lines as a JSON Lines file and returns its path.
func jsonLines(t *testing.T, lines ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "chats.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// An agent that gives every call the same id (τ-bench's trajectories of
// some models: call_1, call_1, ...) calls again only once the call
// before has its result: each result answers the latest call of its id
// still waiting for one, so a write that failed is not read as made.
func TestToolResultsPairWithTheLatestCallOfTheirID(t *testing.T) {
	for _, tc := range []struct {
		name string
		file func(t *testing.T) string
		want []string
	}{{
		name: "openai, τ-bench: the second call_1 failed",
		file: func(t *testing.T) string {
			return jsonLines(t, `{"messages": [`+
				`{"role": "user", "content": "move my flight to friday"},`+
				`{"role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_reservation", "arguments": "{\"id\": \"R1\"}"}}]},`+
				`{"role": "tool", "tool_call_id": "call_1", "name": "get_reservation", "content": "{\"id\": \"R1\", \"day\": \"monday\"}"},`+
				`{"role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "update_reservation", "arguments": "{\"id\": \"R1\", \"day\": \"friday\"}"}}]},`+
				`{"role": "tool", "tool_call_id": "call_1", "name": "update_reservation", "content": "Error: no seat on friday"},`+
				`{"role": "assistant", "content": "Done."}]}`)
		},
		want: []string{
			"user: move my flight to friday",
			"agent: Done.",
			`  call call_1 get_reservation{"id":"R1"} -> {"id": "R1", "day": "monday"}`,
			`  call call_1 update_reservation{"id":"R1","day":"friday"} -> Error: no seat on friday`,
		},
	}, {
		name: "openai: the first call_1 failed",
		file: func(t *testing.T) string {
			return jsonLines(t, `{"messages": [`+
				`{"role": "user", "content": "book it"},`+
				`{"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "book", "arguments": "{\"seat\": \"1A\"}"}}]},`+
				`{"role": "tool", "tool_call_id": "call_1", "content": "{\"error\": \"seat taken\"}"},`+
				`{"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "book", "arguments": "{\"seat\": \"2B\"}"}}]},`+
				`{"role": "tool", "tool_call_id": "call_1", "content": "{\"booked\": \"2B\"}"},`+
				`{"role": "assistant", "content": "Booked 2B."}]}`)
		},
		want: []string{
			"user: book it",
			"agent: Booked 2B.",
			`  call call_1 book{"seat":"1A"} -> {"error": "seat taken"} (error)`,
			`  call call_1 book{"seat":"2B"} -> {"booked": "2B"}`,
		},
	}, {
		name: "openai, legacy function messages: an empty result answers its call",
		file: func(t *testing.T) string {
			return jsonLines(t, `{"messages": [`+
				`{"role": "user", "content": "any news?"},`+
				`{"role": "assistant", "function_call": {"name": "inbox", "arguments": "{}"}},`+
				`{"role": "function", "name": "inbox", "content": ""},`+
				`{"role": "assistant", "function_call": {"name": "inbox", "arguments": "{\"all\": true}"}},`+
				`{"role": "function", "name": "inbox", "content": "1 message"},`+
				`{"role": "assistant", "content": "One message."}]}`)
		},
		want: []string{
			"user: any news?",
			"agent: One message.",
			`  call  inbox{} -> `,
			`  call  inbox{"all":true} -> 1 message`,
		},
	}, {
		name: "otlp, messages: the second call_1 failed",
		file: func(t *testing.T) string {
			history := `[{"role": "user", "parts": [{"type": "text", "content": "move my flight to friday"}]},` +
				`{"role": "assistant", "parts": [{"type": "tool_call", "id": "call_1", "name": "get_reservation", "arguments": {"id": "R1"}}]},` +
				`{"role": "tool", "parts": [{"type": "tool_call_response", "id": "call_1", "response": "monday"}]},` +
				`{"role": "assistant", "parts": [{"type": "tool_call", "id": "call_1", "name": "update_reservation", "arguments": {"day": "friday"}}]},` +
				`{"role": "tool", "parts": [{"type": "tool_call_response", "id": "call_1", "response": "Error: no seat on friday"}]}]`
			return otlpFile(t, testSpan{op: "chat", start: 1, end: 2, attrs: map[string]string{
				"gen_ai.input.messages":  history,
				"gen_ai.output.messages": `[{"role": "assistant", "parts": [{"type": "text", "content": "Done."}]}]`,
			}})
		},
		want: []string{
			"user: move my flight to friday",
			"agent: Done.",
			`  call call_1 get_reservation{"id":"R1"} -> monday`,
			`  call call_1 update_reservation{"day":"friday"} -> Error: no seat on friday`,
		},
	}, {
		name: "otlp, execute_tool spans: the second call_1 failed",
		file: func(t *testing.T) string {
			user := `{"role": "user", "parts": [{"type": "text", "content": "move my flight to friday"}]}`
			get := `{"role": "assistant", "parts": [{"type": "tool_call", "id": "call_1", "name": "get_reservation", "arguments": {"id": "R1"}}]}`
			update := `{"role": "assistant", "parts": [{"type": "tool_call", "id": "call_1", "name": "update_reservation", "arguments": {"day": "friday"}}]}`
			return otlpFile(t,
				testSpan{op: "chat", start: 1, end: 2, attrs: map[string]string{"gen_ai.input.messages": "[" + user + "]", "gen_ai.output.messages": "[" + get + "]"}},
				testSpan{op: "execute_tool", start: 3, end: 4, attrs: map[string]string{"gen_ai.tool.name": "get_reservation", "gen_ai.tool.call.id": "call_1", "gen_ai.tool.call.result": "monday"}},
				testSpan{op: "chat", start: 5, end: 6, attrs: map[string]string{"gen_ai.output.messages": "[" + update + "]"}},
				testSpan{op: "execute_tool", start: 7, end: 8, attrs: map[string]string{"gen_ai.tool.name": "update_reservation", "gen_ai.tool.call.id": "call_1"}, status: "no seat on friday"},
				testSpan{op: "chat", start: 9, end: 10, attrs: map[string]string{"gen_ai.output.messages": `[{"role": "assistant", "parts": [{"type": "text", "content": "Done."}]}]`}},
			)
		},
		want: []string{
			"user: move my flight to friday",
			"agent: Done.",
			`  call call_1 get_reservation{"id":"R1"} -> monday`,
			`  call call_1 update_reservation{"day":"friday"} -> no seat on friday (error)`,
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			b := read(t, "", tc.file(t))
			if len(b.Cases) != 1 {
				t.Fatalf("%d cases, want 1", len(b.Cases))
			}
			if diff := cmp.Diff(tc.want, summary(b.Cases[0].Trials[0].Transcript)); diff != "" {
				t.Errorf("turns (-want +got):\n%s", diff)
			}
		})
	}
}

// A result for a call id whose every call already has its result is a
// second answer to one call: a problem at its place, not a result that
// replaces the first.
func TestASecondResultForOneCallIsAProblem(t *testing.T) {
	path := jsonLines(t, `{"messages": [`+
		`{"role": "user", "content": "book it"},`+
		`{"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "book", "arguments": "{}"}}]},`+
		`{"role": "tool", "tool_call_id": "call_1", "content": "Error: seat taken"},`+
		`{"role": "tool", "tool_call_id": "call_1", "content": "booked"}]}`)
	_, err := Read([]string{path}, "")
	if want := path + `:1: messages[3].tool_call_id: every call of id "call_1" before this result has its result already`; err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
}
