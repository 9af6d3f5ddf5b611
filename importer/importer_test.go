package importer

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel/judge"
)

// summary is what a test compares of a transcript: each turn's role and
// text, and each call with its arguments, result and failure.
func summary(t *judge.Transcript) []string {
	var out []string
	for _, turn := range t.Turns {
		out = append(out, string(turn.Role)+": "+turn.Content)
		for _, c := range turn.ToolCalls {
			line := "  call " + c.ID + " " + c.Name + string(c.Arguments) + " -> " + c.Result
			if c.IsError {
				line += " (error)"
			}
			out = append(out, line)
		}
	}
	return out
}

func read(t *testing.T, format Format, files ...string) *Batch {
	t.Helper()
	b, err := Read(files, format)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	return b
}

func TestOpenAI(t *testing.T) {
	b := read(t, "", "testdata/chats.jsonl")
	if got := b.Files[0].Format; got != FormatOpenAI {
		t.Errorf("format = %s, want openai", got)
	}
	var ids []string
	for _, c := range b.Cases {
		ids = append(ids, c.ID)
	}
	if diff := cmp.Diff([]string{"lookup-12345", "chats-2", "weather-1"}, ids); diff != "" {
		t.Errorf("case ids (-want +got):\n%s", diff)
	}
	first := b.Cases[0].Trials[0]
	tr := first.Transcript
	want := []string{
		"system: You are the support desk of an online shop.",
		"user: where's my order #12345?",
		"agent: Your order #12345 has shipped and should arrive on March 12.",
		`  call call_9f2k get_order_status{"order_id":"12345"} -> {"order_id":"12345","status":"shipped","delivery_date":"2026-03-12"}`,
	}
	if diff := cmp.Diff(want, summary(tr)); diff != "" {
		t.Errorf("turns (-want +got):\n%s", diff)
	}
	if want := (judge.Usage{InputTokens: 412, OutputTokens: 57, CachedTokens: 128, Unpriced: true}); tr.Usage != want || first.Usage.Agent != want {
		t.Errorf("usage = %+v, trial's agent usage %+v; want %+v", tr.Usage, first.Usage.Agent, want)
	}
	if tr.Goal != "where's my order #12345?" || tr.CaseID != "lookup-12345" || tr.Status != judge.ExecSuccess {
		t.Errorf("goal, case, status = %q, %q, %q", tr.Goal, tr.CaseID, tr.Status)
	}
	for k, v := range map[string]string{"user_id": "u_1842", "tags": `["prod", "lookup"]`, "model": "gpt-5-mini", "source": "testdata/chats.jsonl:1"} {
		if tr.Metadata[k] != v || b.Cases[0].Metadata[k] != v {
			t.Errorf("metadata[%s] = %q, want %q", k, tr.Metadata[k], v)
		}
	}
	if first.Verdict.Status != judge.StatusAbstain || first.Verdict.Name != NotJudgedName {
		t.Errorf("verdict = %+v, want not judged", first.Verdict)
	}

	// A bare list; a failed lookup; two calls answered out of order; a
	// reply's text before and after its calls joined.
	want = []string{
		"user: cancel order 99999",
		"agent: Let me check that order.\n\nI could not find order 99999. Could you check the number?",
		`  call call_a1 get_order_status{"order_id":"99999"} -> {"error": "order 99999 not found"} (error)`,
		"user: sorry, it's 13579",
		"agent: Order 13579 is cancelled.",
		`  call call_b2 get_order_status{"order_id":"13579"} -> {"order_id":"13579","status":"processing"}`,
		`  call call_b3 cancel_order{"order_id":"13579","confirmation":true} -> {"order_id":"13579","status":"cancelled"}`,
	}
	if diff := cmp.Diff(want, summary(b.Cases[1].Trials[0].Transcript)); diff != "" {
		t.Errorf("turns of line 2 (-want +got):\n%s", diff)
	}
}

// The same case id on several lines, or in several files, makes trials
// of one case.
func TestOpenAISameCaseTrials(t *testing.T) {
	dir := t.TempDir()
	line := `{"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}], "metadata": {"case_id": "greet"}}` + "\n"
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	os.WriteFile(a, []byte(line+line), 0o644)
	os.WriteFile(b, []byte(line), 0o644)
	batch := read(t, FormatOpenAI, a, b)
	if len(batch.Cases) != 1 || len(batch.Cases[0].Trials) != 3 {
		t.Fatalf("cases = %d, want 1 with 3 trials", len(batch.Cases))
	}
	for i, tr := range batch.Cases[0].Trials {
		if tr.N != i+1 || tr.Transcript.Trial != i+1 {
			t.Errorf("trial %d numbered %d, transcript %d", i+1, tr.N, tr.Transcript.Trial)
		}
	}
}

