package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/gavelhq/gavel/telemetry"
)

// flushTimeout bounds how long a command waits, as it exits, for the
// collector to take the spans not yet sent.
const flushTimeout = 10 * time.Second

// startTracing sets up OpenTelemetry tracing when the standard variables
// ask for it (OTEL_EXPORTER_OTLP_ENDPOINT; package telemetry), for the
// command named. The function it returns sends the spans not yet sent
// and must run before the command returns, as it does when a signal
// stopped the run. ok is false, with the problem written to stderr, when
// the variables are wrong.
func startTracing(command string, stderr io.Writer) (flush func(), ok bool) {
	shutdown, err := telemetry.Setup(context.Background(), os.Getenv, version)
	if err != nil {
		fmt.Fprintf(stderr, "%s: tracing: %v\n", command, err)
		return nil, false
	}
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), flushTimeout)
		defer cancel()
		if err := shutdown(ctx); err != nil {
			fmt.Fprintf(stderr, "%s: tracing: %v\n", command, err)
		}
	}, true
}
