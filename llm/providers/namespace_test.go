package providers_test

import (
	"testing"

	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/providers"
)

// A namespace holds everything that chooses the model: the provider, the
// model, and the server, from the reference or the environment.
func TestNamespace(t *testing.T) {
	env := map[string]string{
		"OPENAI_BASE_URL":    " http://127.0.0.1:8000/v1 ",
		"ANTHROPIC_BASE_URL": "http://127.0.0.1:9000",
		"OLLAMA_HOST":        "gpu-box:11434",
	}
	getenv := func(k string) string { return env[k] }
	noEnv := func(string) string { return "" }
	tests := []struct {
		ref    llm.Ref
		getenv func(string) string
		want   string
	}{
		{llm.Ref{Provider: "openai", Model: "gpt-5-mini"}, noEnv, "openai:gpt-5-mini"},
		{llm.Ref{Provider: "openai", Model: "gpt-5-mini"}, getenv, "openai:gpt-5-mini OPENAI_BASE_URL=http://127.0.0.1:8000/v1"},
		{llm.Ref{Provider: "openai", Model: "qwen", BaseURL: "http://10.0.0.2/v1"}, getenv, "openai:qwen@http://10.0.0.2/v1"},
		{llm.Ref{Provider: "anthropic", Model: "claude-haiku-4-5"}, getenv, "anthropic:claude-haiku-4-5 ANTHROPIC_BASE_URL=http://127.0.0.1:9000"},
		{llm.Ref{Provider: "ollama", Model: "llama3.1"}, getenv, "ollama:llama3.1 OLLAMA_HOST=gpu-box:11434"},
		{llm.Ref{Provider: "script", Model: "/suite/models/agent.yaml"}, getenv, "script:/suite/models/agent.yaml"},
		{llm.Ref{Provider: "mine", Model: "m"}, getenv, "mine:m"},
	}
	for _, tt := range tests {
		if got := providers.Namespace(tt.ref, tt.getenv); got != tt.want {
			t.Errorf("Namespace(%v) = %q, want %q", tt.ref, got, tt.want)
		}
	}
}

// Every vendor provider of the registry has its server variable in the
// namespace: a provider added without one would let a cache mix servers.
func TestNamespaceKnowsEveryProvidersServer(t *testing.T) {
	everything := func(string) string { return "http://127.0.0.1:1" }
	for provider := range providers.Registry() {
		if provider == "script" { // a file, named by its path
			continue
		}
		ref := llm.Ref{Provider: provider, Model: "m"}
		if got := providers.Namespace(ref, everything); got == ref.String() {
			t.Errorf("Namespace(%v) = %q: the server its environment names is missing", ref, got)
		}
	}
}