func TestOpenAIProblems(t *testing.T) {
	_, err := Read([]string{"testdata/bad.jsonl"}, "")
	var ps Problems
	if !errors.As(err, &ps) {
		t.Fatalf("err = %v, want Problems", err)
	}
	want := []string{
		`testdata/bad.jsonl:2: messages[1].tool_calls[0].function.arguments: the arguments string does not hold JSON: "{\"order_id\": 1"`,
		`testdata/bad.jsonl:3: messages[1]: a tool result must follow the assistant message that called the tool`,
	}
	if diff := cmp.Diff(want, strings.Split(err.Error(), "\n")); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}

func TestOTLP(t *testing.T) {
	b := read(t, "", "testdata/spans.otlp.json")
	if got := b.Files[0].Format; got != FormatOTLP {
		t.Errorf("format = %s, want otlp", got)
	}
	if len(b.Cases) != 2 {
		t.Fatalf("%d cases, want 2 (a conversation, a trace; the health check is no GenAI span)", len(b.Cases))
	}
	c := b.Cases[0]
	tr := c.Trials[0].Transcript
	if c.ID != "conv_5j66UpCpwteGg4YSxUnt7lPY" {
		t.Errorf("id = %q, want the conversation id", c.ID)
	}
	want := []string{
		"system: You are the support desk of an online shop.",
		"user: where's my order #12345?",
		"agent: Your order #12345 has shipped; it should arrive on March 12.",
		`  call call_VSPygqKTWdrhaFErNvMV18Yl get_order_status{"order_id":"12345"} -> {"order_id":"12345","status":"shipped","delivery_date":"2026-03-12"}`,
	}
	if diff := cmp.Diff(want, summary(tr)); diff != "" {
		t.Errorf("turns (-want +got):\n%s", diff)
	}
	if want := (judge.Usage{InputTokens: 480, OutputTokens: 50, Calls: 2, Unpriced: true}); tr.Usage != want {
		t.Errorf("usage = %+v, want %+v", tr.Usage, want)
	}
	if got := tr.Turns[2].ToolCalls[0].Duration; got.Milliseconds() != 50 {
		t.Errorf("the call's duration = %v, want 50ms (its span's)", got)
	}
	if got := tr.Duration.Milliseconds(); got != 2400 {
		t.Errorf("duration = %dms, want 2400", got)
	}
	for k, v := range map[string]string{"trace_id": "5b8efff798038103d269b633813fc60c", "conversation_id": "conv_5j66UpCpwteGg4YSxUnt7lPY",
		"agent": "support-desk", "model": "gpt-5-mini", "service": "support-desk", "provider": "openai"} {
		if tr.Metadata[k] != v {
			t.Errorf("metadata[%s] = %q, want %q", k, tr.Metadata[k], v)
		}
	}

	c = b.Cases[1]
	want = []string{
		"user: cancel order 99999",
		"agent: I could not find order 99999.",
		`  call call_x1 cancel_order{"order_id":"99999","confirmation":true} -> order 99999 not found (error)`,
	}
	if diff := cmp.Diff(want, summary(c.Trials[0].Transcript)); diff != "" {
		t.Errorf("turns of the failed call (-want +got):\n%s", diff)
	}
	if c.ID != "0af7651916cd43dd8448eb211c80319c" {
		t.Errorf("id = %q, want the trace id", c.ID)
	}
}

// The older convention: messages as span events, one request a line (the
// collector's file exporter).
func TestOTLPEvents(t *testing.T) {
	b := read(t, "", "testdata/events.otlp.jsonl")
	if len(b.Cases) != 1 {
		t.Fatalf("%d cases, want 1", len(b.Cases))
	}
	tr := b.Cases[0].Trials[0].Transcript
	want := []string{
		"system: You are the support desk.",
		"user: status of 67890?",
		"agent: Order 67890 was delivered.",
		`  call call_q1 get_order_status{"order_id":"67890"} -> {"status":"delivered"}`,
	}
	if diff := cmp.Diff(want, summary(tr)); diff != "" {
		t.Errorf("turns (-want +got):\n%s", diff)
	}
	if want := (judge.Usage{InputTokens: 200, OutputTokens: 35, Calls: 2, Unpriced: true}); tr.Usage != want {
		t.Errorf("usage = %+v, want %+v", tr.Usage, want)
	}
}

