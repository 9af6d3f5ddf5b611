package secret_test

import (
	"testing"

	"github.com/gavelhq/gavel/secret"
)

func TestAddress(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"a model without a URL", "openai:gpt-5-mini", "openai:gpt-5-mini"},
		{"a tag after @ is no URL", "ollama:llama3.1@latest", "ollama:llama3.1@latest"},
		{"a plain base URL", "openai:qwen2.5-7b@http://127.0.0.1:8000/v1", "openai:qwen2.5-7b@http://127.0.0.1:8000/v1"},
		{"a password", "openai:qwen@https://ada:s3cret@gateway.example/v1", "openai:qwen@https://gateway.example/v1"},
		{"a token as the user", "openai:qwen@https://token@gateway.example/v1", "openai:qwen@https://gateway.example/v1"},
		{"a query and a fragment", "openai:qwen@https://gateway.example/v1?api_key=k3y&v=2#frag", "openai:qwen@https://gateway.example/v1?api_key=***&v=***"},
		{"a bare parameter", "http://host/mcp?s3cr3t-token", "http://host/mcp?***"},
		{"an empty value", "http://host/mcp?debug=&x=1", "http://host/mcp?debug=&x=***"},
		{"an @ in the password", "http://u:p@ss@host:8080/chat", "http://host:8080/chat"},
		{"a URL alone", "https://u:pw@agent.example/chat?session=1", "https://agent.example/chat?session=***"},
		{"a URL that does not parse", "openai:qwen@http://[bad", "openai:qwen@http://[bad"},
		{"a URL with a password that does not parse", "http://u:p/ss@[bad", "(address hidden)"},
		{"escapes kept as written", "http://host/a%20b/v1", "http://host/a%20b/v1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := secret.Address(tc.in); got != tc.want {
				t.Errorf("Address(%q)\ngot  %q\nwant %q", tc.in, got, tc.want)
			}
		})
	}
}
