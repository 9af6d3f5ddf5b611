package telemetry

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/google/uuid"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploggrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploghttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	sdklog "go.opentelemetry.io/otel/sdk/log"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// scope names the instrumentation: the tracer's name.
const scope = "github.com/gavelhq/gavel/telemetry"

// current is the tracer spans are started with, nil while tracing is off.
var current atomic.Pointer[trace.Tracer]

// tracer returns the tracer, or nil when tracing is off.
func tracer() trace.Tracer {
	if t := current.Load(); t != nil {
		return *t
	}
	return nil
}

// Use makes Gavel trace through tp, until restore is called (which
// turns tracing off again). Setup calls it; so do tests, with the SDK's
// in-memory exporter, and a Go program that sets up its own SDK.
func Use(tp trace.TracerProvider) (restore func()) {
	t := tp.Tracer(scope)
	old := current.Swap(&t)
	return func() { current.Store(old) }
}

// Enabled says whether the environment asks for traces: an OTLP endpoint
// is set (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT),
// and neither OTEL_SDK_DISABLED=true nor OTEL_TRACES_EXPORTER=none says
// otherwise.
func Enabled(getenv func(string) string) bool {
	if strings.EqualFold(strings.TrimSpace(getenv("OTEL_SDK_DISABLED")), "true") ||
		strings.EqualFold(strings.TrimSpace(getenv("OTEL_TRACES_EXPORTER")), "none") {
		return false
	}
	return getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != ""
}

// Setup starts tracing when the environment asks for it (Enabled): an
// OTLP exporter (http/protobuf, or grpc as OTEL_EXPORTER_OTLP_PROTOCOL or
// OTEL_EXPORTER_OTLP_TRACES_PROTOCOL says) behind a batching span
// processor, for the service OTEL_SERVICE_NAME names (gavel by default)
// at version. Otherwise it sets nothing up, and tracing stays off.
//
// The shutdown it returns must be called before the program exits: it
// sends the spans not yet sent, within ctx, and turns tracing off.
func Setup(ctx context.Context, getenv func(string) string, version string) (shutdown func(context.Context) error, err error) {
	if !Enabled(getenv) {
		return func(context.Context) error { return nil }, nil
	}
	var exporter sdktrace.SpanExporter
	protocolVar := "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL" // the variable that set it, for the error
	if getenv(protocolVar) == "" {
		protocolVar = "OTEL_EXPORTER_OTLP_PROTOCOL"
	}
	protocol := cmp.Or(getenv(protocolVar), "http/protobuf")
	switch protocol {
	case "http/protobuf":
		exporter, err = otlptracehttp.New(ctx)
	case "grpc":
		exporter, err = otlptracegrpc.New(ctx)
	default:
		return nil, fmt.Errorf("%s=%s: Gavel sends traces over http/protobuf (the default) or grpc", protocolVar, protocol)
	}
	if err != nil {
		return nil, fmt.Errorf("the OTLP trace exporter: %w", err)
	}
	res, err := newResource(ctx, version)
	if err != nil {
		return nil, fmt.Errorf("the trace resource (OTEL_RESOURCE_ATTRIBUTES?): %w", err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exporter), sdktrace.WithResource(res))
	restore := Use(tp)
	lp, err := setupLogs(ctx, getenv, protocol, res)
	if err != nil {
		restore()
		return nil, err
	}
	restoreLogs := func() {}
	if lp != nil {
		restoreLogs = UseLogs(lp)
	}
	return func(ctx context.Context) error {
		restore()
		restoreLogs()
		var errs []error
		if err := tp.Shutdown(ctx); err != nil {
			errs = append(errs, fmt.Errorf("sending the last spans: %w", err))
		}
		if lp != nil {
			if err := lp.Shutdown(ctx); err != nil {
				errs = append(errs, fmt.Errorf("sending the last event records: %w", err))
			}
		}
		return errors.Join(errs...)
	}, nil
}

// LogsEnabled says whether the environment asks for Gavel's event records
// (gen_ai.evaluation.result) as OTLP logs, besides the spans' events:
// OTEL_LOGS_EXPORTER=otlp, or a logs endpoint of its own
// (OTEL_EXPORTER_OTLP_LOGS_ENDPOINT). Off by default, unlike the OTLP
// default, because many tracing backends (Jaeger) take no logs and would
// refuse every batch.
func LogsEnabled(getenv func(string) string) bool {
	switch strings.ToLower(strings.TrimSpace(getenv("OTEL_LOGS_EXPORTER"))) {
	case "otlp":
		return true
	case "none":
		return false
	}
	return getenv("OTEL_EXPORTER_OTLP_LOGS_ENDPOINT") != ""
}

// setupLogs returns the logger provider of the event records, over the
// traces' protocol (or OTEL_EXPORTER_OTLP_LOGS_PROTOCOL's); nil when the
// environment does not ask for them (LogsEnabled).
func setupLogs(ctx context.Context, getenv func(string) string, protocol string, res *resource.Resource) (*sdklog.LoggerProvider, error) {
	if !LogsEnabled(getenv) {
		return nil, nil
	}
	var exporter sdklog.Exporter
	var err error
	switch p := cmp.Or(getenv("OTEL_EXPORTER_OTLP_LOGS_PROTOCOL"), protocol); p {
	case "http/protobuf":
		exporter, err = otlploghttp.New(ctx)
	case "grpc":
		exporter, err = otlploggrpc.New(ctx)
	default:
		return nil, fmt.Errorf("OTEL_EXPORTER_OTLP_LOGS_PROTOCOL=%s: Gavel sends logs over http/protobuf or grpc", p)
	}
	if err != nil {
		return nil, fmt.Errorf("the OTLP log exporter: %w", err)
	}
	return sdklog.NewLoggerProvider(sdklog.WithProcessor(sdklog.NewBatchProcessor(exporter)), sdklog.WithResource(res)), nil
}

// newResource describes the process that sends the spans: Gavel at
// version, one instance of it (service.instance.id, a random UUID, so
// that the workers of a queue and the shards of a run are told apart),
// unless OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES say otherwise.
func newResource(ctx context.Context, version string) (*resource.Resource, error) {
	return resource.New(ctx,
		resource.WithAttributes(attribute.String("service.name", "gavel"), attribute.String("service.version", version),
			attribute.String("service.instance.id", uuid.NewString())),
		resource.WithFromEnv(), // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win
		resource.WithTelemetrySDK())
}
