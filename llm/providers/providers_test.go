package providers_test

import (
	"errors"
	"maps"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/providers"
)

func TestRegistryNamesEveryProvider(t *testing.T) {
	got := slices.Sorted(maps.Keys(providers.Registry()))
	want := []string{"anthropic", "ollama", "openai", "script"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("providers (-want +got):\n%s", diff)
	}
}

// Each provider opens its references: the script one offline, the vendors
// only with their keys, which they report missing before any request.
func TestRegistryOpens(t *testing.T) {
	noEnv := func(string) string { return "" }
	tests := []struct {
		ref        string
		missingKey string // the variable reported missing, or "" to open
	}{
		{ref: "script:testdata/hello.yaml"},
		{ref: "ollama:llama3.1"},
		{ref: "openai:gpt-5-mini", missingKey: "OPENAI_API_KEY"},
		{ref: "anthropic:claude-sonnet-4-5", missingKey: "ANTHROPIC_API_KEY"},
	}
	for _, tt := range tests {
		t.Run(tt.ref, func(t *testing.T) {
			m, err := providers.Registry().Open(tt.ref, noEnv)
			var missing *llm.MissingKeyError
			switch {
			case tt.missingKey != "" && !errors.As(err, &missing):
				t.Fatalf("error %v, want a missing %s", err, tt.missingKey)
			case tt.missingKey != "" && missing.Variable != tt.missingKey:
				t.Errorf("missing %s, want %s", missing.Variable, tt.missingKey)
			case tt.missingKey == "" && err != nil:
				t.Fatal(err)
			case tt.missingKey == "" && m == nil:
				t.Fatal("no model and no error")
			}
		})
	}
}

func TestScriptAnswers(t *testing.T) {
	m, err := providers.Registry().Open("script:testdata/hello.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := m.Generate(t.Context(), &llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != "hello" {
		t.Errorf("answer %q, want %q", resp.Text, "hello")
	}
	if !resp.Local {
		t.Error("a script's answer is not marked local: a meter would report it unpriced")
	}
}

// Local models cost nothing: Registry marks their answers, and IsLocal
// names their providers, the vendors' excluded.
func TestLocalProviders(t *testing.T) {
	for provider := range providers.Registry() {
		want := provider == "ollama" || provider == "script"
		if got := providers.IsLocal(provider); got != want {
			t.Errorf("IsLocal(%q) = %v, want %v", provider, got, want)
		}
	}
}

// A program may add its own providers: each call returns a new map.
func TestRegistryIsNewEachCall(t *testing.T) {
	r := providers.Registry()
	r["mine"] = unusedOpener
	if _, ok := providers.Registry()["mine"]; ok {
		t.Error("a provider added to one registry shows in the next")
	}
}

func unusedOpener(llm.Ref, func(string) string) (llm.Model, error) { return nil, errors.New("unused") }
