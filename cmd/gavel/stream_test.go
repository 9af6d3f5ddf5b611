package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/llmtest"
)

// streamSuite is a suite whose cases are in cases.jsonl beside it; its
// agent is an OpenAI model at a fake server that echoes what it is told.
const streamSuite = `name: stream
agent:
  builtin:
    model: openai:agent
    system_prompt: Repeat the ticket number.
cases: [cases.jsonl]
`

// ticketCase is a JSON line of case i: a question whose answer a rule
// checks, so that a case costs one model call and no judge.
func ticketCase(i int, tags ...string) string {
	t := ""
	if len(tags) > 0 {
		t = `,"tags":["` + strings.Join(tags, `","`) + `"]`
	}
	return fmt.Sprintf(`{"id":"case_%03d","input":"Is ticket T-%03d open?","rules":[{"contains":"T-%03d"}]%s}`+"\n", i, i, i, t)
}

// echoServer starts a fake OpenAI server that answers with the user's
// last message, and returns it with the variables that point gavel at
// it.
func echoServer(t *testing.T) (*llmtest.OpenAIServer, []string) {
	t.Helper()
	srv := llmtest.NewOpenAIServer(llm.Func(func(_ context.Context, req *llm.Request) (*llm.Response, error) {
		last := req.Messages[len(req.Messages)-1].Content
		return &llm.Response{Text: "Noted: " + last, FinishReason: llm.FinishStop, Usage: llm.Usage{InputTokens: 10, OutputTokens: 5}}, nil
	}))
	t.Cleanup(srv.Close)
	return srv, []string{"OPENAI_BASE_URL=" + srv.URL, "OPENAI_API_KEY=sk-test"}
}

// A suite's cases read from a pipe (a FIFO a generator writes) are run as
// they are read: gavel sends its first request
// before the writer has written the rest, and runs every case, in the
// file's order. Before cases were streamed, gavel read the whole file
// first, and waited for the writer to close it.
func TestCasesFromAPipeRunAsTheyAreRead(t *testing.T) {
	bin := gavelBinary(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "gavel.yaml"), []byte(streamSuite), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "cases.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	srv, env := echoServer(t)
	out := filepath.Join(dir, "report.json")
	p := startGavel(t, bin, dir, env, "run", "--no-cache", "--concurrency", "2",
		"--db", filepath.Join(dir, "results.db"), "--out", out, dir)

	opened := make(chan *os.File, 1)
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0) // waits for gavel to open it
		if err != nil {
			close(opened)
			return
		}
		opened <- f
	}()
	var w *os.File
	select {
	case w = <-opened:
	case <-p.done:
		t.Fatalf("gavel exited before opening the cases:\n%s", p.errors())
	case <-time.After(time.Minute):
		t.Fatalf("gavel did not open the cases within a minute:\n%s", p.errors())
	}
	defer w.Close()
	var first, second strings.Builder
	for i := 1; i <= 3; i++ {
		first.WriteString(ticketCase(i))
	}
	for i := 4; i <= 6; i++ {
		second.WriteString(ticketCase(i))
	}
	if _, err := w.WriteString(first.String()); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(20 * time.Second)
	for srv.Requests() == 0 {
		select {
		case <-deadline:
			t.Fatalf("no request within 20 s of the first three cases written: gavel waits for the whole file\n%s", p.errors())
		case <-p.done:
			t.Fatalf("gavel exited before its first request:\n%s", p.errors())
		case <-time.After(10 * time.Millisecond):
		}
	}
	if _, err := w.WriteString(second.String()); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if code := p.exit(t); code != eval.ExitPassed {
		t.Fatalf("exit %d, want %d:\n%s", code, eval.ExitPassed, p.errors())
	}
	r := readReport(t, out)
	var ids []string
	for _, c := range r.Cases {
		ids = append(ids, c.ID+":"+string(c.Outcome))
	}
	want := []string{"case_001:PASS", "case_002:PASS", "case_003:PASS", "case_004:PASS", "case_005:PASS", "case_006:PASS"}
	if !slices.Equal(ids, want) {
		t.Errorf("cases %v, want %v", ids, want)
	}
	if !strings.Contains(p.errors(), "trials as the cases are read") {
		t.Errorf("the progress line does not say the number of trials is not known yet:\n%s", p.errors())
	}
}