func TestOTLPProblems(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"resourceSpans":[{"scopeSpans":[{"spans":[
		{"traceId":"ab","spanId":"01","name":"chat","attributes":[
			{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}},
			{"key":"gen_ai.input.messages","value":{"stringValue":"[{\"role\": \"user\", \"parts\": [{\"type\": \"text\", \"content\": \"hi\"}]"}}]}]}]}]}`), 0o644)
	_, err := Read([]string{bad}, "")
	if err == nil || !strings.Contains(err.Error(), bad+": resourceSpans[0].scopeSpans[0].spans[0].attributes[gen_ai.input.messages]: want a JSON list of messages") {
		t.Errorf("err = %v, want the attribute's path", err)
	}
}

func TestDetect(t *testing.T) {
	for _, tt := range []struct{ data, want string }{
		{`{"foo": 1}`, "the first JSON object has foo, and none of messages"},
		{`hello`, "does not start with a JSON object or list"},
		{``, "the file is empty"},
	} {
		_, err := Detect("f", []byte(tt.data))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Detect(%q) = %v, want %q", tt.data, err, tt.want)
		}
	}
}

func TestWriteCases(t *testing.T) {
	b := read(t, "", "testdata/chats.jsonl")
	var out bytes.Buffer
	n, skipped, err := WriteCases(&out, b.Cases)
	if err != nil || n != 3 || len(skipped) != 0 {
		t.Fatalf("WriteCases = %d, %v, %v", n, skipped, err)
	}
	for _, want := range []string{
		"- id: lookup-12345\n  input: 'where''s my order #12345?'\n  expected_tools:\n    - get_order_status\n",
		"- id: chats-2\n  rounds:\n    - prompt: cancel order 99999\n    - prompt: sorry, it's 13579\n  expected_tools:\n    - get_order_status\n    - cancel_order\n",
		"  expected_tool_calls: []\n",
		"source: testdata/chats.jsonl:1",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("cases lack %q:\n%s", want, out.String())
		}
	}
}

func TestGavelReportProblems(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct{ data, want string }{
		{`{"schema_version": 2, "cases": []}`, "report.json: schema_version: this Gavel reads JSON reports of schema 1, and this one is of schema 2"},
		{`{"schema_version": 1, "cases": [{"id": "a", "outcome": "PASS", "trials": [{"case_id": "a", "trial": 1, "verdict": {}}]}]}`,
			"report.json: cases[0].trials[0].verdict.status: a trial needs a verdict"},
		{"{\"schema_version\": 1,\n \"cases\": [{\"id\": 7}]}", "report.json:2: cases.id is a JSON number, want a string"},
	} {
		f := filepath.Join(dir, "report.json")
		os.WriteFile(f, []byte(tt.data), 0o644)
		_, err := Read([]string{f}, "")
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Read(%s) = %v, want %q", tt.data, err, tt.want)
		}
	}
}

// A conversation imported without usage spent what nobody recorded: its
// usage, and that of each agent turn without one, is unreported, never
// zero. A conversation whose line says what it spent keeps that.
func TestUsageNotRecordedIsUnreported(t *testing.T) {
	b := read(t, "", "testdata/chats.jsonl")
	for i, want := range []bool{false, true, true} {
		tr := b.Cases[i].Trials[0]
		if got := tr.Usage.Agent.Unreported; got != want || tr.Transcript.Usage.Unreported != want {
			t.Errorf("%s: unreported %v (transcript %v), want %v: %+v", b.Cases[i].ID, got, tr.Transcript.Usage.Unreported, want, tr.Usage.Agent)
		}
		for _, turn := range tr.Transcript.AgentTurns() {
			if !want && i == 0 {
				continue // the line's usage is the conversation's, not a turn's
			}
			if !turn.Usage.Unreported {
				t.Errorf("%s: an agent turn without usage has %+v, want it unreported", b.Cases[i].ID, turn.Usage)
			}
		}
	}
	spans := read(t, "", "testdata/spans.otlp.json")
	if u := spans.Cases[0].Trials[0].Usage.Agent; u.Unreported || u.Tokens() == 0 {
		t.Errorf("spans with usage: %+v, want it reported", u)
	}
}
