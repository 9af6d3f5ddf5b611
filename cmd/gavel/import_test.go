package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/internal/pgtest"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/report"
	"github.com/gavelhq/gavel/store"
)

var importedID = regexp.MustCompile(`as run (\S+) of suite`)

// importFixture is a file of importer/testdata, by its absolute path.
func importFixture(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", "importer", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// importRun runs gavel import and returns the stored run.
func importRun(t *testing.T, db string, args ...string) *store.StoredRun {
	t.Helper()
	code, out, errs := gavelCmd(t, append([]string{"import", "--db", db}, args...)...)
	if code != eval.ExitPassed {
		t.Fatalf("gavel import %v: exit %d\n%s%s", args, code, out, errs)
	}
	m := importedID.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("gavel import %v stored no run:\n%s", args, out)
	}
	st, err := eval.OpenStore(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	run, err := st.Run(context.Background(), m[1])
	if err != nil {
		t.Fatal(err)
	}
	return run
}

// A run's JSON report, imported, gives the same transcripts (tool calls,
// usage), verdicts and outcomes, and the run's status.
func TestImportReportRoundTrip(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the example's MCP server")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "run.json")
	code, stdout, errs := gavelCmd(t, "run", "--quiet", "--no-cache", "--db", filepath.Join(dir, "ran.db"), "--out", out, example(t))
	if code != eval.ExitPassed {
		t.Fatalf("gavel run: exit %d\n%s%s", code, stdout, errs)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var want report.JSONReport
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	for _, db := range []string{filepath.Join(dir, "imported.db"), postgresOrSkip(t)} {
		if db == "" {
			continue
		}
		got := importRun(t, db, out)
		if got.Info.Suite != "support-desk" || got.Info.Status != store.Passed || got.Info.ImportedFrom() != out+" (gavel)" {
			t.Errorf("run: suite %s, status %s, imported from %q", got.Info.Suite, got.Info.Status, got.Info.ImportedFrom())
		}
		if len(got.Run.Cases) != len(want.Cases) {
			t.Fatalf("%d cases, want %d", len(got.Run.Cases), len(want.Cases))
		}
		calls := 0
		for i, c := range got.Run.Cases {
			w := want.Cases[i]
			if c.ID() != w.ID || c.Outcome != w.Outcome {
				t.Errorf("case %d: %s %s, want %s %s", i, c.ID(), c.Outcome, w.ID, w.Outcome)
			}
			if diff := cmp.Diff(jsonOf(t, w.Trials), jsonOf(t, c.Trials)); diff != "" {
				t.Errorf("case %s: trials (-report +imported):\n%s", w.ID, diff)
			}
			for _, tr := range c.Trials {
				calls += len(tr.Transcript.ToolCalls())
			}
		}
		if calls == 0 {
			t.Error("no tool call came back: the example makes some")
		}
		if diff := cmp.Diff(want.Stats, got.Run.Stats()); diff != "" {
			t.Errorf("stats (-report +imported):\n%s", diff)
		}
	}
}

// jsonOf is v as indented JSON, for diffs that see every field.
func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// postgresOrSkip is a database on the test PostgreSQL server, "" without
// one (unless GAVEL_REQUIRE_INTEGRATION=1).
func postgresOrSkip(t *testing.T) string {
	if os.Getenv("GAVEL_TEST_POSTGRES_URL") == "" && os.Getenv("GAVEL_REQUIRE_INTEGRATION") != "1" {
		return ""
	}
	return pgtest.Schema(t)
}

// OpenAI chat logs and OTLP GenAI spans import as a run not judged yet,
// with their tool calls and usage; their user turns become cases that a
// suite validates.
func TestImportConversations(t *testing.T) {
	dir := t.TempDir()
	files := []string{importFixture(t, "chats.jsonl"), importFixture(t, "spans.otlp.json"), importFixture(t, "events.otlp.jsonl")}
	for _, db := range []string{filepath.Join(dir, "results.db"), postgresOrSkip(t)} {
		if db == "" {
			continue
		}
		casesOut := filepath.Join(dir, "cases.yaml")
		got := importRun(t, db, append([]string{"--suite", "support-desk", "--cases-out", casesOut}, files...)...)
		info := got.Info
		if info.Suite != "support-desk" || info.Status != store.Incomplete || info.Stopped != gavel.StopNotJudged {
			t.Errorf("run: suite %s, status %s, stopped %s; want support-desk, incomplete, not-judged", info.Suite, info.Status, info.Stopped)
		}
		if !strings.Contains(info.ImportedFrom(), "chats.jsonl (openai), ") || !strings.Contains(info.ImportedFrom(), "spans.otlp.json (otlp)") {
			t.Errorf("imported from %q", info.ImportedFrom())
		}
		var ids []string
		for _, c := range got.Run.Cases {
			ids = append(ids, c.ID())
			if len(c.Trials) != 1 || c.Trials[0].Verdict.Status != judge.StatusAbstain || c.Outcome != gavel.Skipped {
				t.Errorf("case %s: %d trials, outcome %s", c.ID(), len(c.Trials), c.Outcome)
			}
		}
		wantIDs := []string{"lookup-12345", "chats-2", "weather-1", "conv_5j66UpCpwteGg4YSxUnt7lPY", "0af7651916cd43dd8448eb211c80319c", "4bf92f3577b34da6a3ce929d0e0e4736"}
		if diff := cmp.Diff(wantIDs, ids); diff != "" {
			t.Errorf("cases (-want +got):\n%s", diff)
		}
		first := got.Run.Cases[0].Trials[0]
		if u := first.Usage.Agent; u.InputTokens != 412 || u.OutputTokens != 57 || u.CachedTokens != 128 {
			t.Errorf("usage of the first chat = %+v", u)
		}
		if calls := first.Transcript.ToolCalls(); len(calls) != 1 || calls[0].Name != "get_order_status" || !strings.Contains(calls[0].Result, "shipped") {
			t.Errorf("calls of the first chat = %+v", calls)
		}
		spans := got.Run.Cases[3].Trials[0]
		if u := spans.Usage.Agent; u.InputTokens != 480 || u.OutputTokens != 50 {
			t.Errorf("usage of the spans = %+v", u)
		}
		if c := got.Run.Cases[4].Trials[0].Transcript.ToolCalls(); len(c) != 1 || !c[0].IsError {
			t.Errorf("the failed tool span's call = %+v, want an error", c)
		}
		if got.Run.Cases[0].Case == nil || got.Run.Cases[0].Case.Input() != "where's my order #12345?" {
			t.Errorf("case snapshot: %+v", got.Run.Cases[0].Case)
		}

		// The cases written pass gavel validate in a suite.
		suite := filepath.Join(dir, "gavel.yaml")
		os.WriteFile(suite, []byte("name: grown\nagent:\n  http: {url: \"http://127.0.0.1:1/chat\"}\ncases: [cases.yaml]\n"), 0o644)
		if code, out, errs := gavelCmd(t, "validate", suite); code != eval.ExitPassed {
			data, _ := os.ReadFile(casesOut)
			t.Errorf("validate: exit %d\n%s%s\n%s", code, out, errs, data)
		}
	}
}

// A file with a problem imports nothing, from any file of the command,
// and says where the problem is.
func TestImportBadFileStoresNothing(t *testing.T) {
	dir := t.TempDir()
	good, bad := importFixture(t, "chats.jsonl"), importFixture(t, "bad.jsonl")
	for _, db := range []string{filepath.Join(dir, "results.db"), postgresOrSkip(t)} {
		if db == "" {
			continue
		}
		casesOut := filepath.Join(dir, "cases.yaml")
		code, out, errs := gavelCmd(t, "import", "--db", db, "--cases-out", casesOut, good, bad)
		if code != eval.ExitUsage {
			t.Errorf("exit %d, want 2\n%s%s", code, out, errs)
		}
		for _, want := range []string{
			bad + ":2: messages[1].tool_calls[0].function.arguments: the arguments string does not hold JSON",
			bad + ":3: messages[1]: a tool result must follow the assistant message that called the tool",
			"nothing imported",
		} {
			if !strings.Contains(errs, want) {
				t.Errorf("stderr lacks %q:\n%s", want, errs)
			}
		}
		st, err := eval.OpenStore(context.Background(), db)
		if err != nil {
			t.Fatal(err)
		}
		runs, err := st.Runs(context.Background(), store.RunFilter{})
		st.Close()
		if err != nil || len(runs) != 0 {
			t.Errorf("runs stored: %d, %v; want none", len(runs), err)
		}
		if _, err := os.Stat(casesOut); !os.IsNotExist(err) {
			t.Errorf("cases written: %v", err)
		}
	}
}

// A file whose format cannot be told says so, and what to give.
func TestImportUnknownFormat(t *testing.T) {
	f := filepath.Join(t.TempDir(), "x.json")
	os.WriteFile(f, []byte(`{"foo": 1}`), 0o644)
	code, _, errs := gavelCmd(t, "import", "--db", filepath.Join(t.TempDir(), "r.db"), f)
	if code != eval.ExitUsage || !strings.Contains(errs, "cannot tell the format") || !strings.Contains(errs, "--format openai, otlp or gavel") {
		t.Errorf("exit %d\n%s", code, errs)
	}
}

// The replay loop's round trip: a run's JSON report, imported into
// another database and judged again with the same suite, gives the same
// verdicts, without calling the agent.
func TestReportImportedAndRejudged(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the example's MCP server")
	}
	suite, dir := example(t), t.TempDir()
	out := filepath.Join(dir, "run.json")
	ran := filepath.Join(dir, "ran.db")
	first := savedRun(t, eval.ExitPassed, "--db", ran, "--out", out, suite)
	_, want := verdicts(t, ran, first)

	db := filepath.Join(dir, "elsewhere.db")
	imported := importRun(t, db, out)
	var agentCalls atomic.Int32
	fakeOpenAI(t, llm.Func(func(context.Context, *llm.Request) (*llm.Response, error) {
		agentCalls.Add(1)
		return &llm.Response{Text: "called"}, nil
	}))
	t.Setenv("GAVEL_AGENT_MODEL", "openai:gpt-5-mini")
	code, stdout, errs := gavelCmd(t, "rejudge", "--db", db, "--suite", suite, imported.Info.ID)
	if code != eval.ExitPassed {
		t.Fatalf("rejudge of the imported run: exit %d\n%s%s", code, stdout, errs)
	}
	again := runID.FindStringSubmatch(errs)
	if again == nil {
		t.Fatalf("rejudge saved no run:\n%s", errs)
	}
	if _, got := verdicts(t, db, again[1]); got != want {
		t.Errorf("exported, imported and rejudged:\n%s\nwant the verdicts of the run:\n%s", got, want)
	}
	if n := agentCalls.Load(); n != 0 {
		t.Errorf("the agent was called %d times", n)
	}
}

// Usage that providers and agents refuse is refused by import too: a
// negative count, in a τ-bench trajectory's usage or an OTLP span's,
// stores nothing (they were stored, and shown as Tokens: -1,005).
func TestImportRefusesNegativeUsage(t *testing.T) {
	dir := t.TempDir()
	chat := filepath.Join(dir, "tau.jsonl")
	os.WriteFile(chat, []byte(`{"messages": [{"role": "user", "content": "cancel 42"}, {"role": "assistant", "content": "done"}], "usage": {"prompt_tokens": -1005}}`+"\n"), 0o644)
	spans := filepath.Join(dir, "spans.json")
	os.WriteFile(spans, []byte(`{"resourceSpans":[{"scopeSpans":[{"spans":[
		{"traceId":"ab","spanId":"01","name":"chat","attributes":[
			{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}},
			{"key":"gen_ai.usage.input_tokens","value":{"intValue":"-40"}},
			{"key":"gen_ai.input.messages","value":{"stringValue":"[{\"role\": \"user\", \"parts\": [{\"type\": \"text\", \"content\": \"hi\"}]}]"}}]}]}]}]}`), 0o644)
	for _, tc := range []struct{ file, want string }{
		{chat, chat + ":1: usage.prompt_tokens: is -1005, want a count of at least 0"},
		{spans, spans + ": resourceSpans[0].scopeSpans[0].spans[0].attributes[gen_ai.usage.input_tokens]: trace ab: is -40, want a count of at least 0"},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "results.db")
			code, out, errs := gavelCmd(t, "import", "--db", db, tc.file)
			if code != eval.ExitUsage || !strings.Contains(errs, tc.want) || !strings.Contains(errs, "nothing imported") {
				t.Errorf("exit %d, want 2 saying %q and that nothing was imported\n%s%s", code, tc.want, out, errs)
			}
		})
	}
}

