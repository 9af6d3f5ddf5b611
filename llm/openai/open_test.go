package openai_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/llmtest"
	"github.com/gavelhq/gavel/llm/openai"
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
		{"OpenAI by default", llm.Ref{Provider: "openai", Model: "gpt-5-mini"}, nil},
		{"OpenAI by OPENAI_BASE_URL", llm.Ref{Provider: "openai", Model: "gpt-5-mini"}, map[string]string{"OPENAI_BASE_URL": "https://api.openai.com/v1"}},
		{"OpenAI by the reference", llm.Ref{Provider: "openai", Model: "gpt-5-mini", BaseURL: "https://API.openai.com/v1"}, nil},
		{"a blank key", llm.Ref{Provider: "openai", Model: "gpt-5-mini"}, map[string]string{"OPENAI_API_KEY": "  "}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := openai.Open(tc.ref, env(tc.env))
			var missing *llm.MissingKeyError
			if !errors.As(err, &missing) || missing.Variable != "OPENAI_API_KEY" || missing.Ref != tc.ref {
				t.Fatalf("error = %v, want a MissingKeyError naming OPENAI_API_KEY for %s", err, tc.ref)
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
			return llm.Ref{Provider: "openai", Model: "qwen", BaseURL: want}, map[string]string{"OPENAI_API_KEY": "sk-env", "OPENAI_BASE_URL": other}
		}, "", "openai"},
		{"the reference naming OPENAI_BASE_URL's server gets the key", func(want, other string) (llm.Ref, map[string]string) {
			return llm.Ref{Provider: "openai", Model: "qwen", BaseURL: want}, map[string]string{"OPENAI_API_KEY": "sk-env", "OPENAI_BASE_URL": want}
		}, "sk-env", "openai"},
		{"OPENAI_BASE_URL", func(want, other string) (llm.Ref, map[string]string) {
			return llm.Ref{Provider: "openai", Model: "qwen"}, map[string]string{"OPENAI_API_KEY": "sk-env", "OPENAI_BASE_URL": want}
		}, "sk-env", "openai"},
		{"no key for a local server", func(want, other string) (llm.Ref, map[string]string) {
			return llm.Ref{Provider: "vllm", Model: "qwen", BaseURL: want}, nil
		}, "", "vllm"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			good := llmtest.NewOpenAIServer(&llmtest.Scripted{Rules: []llmtest.Rule{{Text: "ok"}}})
			defer good.Close()
			other := llmtest.NewOpenAIServer(&llmtest.Scripted{})
			defer other.Close()
			good.Key = tc.key
			ref, vars := tc.setup(good.URL, other.URL)
			m, err := openai.Open(ref, env(vars))
			if err != nil {
				t.Fatal(err)
			}
			resp, err := generate(t, m, ask("hi"))
			if tc.key == "" {
				// No key sent: the fake, which wants one, says so.
				var api *llm.APIError
				if !errors.As(err, &api) || api.StatusCode != 401 || api.Provider != tc.provider || !strings.Contains(api.Message, "didn't provide an API key") {
					t.Fatalf("error = %v, want a 401 for no key, labelled %s", err, tc.provider)
				}
			} else if err != nil || resp.Text != "ok" || resp.Model != "qwen" {
				t.Fatalf("got %+v, %v; want ok from qwen", resp, err)
			}
			if good.Requests() != 1 || other.Requests() != 0 {
				t.Errorf("requests: %d to the wanted server, %d to the other; want 1, 0", good.Requests(), other.Requests())
			}
		})
	}
}

