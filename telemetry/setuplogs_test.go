package telemetry_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"

	collogs "go.opentelemetry.io/proto/otlp/collector/logs/v1"
	"google.golang.org/protobuf/proto"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/telemetry"
)

// With OTEL_LOGS_EXPORTER=otlp, Setup sends the event records to the
// OTLP endpoint beside the spans: here a receiver of OTLP/HTTP on
// loopback, which reads the records' event names. Without it, nothing
// is sent to /v1/logs (a tracing backend such as Jaeger refuses logs).
func TestSetupSendsEventRecords(t *testing.T) {
	for _, tc := range []struct {
		logs string
		want []string
	}{
		{"otlp", []string{"gen_ai.evaluation.result"}},
		{"", nil},
	} {
		var mu sync.Mutex
		var events []string
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/v1/logs" {
				body, _ := io.ReadAll(r.Body)
				var req collogs.ExportLogsServiceRequest
				if err := proto.Unmarshal(body, &req); err != nil {
					t.Errorf("logs request: %v", err)
				}
				mu.Lock()
				for _, rl := range req.ResourceLogs {
					for _, sl := range rl.ScopeLogs {
						for _, lr := range sl.LogRecords {
							events = append(events, lr.EventName)
						}
					}
				}
				mu.Unlock()
			}
			w.Header().Set("Content-Type", "application/x-protobuf")
			w.WriteHeader(http.StatusOK)
		}))
		t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", srv.URL) // the exporters read the environment
		t.Setenv("OTEL_LOGS_EXPORTER", tc.logs)
		shutdown, err := telemetry.Setup(context.Background(), os.Getenv, "v1")
		if err != nil {
			t.Fatal(err)
		}
		ctx, endTrial := telemetry.StartTrial(context.Background(), "c", 1)
		v := judge.Run(ctx, judge.Func(func(context.Context, *judge.Transcript) (judge.Judgment, error) {
			return judge.Verdict(true, "fine"), nil
		}), &judge.Transcript{})
		endTrial(v, nil)
		if err := shutdown(context.Background()); err != nil {
			t.Fatal(err)
		}
		srv.Close()
		if len(events) != len(tc.want) || (len(events) == 1 && events[0] != tc.want[0]) {
			t.Errorf("OTEL_LOGS_EXPORTER=%q: event records %q, want %q", tc.logs, events, tc.want)
		}
	}
}