// Conversations imported without verdicts have no pass rate: gavel show,
// gavel runs and the JSON report say unknown (null), never 0%, and pass^k
// is not given.
func TestImportUnjudgedHasNoPassRate(t *testing.T) {
	db := filepath.Join(t.TempDir(), "results.db")
	id := importRun(t, db, importFixture(t, "chats.jsonl")).Info.ID
	code, out, errs := gavelCmd(t, "show", "--db", db, id)
	if code != eval.ExitPassed || !strings.Contains(out, "Pass rate: unknown: no trial was judged (3 skipped)") ||
		strings.Contains(out, "Pass rate: 0%") || strings.Contains(out, "0/1") {
		t.Errorf("gavel show: exit %d, want an unknown pass rate and no trial counted as failed:\n%s%s", code, out, errs)
	}
	code, out, errs = gavelCmd(t, "runs", "--db", db)
	if code != eval.ExitPassed || !strings.Contains(out, "incomplete  unknown") || strings.Contains(out, "0.0%") {
		t.Errorf("gavel runs: exit %d, want the pass rate unknown:\n%s%s", code, out, errs)
	}
	code, out, errs = gavelCmd(t, "report", "--db", db, "--format", "json", id)
	var got struct {
		Stats map[string]json.RawMessage `json:"stats"`
	}
	if err := json.Unmarshal([]byte(out), &got); code != eval.ExitPassed || err != nil {
		t.Fatalf("gavel report --format json: exit %d, %v\n%s%s", code, err, out, errs)
	}
	if rate, hat := string(got.Stats["pass_rate"]), got.Stats["pass_hat_k"]; rate != "null" || hat != nil {
		t.Errorf("JSON report: pass_rate %s, pass_hat_k %s; want null and none", rate, hat)
	}
}

