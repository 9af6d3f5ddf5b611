package providers_test

import (
	"os"
	"path/filepath"
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
		{llm.Ref{Provider: "script", Model: "/no/such/agent.yaml"}, getenv, "script:/no/such/agent.yaml sha256=unreadable"},
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

// A script's namespace is its path and its content: an edited script is
// another model, and the same content again is the first model again.
func TestNamespaceOfAScriptIsItsContent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "agent.yaml")
	ref := llm.Ref{Provider: "script", Model: path}
	write := func(content string) string {
		t.Helper()
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return providers.Namespace(ref, nil)
	}
	first := write("rules:\n  - text: Hello\n")
	// The SHA-256 of "rules:\n  - text: Hello\n".
	if want := "script:" + path + " sha256=028ef0d8a05993f032c6a2790b858de03d2afd90b19abb1d1444acd1fcbd9afa"; first != want {
		t.Errorf("Namespace = %q, want %q", first, want)
	}
	edited := write("rules:\n  - text: Goodbye\n")
	if edited == first {
		t.Errorf("the edited script has the first one's namespace %q", first)
	}
	if again := write("rules:\n  - text: Hello\n"); again != first {
		t.Errorf("the same content again: namespace %q, want %q", again, first)
	}
}
