package providers

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
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
// A script model is its file's content, so its namespace also holds the
// SHA-256 of the file as it is now: "script:/suite/models/agent.yaml
// sha256=3f9a…". So two references that reach different models or
// servers never share a namespace, a cache never answers for one with the
// other's answers, and an edited script never gets its old answers.
func Namespace(ref llm.Ref, getenv func(string) string) string {
	ns := ref.String()
	if v, ok := serverVars[ref.Provider]; ok && ref.BaseURL == "" && getenv != nil {
		if server := strings.TrimSpace(getenv(v)); server != "" {
			ns += " " + v + "=" + server
		}
	}
	if ref.Provider == "script" {
		ns += " sha256=" + fileDigest(ref.Model)
	}
	return ns
}

// fileDigest is the SHA-256 of the file at path, in hex, or "unreadable":
// a script that cannot be read cannot be opened either, so no model
// answers under that name.
func fileDigest(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return "unreadable"
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