// rateOf is a pass rate to compare and print: its value, or "none".
func rateOf(p *float64) string {
	if p == nil {
		return "none"
	}
	return fmt.Sprint(*p)
}

// Conversations imported without usage spent what nobody recorded: gavel
// show says so ("unreported"), never 0 tokens and $0.0000.
func TestImportWithoutUsageIsUnreported(t *testing.T) {
	db := filepath.Join(t.TempDir(), "results.db")
	id := importRun(t, db, importFixture(t, "chats.jsonl")).Info.ID
	code, out, errs := gavelCmd(t, "show", "--db", db, id)
	for _, want := range []string{
		"Tokens: 469 + unreported (agent 469 + unreported)",
		"Cost: unpriced + unreported (agent unpriced + unreported)",
		"chats-2      | -     | -        | SKIPPED | not judged | -     | unreported",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("gavel show lacks %q", want)
		}
	}
	if code != eval.ExitPassed || strings.Contains(out, "$0.0000") {
		t.Errorf("gavel show: exit %d, and what nobody reported shown as $0.0000?\n%s%s", code, out, errs)
	}
	code, out, errs = gavelCmd(t, "show", "--db", db, id, "weather-1")
	if code != eval.ExitPassed || !strings.Contains(out, "Tokens:   unreported (agent unreported)") || strings.Contains(out, "Tokens:   0") {
		t.Errorf("gavel show RUN CASE: exit %d, want the case's tokens unreported:\n%s%s", code, out, errs)
	}
}
