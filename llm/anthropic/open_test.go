package anthropic_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/anthropic"
	"github.com/gavelhq/gavel/llm/llmtest"
)

// env is an environment for an Opener's getenv.
func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestOpenMissingKey(t *testing.T) {
	tests := []struct {
		name string
		ref  llm.Ref
		env  map[string]string
	}{
		{"Anthropic by default", llm.Ref{Provider: "anthropic", Model: "claude-opus-4-5"}, nil},
		{"Anthropic by ANTHROPIC_BASE_URL", llm.Ref{Provider: "anthropic", Model: "claude-opus-4-5"}, map[string]string{"ANTHROPIC_BASE_URL": "https://api.anthropic.com"}},
		{"a blank key", llm.Ref{Provider: "anthropic", Model: "claude-opus-4-5"}, map[string]string{"ANTHROPIC_API_KEY": " "}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := anthropic.Open(tc.ref, env(tc.env))
			var missing *llm.MissingKeyError
			if !errors.As(err, &missing) || missing.Variable != "ANTHROPIC_API_KEY" || missing.Ref != tc.ref {
				t.Fatalf("error = %v, want a MissingKeyError naming ANTHROPIC_API_KEY for %s", err, tc.ref)
			}
			if m != nil {
				t.Errorf("got a model with the error")
			}
		})
	}
}

func TestOpen(t *testing.T) {
	tests := []struct {
		name string
		// setup returns the reference and environment to open with, given the
		// URLs of the server that must get the request and of another.
		setup    func(want, other string) (llm.Ref, map[string]string)
		key      string // the key the server wants; "" wants none sent
		provider string
	}{
		{"the reference's base URL gets no key", func(want, other string) (llm.Ref, map[string]string) {
			return llm.Ref{Provider: "anthropic", Model: "claude-test", BaseURL: want}, map[string]string{"ANTHROPIC_API_KEY": "sk-ant-env", "ANTHROPIC_BASE_URL": other}
		}, "", "anthropic"},
		{"the reference naming ANTHROPIC_BASE_URL's server gets the key", func(want, other string) (llm.Ref, map[string]string) {
			return llm.Ref{Provider: "anthropic", Model: "claude-test", BaseURL: want}, map[string]string{"ANTHROPIC_API_KEY": "sk-ant-env", "ANTHROPIC_BASE_URL": want}
		}, "sk-ant-env", "anthropic"},
		{"ANTHROPIC_BASE_URL", func(want, other string) (llm.Ref, map[string]string) {
			return llm.Ref{Provider: "anthropic", Model: "claude-test"}, map[string]string{"ANTHROPIC_API_KEY": "sk-ant-env", "ANTHROPIC_BASE_URL": want}
		}, "sk-ant-env", "anthropic"},
		{"no key for a gateway", func(want, other string) (llm.Ref, map[string]string) {
			return llm.Ref{Provider: "gateway", Model: "claude-test", BaseURL: want}, nil
		}, "", "gateway"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			good := llmtest.NewAnthropicServer(&llmtest.Scripted{Rules: []llmtest.Rule{{Text: "ok"}}})
			defer good.Close()
			other := llmtest.NewAnthropicServer(&llmtest.Scripted{})
			defer other.Close()
			good.Key = tc.key
			ref, vars := tc.setup(good.URL, other.URL)
			m, err := anthropic.Open(ref, env(vars))
			if err != nil {
				t.Fatal(err)
			}
			resp, err := generate(t, m, ask("hi"))
			if tc.key == "" {
				// No key sent: the fake, which wants one, says so.
				var api *llm.APIError
				if !errors.As(err, &api) || api.StatusCode != 401 || api.Provider != tc.provider || !strings.Contains(api.Message, "x-api-key header is required") {
					t.Fatalf("error = %v, want a 401 for no key, labelled %s", err, tc.provider)
				}
			} else if err != nil || resp.Text != "ok" || resp.Model != "claude-test" {
				t.Fatalf("got %+v, %v; want ok from claude-test", resp, err)
			}
			if good.Requests() != 1 || other.Requests() != 0 {
				t.Errorf("requests: %d to the wanted server, %d to the other; want 1, 0", good.Requests(), other.Requests())
			}
		})
	}
}

func TestNewReadsNothingFromTheEnvironment(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-must-not-leak")
	t.Setenv("ANTHROPIC_AUTH_TOKEN", "must-not-leak")
	s := llmtest.NewAnthropicServer(&llmtest.Scripted{Rules: []llmtest.Rule{{Text: "ok"}}})
	defer s.Close()
	t.Setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:1")
	m, err := anthropic.New(anthropic.Config{BaseURL: s.URL, Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = generate(t, m, ask("hi"))
	var api *llm.APIError
	if !errors.As(err, &api) || api.StatusCode != 401 {
		t.Errorf("error = %v, want a 401: a Config without a key sends none", err)
	}
}

func TestResponseCap(t *testing.T) {
	s := llmtest.NewAnthropicServer(&llmtest.Scripted{Rules: []llmtest.Rule{{Text: "ok"}}})
	defer s.Close()
	m, err := anthropic.Open(llm.Ref{Provider: "anthropic", Model: "m"}, env(map[string]string{"ANTHROPIC_BASE_URL": s.URL, "ANTHROPIC_API_KEY": "k", llm.MaxResponseEnv: "1"}))
	if err != nil {
		t.Fatal(err)
	}
	s.OversizedNext(2 << 20)
	_, err = generate(t, m, ask("hi"))
	var tooLarge *llm.TooLargeError
	if !errors.As(err, &tooLarge) || tooLarge.Limit != 1<<20 {
		t.Errorf("error = %v, want a TooLargeError at 1 MiB", err)
	}
	if resp, err := generate(t, m, ask("hi")); err != nil || resp.Text != "ok" {
		t.Errorf("a small answer: %v, %v; want ok", resp, err)
	}
	if _, err := anthropic.Open(llm.Ref{Provider: "anthropic", Model: "m"}, env(map[string]string{"ANTHROPIC_API_KEY": "k", llm.MaxResponseEnv: "0"})); err == nil || !strings.Contains(err.Error(), llm.MaxResponseEnv) {
		t.Errorf("error = %v, want one naming %s", err, llm.MaxResponseEnv)
	}
}