// writeStreamSuite writes streamSuite and its cases.jsonl, of the lines
// given, into a new directory, and returns it.
func writeStreamSuite(t *testing.T, lines ...string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "gavel.yaml"), []byte(streamSuite), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cases.jsonl"), []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// A problem anywhere in a cases file that can be read twice is reported
// before anything runs, as when the suite was built whole: exit 2, no
// request, every problem listed.
func TestStreamedSuiteProblemsComeFirst(t *testing.T) {
	var lines []string
	for i := 1; i <= 50; i++ {
		lines = append(lines, ticketCase(i))
	}
	lines = append(lines, `{"id":"case_051","input":"hi","rules":[{"contanis":"x"}]}`+"\n", ticketCase(3))
	dir := writeStreamSuite(t, lines...)
	srv, env := echoServer(t)
	for _, kv := range env {
		name, value, _ := strings.Cut(kv, "=")
		t.Setenv(name, value)
	}
	code, _, errs := gavelCmd(t, "run", "--no-cache", "--db", filepath.Join(dir, "results.db"), dir)
	if code != eval.ExitUsage || srv.Requests() != 0 {
		t.Fatalf("exit %d after %d requests, want %d and none:\n%s", code, srv.Requests(), eval.ExitUsage, errs)
	}
	for _, want := range []string{"cases.jsonl:51:", `did you mean "contains"?`, "cases.jsonl:52:", `case id "case_003" is used twice`} {
		if !strings.Contains(errs, want) {
			t.Errorf("the problems do not say %q:\n%s", want, errs)
		}
	}
}

// --tag and --id select from a streamed suite as from a suite built
// whole: the cases kept run in the file's order, and an --id the suite
// has not is refused before anything runs.
func TestStreamedSuiteSelection(t *testing.T) {
	var lines []string
	for i := 1; i <= 12; i++ {
		tag := "even"
		if i%2 == 1 {
			tag = "odd"
		}
		lines = append(lines, ticketCase(i, tag))
	}
	dir := writeStreamSuite(t, lines...)
	srv, env := echoServer(t)
	for _, kv := range env {
		name, value, _ := strings.Cut(kv, "=")
		t.Setenv(name, value)
	}
	db := filepath.Join(dir, "results.db")
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"every case", nil, []string{"case_001", "case_002", "case_003", "case_004", "case_005", "case_006", "case_007", "case_008", "case_009", "case_010", "case_011", "case_012"}},
		{"--tag", []string{"--tag", "even"}, []string{"case_002", "case_004", "case_006", "case_008", "case_010", "case_012"}},
		{"--id", []string{"--id", "case_011", "--id", "case_003"}, []string{"case_003", "case_011"}},
		{"--tag and --id", []string{"--tag", "odd", "--id", "case_004", "--id", "case_005"}, []string{"case_005"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, "report.json")
			args := append([]string{"run", "--quiet", "--no-cache", "--concurrency", "4", "--trials", "2", "--db", db, "--out", out}, tc.args...)
			code, _, errs := gavelCmd(t, append(args, dir)...)
			if code != eval.ExitPassed {
				t.Fatalf("exit %d, want %d:\n%s", code, eval.ExitPassed, errs)
			}
			r := readReport(t, out)
			var got []string
			for _, c := range r.Cases {
				got = append(got, c.ID)
				if len(c.Trials) != 2 || c.Outcome != "PASS" {
					t.Errorf("case %s: %d trials, %s; want 2, PASS", c.ID, len(c.Trials), c.Outcome)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("cases %v, want %v", got, tc.want)
			}
			if r.Stats.Trials != 2*len(tc.want) {
				t.Errorf("%d trials, want %d", r.Stats.Trials, 2*len(tc.want))
			}
		})
	}
	before := srv.Requests()
	code, _, errs := gavelCmd(t, "run", "--no-cache", "--db", db, "--id", "case_099", dir)
	if code != eval.ExitUsage || srv.Requests() != before || !strings.Contains(errs, "has no case case_099") {
		t.Errorf("--id case_099: exit %d, %d requests; want %d, none, and the id refused:\n%s", code, srv.Requests()-before, eval.ExitUsage, errs)
	}
}

// Cases read from a pipe run as they come, so a problem found on the way
// stops the run there: the cases before it ran and are stored, none
// after it runs, the problems are listed, the run is incomplete, and
// gavel exits 2.
func TestPipedCasesStopAtAProblem(t *testing.T) {
	bin := gavelBinary(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "gavel.yaml"), []byte(streamSuite), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "cases.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	srv, env := echoServer(t)
	out := filepath.Join(dir, "report.json")
	p := startGavel(t, bin, dir, env, "run", "--quiet", "--no-cache", "--concurrency", "1",
		"--db", filepath.Join(dir, "results.db"), "--out", out, dir)
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0) // waits for gavel to open it
	if err != nil {
		t.Fatal(err)
	}
	w.WriteString(ticketCase(1) + ticketCase(2) + "not json\n" + ticketCase(4))
	w.Close()
	if code := p.exit(t); code != eval.ExitUsage {
		t.Fatalf("exit %d, want %d:\n%s", code, eval.ExitUsage, p.errors())
	}
	if !strings.Contains(p.errors(), "cases.jsonl:3: not JSON") {
		t.Errorf("the problem is not reported:\n%s", p.errors())
	}
	r := readReport(t, out)
	var ids []string
	for _, c := range r.Cases {
		ids = append(ids, c.ID)
	}
	if !slices.Equal(ids, []string{"case_001", "case_002"}) || !r.Incomplete || srv.Requests() != 2 {
		t.Errorf("cases %v, incomplete %v, %d requests; want case_001 and case_002, incomplete, 2", ids, r.Incomplete, srv.Requests())
	}
}
