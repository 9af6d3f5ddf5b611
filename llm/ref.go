package llm

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// A Ref names a model as users write it: "openai:gpt-5-mini",
// "anthropic:claude-opus-4-5", "ollama:llama3.1". Any OpenAI-compatible
// server (vLLM, LM Studio, a gateway) is reached with a base URL after an
// @: "openai:qwen2.5-7b@http://127.0.0.1:8000/v1".
type Ref struct {
	Provider string // "openai"
	Model    string // the vendor's name: "gpt-5-mini"
	// BaseURL, when set, overrides the provider's endpoint (and its
	// environment variable).
	BaseURL string
}

// ParseRef parses "provider:model" or "provider:model@baseURL".
func ParseRef(s string) (Ref, error) {
	provider, rest, ok := strings.Cut(strings.TrimSpace(s), ":")
	if !ok || provider == "" || rest == "" {
		return Ref{}, fmt.Errorf("model reference %q: want provider:model, such as openai:gpt-5-mini or anthropic:claude-opus-4-5", s)
	}
	r := Ref{Provider: strings.ToLower(provider), Model: rest}
	if model, base, ok := strings.Cut(rest, "@"); ok {
		u, err := url.Parse(base)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return Ref{}, fmt.Errorf("model reference %q: the base URL after @ must be an http(s) URL, such as http://127.0.0.1:8000/v1", s)
		}
		r.Model, r.BaseURL = model, base
	}
	if r.Model == "" {
		return Ref{}, fmt.Errorf("model reference %q: no model name after %q", s, provider+":")
	}
	return r, nil
}

// String formats r as ParseRef reads it.
func (r Ref) String() string {
	s := r.Provider + ":" + r.Model
	if r.BaseURL != "" {
		s += "@" + r.BaseURL
	}
	return s
}

// An Opener opens a model of one provider. getenv reads the environment
// (os.Getenv, or a map in tests); an Opener must report a missing key with
// a *MissingKeyError before it makes any request.
type Opener func(ref Ref, getenv func(string) string) (Model, error)

// A Registry maps provider names to their openers. Programs build one with
// the providers they link in; package llm knows none of them.
type Registry map[string]Opener

// Open parses ref and opens the model with the provider it names.
func (r Registry) Open(ref string, getenv func(string) string) (Model, error) {
	parsed, err := ParseRef(ref)
	if err != nil {
		return nil, err
	}
	open, ok := r[parsed.Provider]
	if !ok {
		names := make([]string, 0, len(r))
		for name := range r {
			names = append(names, name)
		}
		slices.Sort(names)
		return nil, fmt.Errorf("model reference %q: unknown provider %q: want one of %s", ref, parsed.Provider, strings.Join(names, ", "))
	}
	return open(parsed, getenv)
}

// KeyAllowed reports whether a provider may send the key from the user's
// environment to the server ref names. A key goes only where the user
// pointed it: to the vendor's own host (vendorHost, "api.openai.com"), or
// to the base URL the environment itself names (envBase). A base URL
// written in a model reference, which may come from a shared suite file,
// gets no key unless it is one of those, so a suite cannot send a user's
// key to a server of its choosing.
func KeyAllowed(ref Ref, envBase, vendorHost string) bool {
	if ref.BaseURL == "" {
		return true // the environment's base URL, or the vendor's
	}
	u, err := url.Parse(ref.BaseURL)
	if err != nil {
		return false
	}
	if strings.EqualFold(u.Hostname(), vendorHost) && u.Scheme == "https" {
		return true
	}
	env, err := url.Parse(strings.TrimSpace(envBase))
	return err == nil && envBase != "" && strings.EqualFold(u.Scheme, env.Scheme) && strings.EqualFold(u.Host, env.Host)
}

// A MissingKeyError says that a provider needs an environment variable
// that is not set.
type MissingKeyError struct {
	Ref      Ref
	Variable string // "OPENAI_API_KEY"
}

func (e *MissingKeyError) Error() string {
	return fmt.Sprintf("%s needs %s: set it in the environment", e.Ref, e.Variable)
}
