package telemetry

import (
	"context"
	"testing"

	"go.opentelemetry.io/otel/attribute"
)

// Each process is an instance of its own (service.instance.id), so that
// the spans of two workers of one queue are told apart; the environment
// may name it.
func TestEachProcessIsAnInstance(t *testing.T) {
	instance := func() string {
		t.Helper()
		res, err := newResource(context.Background(), "v1")
		if err != nil {
			t.Fatal(err)
		}
		v, _ := res.Set().Value(attribute.Key("service.instance.id"))
		return v.AsString()
	}
	a, b := instance(), instance()
	if a == "" || a == b {
		t.Errorf("instances %q and %q, want two of their own", a, b)
	}
	t.Setenv("OTEL_RESOURCE_ATTRIBUTES", "service.instance.id=worker-7")
	if got := instance(); got != "worker-7" {
		t.Errorf("with OTEL_RESOURCE_ATTRIBUTES: %q, want worker-7", got)
	}
}
