package llm_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gavelhq/gavel/llm"
)

func TestParseRef(t *testing.T) {
	tests := []struct {
		in      string
		want    llm.Ref
		wantErr string
	}{
		{"openai:gpt-5-mini", llm.Ref{Provider: "openai", Model: "gpt-5-mini"}, ""},
		{"anthropic:claude-opus-4-5", llm.Ref{Provider: "anthropic", Model: "claude-opus-4-5"}, ""},
		{"ollama:llama3.1", llm.Ref{Provider: "ollama", Model: "llama3.1"}, ""},
		{" OpenAI:gpt-5 ", llm.Ref{Provider: "openai", Model: "gpt-5"}, ""},
		{"openai:qwen2.5@http://127.0.0.1:8000/v1", llm.Ref{Provider: "openai", Model: "qwen2.5", BaseURL: "http://127.0.0.1:8000/v1"}, ""},
		{"ollama:qwen3:8b", llm.Ref{Provider: "ollama", Model: "qwen3:8b"}, ""},
		{"gpt-5-mini", llm.Ref{}, "want provider:model"},
		{"openai:", llm.Ref{}, "want provider:model"},
		{"openai:@http://x/v1", llm.Ref{}, "no model name"},
		{"openai:m@ftp://x", llm.Ref{}, "must be an http(s) URL"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := llm.ParseRef(tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %+v, %v; want %+v", got, err, tt.want)
			}
			if back, _ := llm.ParseRef(got.String()); back != got {
				t.Errorf("String() = %q does not parse back to %+v", got.String(), got)
			}
		})
	}
}

func TestRegistryOpen(t *testing.T) {
	reg := llm.Registry{
		"openai": func(ref llm.Ref, getenv func(string) string) (llm.Model, error) {
			if getenv("OPENAI_API_KEY") == "" {
				return nil, &llm.MissingKeyError{Ref: ref, Variable: "OPENAI_API_KEY"}
			}
			return llm.Func(nil), nil
		},
	}
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }

	_, err := reg.Open("openai:gpt-5-mini", getenv)
	var missing *llm.MissingKeyError
	if !errors.As(err, &missing) || err.Error() != "openai:gpt-5-mini needs OPENAI_API_KEY: set it in the environment" {
		t.Errorf("missing key: error = %v, want a MissingKeyError naming OPENAI_API_KEY", err)
	}
	env["OPENAI_API_KEY"] = "sk-test"
	if _, err := reg.Open("openai:gpt-5-mini", getenv); err != nil {
		t.Errorf("with the key set: %v", err)
	}
	if _, err := reg.Open("mistral:large", getenv); err == nil || !strings.Contains(err.Error(), `unknown provider "mistral": want one of openai`) {
		t.Errorf("unknown provider: error = %v", err)
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	tests := map[string]time.Duration{
		"":                              0,
		"2":                             2 * time.Second,
		"0.5":                           500 * time.Millisecond,
		"-1":                            0,
		"99999":                         0, // beyond an hour: not trusted
		"soon":                          0,
		"Sat, 21 Nov 2026 12:00:30 GMT": 30 * time.Second,
		"Sat, 21 Nov 2026 11:00:00 GMT": 0, // in the past
	}
	for header, want := range tests {
		h := http.Header{}
		if header != "" {
			h.Set("Retry-After", header)
		}
		if got := llm.ParseRetryAfter(h, now); got != want {
			t.Errorf("Retry-After %q = %v, want %v", header, got, want)
		}
	}
}

func TestRetryable(t *testing.T) {
	tests := []struct {
		err  error
		want bool
	}{
		{&llm.APIError{StatusCode: 429}, true},
		{&llm.APIError{StatusCode: 500}, true},
		{&llm.APIError{StatusCode: 503}, true},
		{&llm.APIError{StatusCode: 408}, true},
		{&llm.APIError{StatusCode: 400}, false},
		{&llm.APIError{StatusCode: 401}, false},
		{&llm.APIError{StatusCode: 403}, false},
		{&llm.APIError{StatusCode: 404}, false},
		{errors.New("wrapped: " + (&llm.APIError{StatusCode: 502}).Error()), false}, // text is not an APIError
		{errors.Join(errors.New("attempt 2"), &llm.APIError{StatusCode: 502}), true},
		{timeoutError{}, true},
		{nil, false},
	}
	for _, tt := range tests {
		if got := llm.Retryable(tt.err); got != tt.want {
			t.Errorf("Retryable(%v) = %v, want %v", tt.err, got, tt.want)
		}
	}
}

// timeoutError is a net.Error that timed out.
type timeoutError struct{}

func (timeoutError) Error() string   { return "i/o timeout" }
func (timeoutError) Timeout() bool   { return true }
func (timeoutError) Temporary() bool { return true }

func TestAPIErrorMessage(t *testing.T) {
	err := &llm.APIError{Provider: "openai", StatusCode: 429, Message: "Rate limit reached", RequestID: "req_1"}
	if got, want := err.Error(), "openai: 429 Too Many Requests: Rate limit reached (request req_1)"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

func TestKeyAllowed(t *testing.T) {
	tests := []struct {
		name    string
		ref     llm.Ref
		envBase string
		want    bool
	}{
		{"the vendor's default", llm.Ref{Provider: "openai", Model: "m"}, "", true},
		{"the environment's base URL", llm.Ref{Provider: "openai", Model: "m"}, "http://gateway:8000/v1", true},
		{"the vendor's host in the reference", llm.Ref{Model: "m", BaseURL: "https://api.openai.com/v1"}, "", true},
		{"the vendor's host over plain http", llm.Ref{Model: "m", BaseURL: "http://api.openai.com/v1"}, "", false},
		{"the environment's server named in the reference", llm.Ref{Model: "m", BaseURL: "http://gateway:8000/v1"}, "http://gateway:8000", true},
		{"another server named in the reference", llm.Ref{Model: "m", BaseURL: "http://collector.example/v1"}, "http://gateway:8000/v1", false},
		{"another server and no environment", llm.Ref{Model: "m", BaseURL: "http://collector.example/v1"}, "", false},
		{"a look-alike host", llm.Ref{Model: "m", BaseURL: "https://api.openai.com.example/v1"}, "", false},
	}
	for _, tt := range tests {
		if got := llm.KeyAllowed(tt.ref, tt.envBase, "api.openai.com"); got != tt.want {
			t.Errorf("%s: KeyAllowed = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestBodyExcerpt(t *testing.T) {
	long := strings.Repeat("é", 400) // 800 bytes
	got := llm.BodyExcerpt([]byte(long))
	if len(got) > llm.MaxBodyExcerpt || !strings.HasSuffix(got, "…") || !strings.HasPrefix(long, strings.TrimSuffix(got, "…")) {
		t.Errorf("excerpt of %d bytes = %d bytes %q, want at most %d, cut on a character", len(long), len(got), got, llm.MaxBodyExcerpt)
	}
	if got := llm.BodyExcerpt([]byte("  short \n")); got != "short" {
		t.Errorf("BodyExcerpt(short) = %q, want short", got)
	}
}
