package openai

import (
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"

	"github.com/gavelhq/gavel/llm"
)

// Open opens a model of OpenAI, or of any OpenAI-compatible server (vLLM,
// LM Studio, a gateway). It is an llm.Opener.
//
// The base URL is ref.BaseURL, else OPENAI_BASE_URL, else DefaultBaseURL.
// The key is OPENAI_API_KEY: required for OpenAI's own API (a
// *llm.MissingKeyError names it when it is not set), optional for another
// server. It is sent only to OpenAI's API or to the OPENAI_BASE_URL server:
// a base URL written in a model reference gets no key (llm.KeyAllowed), so
// a shared suite file cannot send it elsewhere. Errors are labelled with
// ref.Provider ("openai"). GAVEL_MAX_RESPONSE_MB, when set, caps a
// response's body (Config.MaxResponseBytes).
func Open(ref llm.Ref, getenv func(string) string) (llm.Model, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	envBase := strings.TrimSpace(getenv("OPENAI_BASE_URL"))
	base := ref.BaseURL
	if base == "" {
		base = envBase
	}
	key := strings.TrimSpace(getenv("OPENAI_API_KEY"))
	if !llm.KeyAllowed(ref, envBase, "api.openai.com") {
		key = "" // a base URL from a model reference gets no key: see llm.KeyAllowed
	}
	if key == "" && isOpenAI(base) {
		return nil, &llm.MissingKeyError{Ref: ref, Variable: "OPENAI_API_KEY"}
	}
	provider := ref.Provider
	if provider == "" {
		provider = "openai"
	}
	limit, err := llm.MaxResponseBytes(getenv)
	if err != nil {
		return nil, err
	}
	return New(Config{APIKey: key, BaseURL: base, Model: ref.Model, Provider: provider, MaxResponseBytes: limit})
}

// isOpenAI reports whether base is OpenAI's own API ("" is the default).
func isOpenAI(base string) bool {
	if base == "" {
		return true
	}
	u, err := url.Parse(base)
	return err == nil && strings.EqualFold(u.Hostname(), "api.openai.com")
}

// ollamaKey is sent to Ollama, which wants no key: Ollama's own examples
// send this placeholder, which it ignores.
const ollamaKey = "ollama"

// OpenOllama opens a model of a local Ollama server through its
// OpenAI-compatible API. It is an llm.Opener.
//
// The server is ref.BaseURL when set (/v1 included), else $OLLAMA_HOST
// read as Ollama reads it (default http://127.0.0.1:11434; a host:port
// without scheme is http) with /v1 added. No key is needed. Errors are
// labelled "ollama". MaxTokens is sent as max_tokens, the field Ollama
// reads. GAVEL_MAX_RESPONSE_MB caps a response's body, as for Open.
func OpenOllama(ref llm.Ref, getenv func(string) string) (llm.Model, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	base := ref.BaseURL
	if base == "" {
		base = ollamaURL(getenv("OLLAMA_HOST")) + "/v1"
	}
	limit, err := llm.MaxResponseBytes(getenv)
	if err != nil {
		return nil, err
	}
	m, err := New(Config{APIKey: ollamaKey, BaseURL: base, Model: ref.Model, Provider: "ollama", MaxResponseBytes: limit})
	if err != nil {
		return nil, err
	}
	m.legacyMaxTokens = true
	return m, nil
}

// ollamaURL reads OLLAMA_HOST as Ollama's own client does: an optional
// scheme (default http), a host (default 127.0.0.1), a port (default 11434,
// or 80 and 443 when the scheme is given) and an optional path.
func ollamaURL(host string) string {
	s := strings.TrimSpace(strings.Trim(strings.TrimSpace(host), `"'`))
	port := "11434"
	scheme, hostport, ok := strings.Cut(s, "://")
	switch {
	case !ok:
		scheme, hostport = "http", s
	case scheme == "http":
		port = "80"
	case scheme == "https":
		port = "443"
	}
	hostport, path, _ := strings.Cut(hostport, "/")
	h, p, err := net.SplitHostPort(hostport)
	if err != nil {
		h, p = strings.Trim(hostport, "[]"), port
	}
	if h == "" {
		h = "127.0.0.1"
	}
	if n, err := strconv.Atoi(p); err != nil || n < 0 || n > 65535 {
		p = port
	}
	u := url.URL{Scheme: scheme, Host: net.JoinHostPort(h, p), Path: strings.TrimRight(path, "/")}
	if u.Path != "" {
		u.Path = "/" + u.Path
	}
	return u.String()
}
