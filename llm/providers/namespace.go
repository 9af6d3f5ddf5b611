package providers

import (
	"strings"

	"github.com/gavelhq/gavel/llm"
)

// serverVars names, by provider, the environment variable its opener reads
// for the server when a model reference names none (see openai.Open,
// openai.OpenOllama, anthropic.Open).
var serverVars = map[string]string{
	"openai":    "OPENAI_BASE_URL",
	"anthropic": "ANTHROPIC_BASE_URL",
	"ollama":    "OLLAMA_HOST",
}

// Namespace names the model that ref opens with getenv, for a cache's keys
// (llm.Cache.Middleware): the reference (provider, model, base URL; a
// script reference should hold its absolute path), and, when the reference
// names no base URL, the environment variable its provider reads for one,
// with its value: "openai:gpt-5-mini OPENAI_BASE_URL=http://127.0.0.1:8000/v1".
// So two references that reach different models or servers never share a
// namespace, and a cache never answers for one with the other's answers.
func Namespace(ref llm.Ref, getenv func(string) string) string {
	ns := ref.String()
	if v, ok := serverVars[ref.Provider]; ok && ref.BaseURL == "" && getenv != nil {
		if server := strings.TrimSpace(getenv(v)); server != "" {
			ns += " " + v + "=" + server
		}
	}
	return ns
}