func TestNewReadsNothingFromTheEnvironment(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-must-not-leak")
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1")
	s := llmtest.NewOpenAIServer(&llmtest.Scripted{Rules: []llmtest.Rule{{Text: "ok"}}})
	defer s.Close()
	m, err := openai.New(openai.Config{BaseURL: s.URL, Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = generate(t, m, ask("hi"))
	var api *llm.APIError
	if !errors.As(err, &api) || api.StatusCode != 401 {
		t.Errorf("error = %v, want a 401: a Config without a key sends none", err)
	}
}

func TestOpenOllama(t *testing.T) {
	s := llmtest.NewOpenAIServer(&llmtest.Scripted{Rules: []llmtest.Rule{{Text: "ok"}}})
	defer s.Close()
	hostPort := strings.TrimSuffix(strings.TrimPrefix(s.URL, "http://"), "/v1")
	tests := []struct {
		name string
		ref  llm.Ref
		env  map[string]string
	}{
		{"OLLAMA_HOST as host:port", llm.Ref{Provider: "ollama", Model: "llama3.1"}, map[string]string{"OLLAMA_HOST": hostPort}},
		{"OLLAMA_HOST as a URL", llm.Ref{Provider: "ollama", Model: "llama3.1"}, map[string]string{"OLLAMA_HOST": "http://" + hostPort + "/"}},
		{"the reference's base URL", llm.Ref{Provider: "ollama", Model: "llama3.1", BaseURL: s.URL}, map[string]string{"OLLAMA_HOST": "127.0.0.1:1"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := openai.OpenOllama(tc.ref, env(tc.env))
			if err != nil {
				t.Fatal(err)
			}
			resp, err := generate(t, m, &llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}, MaxTokens: 32})
			if err != nil || resp.Text != "ok" {
				t.Fatalf("got %v, %v; want ok", resp, err)
			}
			got := s.Bodies()
			b := string(got[len(got)-1])
			if !strings.Contains(b, `"max_tokens":32`) || strings.Contains(b, "max_completion_tokens") {
				t.Errorf("body %s, want MaxTokens as max_tokens, which Ollama reads", b)
			}
		})
	}
}

func TestOllamaErrorsAreLabelled(t *testing.T) {
	s := llmtest.NewOpenAIServer(&llmtest.Scripted{Rules: []llmtest.Rule{{Text: "ok"}}})
	defer s.Close()
	s.FailNext(500, 0)
	m, err := openai.OpenOllama(llm.Ref{Provider: "ollama", Model: "llama3.1", BaseURL: s.URL}, env(nil))
	if err != nil {
		t.Fatal(err)
	}
	_, err = generate(t, m, ask("hi"))
	var api *llm.APIError
	if !errors.As(err, &api) || api.Provider != "ollama" || !strings.HasPrefix(err.Error(), "ollama: 500") {
		t.Errorf("error = %v, want an APIError labelled ollama", err)
	}
}

func TestResponseCap(t *testing.T) {
	s := llmtest.NewOpenAIServer(&llmtest.Scripted{Rules: []llmtest.Rule{{Text: "ok"}}})
	defer s.Close()
	vars := map[string]string{"OPENAI_BASE_URL": s.URL, "OPENAI_API_KEY": "sk-test", llm.MaxResponseEnv: "1"}
	openers := map[string]llm.Opener{"openai": openai.Open, "ollama": func(ref llm.Ref, getenv func(string) string) (llm.Model, error) {
		return openai.OpenOllama(llm.Ref{Provider: "ollama", Model: ref.Model, BaseURL: s.URL}, getenv)
	}}
	for name, open := range openers {
		t.Run(name+" reads "+llm.MaxResponseEnv, func(t *testing.T) {
			m, err := open(llm.Ref{Provider: name, Model: "m"}, env(vars))
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
		})
		t.Run(name+" refuses a bad "+llm.MaxResponseEnv, func(t *testing.T) {
			bad := map[string]string{"OPENAI_BASE_URL": s.URL, llm.MaxResponseEnv: "lots"}
			if _, err := open(llm.Ref{Provider: name, Model: "m"}, env(bad)); err == nil || !strings.Contains(err.Error(), llm.MaxResponseEnv) {
				t.Errorf("error = %v, want one naming %s", err, llm.MaxResponseEnv)
			}
		})
	}
}
