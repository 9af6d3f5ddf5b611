// Package telemetry traces Gavel's runs with OpenTelemetry: a span for the
// run, one for each case trial, one for each turn of the conversation with
// the agent (invoke_agent), for each model call (chat) and tool call
// (execute_tool), and for each judge, named and with attributes as the
// OpenTelemetry semantic conventions for generative AI say (gen_ai.*),
// plus Gavel's own (gavel.*: the case, the trial, the verdict and score).
//
// # Off by default
//
// Until Setup finds an OTLP endpoint in the environment
// (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT), or
// a test calls Use, tracing is off: every Start function returns its
// context as it was and an end function that does nothing, after one
// atomic load, and Model returns the model it is given. No SDK is set
// up. BenchmarkOff measures it (bench/README.md).
//
// # Where spans come from
//
// The packages that run trials call this one: runner starts the trial
// (StartTrial, which also puts a judge.Observer in the context, so that
// judge.Run makes a span of every judge), conversation each turn
// (StartTurn), the builtin agent each tool call (StartTool), and
// llm/providers.Wrap puts Model around every model. Only this package
// imports OpenTelemetry; the others know nothing of it but these calls.
//
// # Configuration
//
// Setup reads the standard variables: the endpoint, OTEL_EXPORTER_OTLP_PROTOCOL
// (or OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: http/protobuf, the default, or
// grpc), OTEL_EXPORTER_OTLP_HEADERS, OTEL_SERVICE_NAME (defaults to
// gavel), OTEL_RESOURCE_ATTRIBUTES, OTEL_TRACES_SAMPLER and its argument,
// and OTEL_SDK_DISABLED=true, which keeps tracing off. The OTLP exporter
// and the SDK read the variables themselves, as any OpenTelemetry program
// does. Each process is an instance of its own (service.instance.id).
//
// # Event records
//
// A judge's verdict is a gen_ai.evaluation.result event, as a span event
// of the judge's span and, when OTEL_LOGS_EXPORTER=otlp (or
// OTEL_EXPORTER_OTLP_LOGS_ENDPOINT) asks for logs, as an OTLP event record
// in that span's context (UseLogs), as the GenAI conventions now have
// events. Logs are off by default: many tracing backends take none.
package telemetry
