package eval

import (
	"context"
	"io"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/llmtest"
	"github.com/gavelhq/gavel/store"
	"github.com/gavelhq/gavel/store/sqlite"
	"github.com/gavelhq/gavel/telemetry"
	"github.com/gavelhq/gavel/web"
)

// A run started from the web app runs the suite file's cases and the
// ones written in the app, and is stored like any other.
func TestLaunchWithWrittenCases(t *testing.T) {
	dir, db := starterSuite(t)
	st, err := sqlite.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	def := "id: written\nname: Written in the app\ninput: hello there\nexpected_tools: []\njudge_prompt: The agent greets the user.\n"
	if _, err := st.SaveCase(ctx, store.CaseDef{Suite: "my-agent", ID: "written", Name: "Written in the app", Definition: []byte(def)}); err != nil {
		t.Fatal(err)
	}
	m, _ := OpenModels(t.TempDir(), true, false)
	l, err := NewLauncher([]string{dir}, st, m, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if got := l.Suites(); len(got) != 1 || got[0] != "my-agent" {
		t.Fatalf("suites %v", got)
	}
	id, err := l.Launch(ctx, web.LaunchRequest{Suite: "my-agent", Trials: 1, By: "edna", Label: "greets first"})
	if err != nil {
		t.Fatal(err)
	}
	l.Close() // waits for the run
	run, err := st.Run(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, cr := range run.Run.Cases {
		ids = append(ids, cr.ID())
	}
	if len(ids) != 3 || ids[2] != "written" || run.Info.StartedBy != "edna" || run.Info.Label != "greets first" || run.Info.Status == store.Running {
		t.Errorf("run %s: cases %v, started by %q, label %q, status %s", id, ids, run.Info.StartedBy, run.Info.Label, run.Info.Status)
	}
	// The written case stays the app's: a second run runs it again.
	written, err := st.CaseHistory(ctx, "my-agent", "written")
	if err != nil || len(written) != 1 || written[0].Source != "" {
		t.Fatalf("after a run, the written case's versions: %+v (%v), want one with no source", written, err)
	}
	if _, err := l.Launch(ctx, web.LaunchRequest{Suite: "my-agent", IDs: []string{"written"}, Trials: 1}); err != nil {
		t.Errorf("a second run of the written case: %v", err)
	}
	l.Close()
	if _, err := l.Launch(ctx, web.LaunchRequest{Suite: "elsewhere", Trials: 1}); err == nil {
		t.Error("an unknown suite launched")
	}
}

// A run started from the web app is traced as gavel run's are: one trace,
// the run's span its root, whose id each stored trial keeps.
func TestLaunchTraced(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	defer telemetry.Use(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)))()
	dir, db := starterSuite(t)
	st, err := sqlite.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	m, _ := OpenModels(t.TempDir(), true, false)
	l, err := NewLauncher([]string{dir}, st, m, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	id, err := l.Launch(context.Background(), web.LaunchRequest{Suite: "my-agent", Trials: 2})
	if err != nil {
		t.Fatal(err)
	}
	l.Close() // waits for the run
	var root sdktrace.ReadOnlySpan
	for _, s := range rec.Ended() {
		if s.Name() == "gavel run" {
			root = s
		}
	}
	if root == nil {
		t.Fatal("no run span")
	}
	for _, kv := range root.Attributes() {
		if kv.Key == "gavel.run.id" && kv.Value.AsString() != id {
			t.Errorf("the run span's gavel.run.id is %q, want %q", kv.Value.AsString(), id)
		}
	}
	stored, err := st.Run(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	for _, cr := range stored.Run.Cases {
		for _, tr := range cr.Trials {
			if tr.TraceID != root.SpanContext().TraceID().String() {
				t.Errorf("%s#%d keeps trace %q, want the run's %s", tr.CaseID, tr.N, tr.TraceID, root.SpanContext().TraceID())
			}
		}
	}
}

// Runs started from the web app keep within the limits the admin gave
// gavel serve: trials per run, runs at once, and a cost budget for each;
// 15 runs of 100 trials each all started before.
func TestLaunchLimits(t *testing.T) {
	release := make(chan struct{})
	srv := llmtest.NewOpenAIServer(llm.Func(func(ctx context.Context, req *llm.Request) (*llm.Response, error) {
		select {
		case <-release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return &llm.Response{Text: "Hello! Returns are free within 30 days."}, nil
	}))
	defer srv.Close()
	t.Setenv("OPENAI_BASE_URL", srv.URL)
	t.Setenv("OPENAI_API_KEY", "sk-test")
	t.Setenv("GAVEL_AGENT_MODEL", "openai:agent-model")
	dir, db := starterSuite(t) // two cases
	st, err := sqlite.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	m, _ := OpenModels(t.TempDir(), true, false)
	l, err := NewLauncher([]string{dir}, st, m, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	l.Limits = LaunchLimits{MaxTrials: 6, MaxRunning: 1, MaxCostUSD: 0.5}
	ctx := context.Background()

	if _, err := l.Launch(ctx, web.LaunchRequest{Suite: "my-agent", Trials: 4}); err == nil ||
		err.Error() != "this run would make 8 trials, and this server runs at most 6 a run (gavel serve --max-trials-per-run): run fewer cases or trials" {
		t.Errorf("8 trials: %v", err)
	}
	id, err := l.Launch(ctx, web.LaunchRequest{Suite: "my-agent", Trials: 3})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Launch(ctx, web.LaunchRequest{Suite: "my-agent", Trials: 1}); err == nil ||
		err.Error() != "this server runs at most 1 run at once (gavel serve --max-runs-at-once), and 1 is running: wait for one to end" {
		t.Errorf("a second run at once: %v", err)
	}
	close(release)
	l.Close()
	info, err := st.RunInfo(ctx, id)
	if err != nil || info.Settings["max_cost_usd"] != "0.5" {
		t.Errorf("the run's budget: %v, %v", info.Settings, err)
	}
	if _, err := l.Launch(ctx, web.LaunchRequest{Suite: "my-agent", Trials: 1}); err != nil {
		t.Errorf("a run after the first ended: %v", err)
	}
	l.Close()
}
