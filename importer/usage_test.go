package importer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// otlpChat is an OTLP file of one chat span whose usage attributes are
// the JSON values given.
func otlpChat(input, output string) string {
	return `{"resourceSpans":[{"scopeSpans":[{"spans":[
		{"traceId":"ab","spanId":"01","name":"chat","attributes":[
			{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}},
			{"key":"gen_ai.usage.input_tokens","value":` + input + `},
			{"key":"gen_ai.usage.output_tokens","value":` + output + `},
			{"key":"gen_ai.input.messages","value":{"stringValue":"[{\"role\": \"user\", \"parts\": [{\"type\": \"text\", \"content\": \"hi\"}]}]"}},
			{"key":"gen_ai.output.messages","value":{"stringValue":"[{\"role\": \"assistant\", \"parts\": [{\"type\": \"text\", \"content\": \"hello\"}]}]"}}]}]}]}]}`
}

// Usage no call can spend is a problem at its place, as the providers and
// agents refuse it: a negative count (τ-bench's trajectories and OTLP
// spans were imported with Tokens: -1,005 and -40), one above the ceiling,
// one that is not a whole number.
func TestImpossibleUsageIsAProblem(t *testing.T) {
	const chat = `"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"%s}]`
	tests := []struct {
		name, file, content string
		want                string // the problem, after the file's path
	}{
		{"openai: a negative count for the conversation", "a.jsonl",
			`{` + strings.Replace(chat, "%s", "", 1) + `, "usage": {"prompt_tokens": -1005, "completion_tokens": 12}}`,
			`:1: usage.prompt_tokens: is -1005, want a count of at least 0`},
		{"openai: a negative count for a message", "a.jsonl",
			`{` + strings.Replace(chat, "%s", `, "usage": {"output_tokens": -40}`, 1) + `}`,
			`:1: messages[1].usage.output_tokens: is -40, want a count of at least 0`},
		{"openai: 2^63-1 tokens", "a.jsonl",
			`{` + strings.Replace(chat, "%s", "", 1) + `, "usage": {"input_tokens": 9223372036854775807}}`,
			`:1: usage.input_tokens: is 9223372036854775807, more than`},
		{"openai: a negative count of cached tokens", "a.jsonl",
			`{` + strings.Replace(chat, "%s", "", 1) + `, "usage": {"prompt_tokens": 10, "prompt_tokens_details": {"cached_tokens": -3}}}`,
			`:1: usage.prompt_tokens_details.cached_tokens: is -3, want a count of at least 0`},
		{"otlp: a negative count", "s.json", otlpChat(`{"intValue":"-40"}`, `{"intValue":"5"}`),
			`: resourceSpans[0].scopeSpans[0].spans[0].attributes[gen_ai.usage.input_tokens]: trace ab: is -40, want a count of at least 0`},
		{"otlp: a count beyond int64", "s.json", otlpChat(`{"intValue":"5"}`, `{"intValue":"99999999999999999999"}`),
			`: resourceSpans[0].scopeSpans[0].spans[0].attributes[gen_ai.usage.output_tokens]: trace ab: is 99999999999999999999, more than`},
		{"otlp: a count that is no number", "s.json", otlpChat(`{"stringValue":"many"}`, `{"intValue":"5"}`),
			`: resourceSpans[0].scopeSpans[0].spans[0].attributes[gen_ai.usage.input_tokens]: trace ab: is "many", want a count of at least 0`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), tc.file)
			if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
			b, err := Read([]string{path}, "")
			if err == nil {
				t.Fatalf("imported usage %+v, want the problem %q", b.Cases[0].Trials[0].Usage, tc.want)
			}
			if got := err.Error(); got != path+tc.want && !strings.HasPrefix(got, path+tc.want) {
				t.Errorf("problem:\ngot  %s\nwant %s", got, path+tc.want)
			}
		})
	}
}
