package anthropic

import (
	"net/url"
	"os"
	"strings"

	"github.com/gavelhq/gavel/llm"
)

// Open opens an Anthropic model. It is an llm.Opener.
//
// The base URL is ref.BaseURL, else ANTHROPIC_BASE_URL, else
// DefaultBaseURL. The key is ANTHROPIC_API_KEY: required for Anthropic's
// own API (a *llm.MissingKeyError names it when it is not set), optional
// for another server, such as a gateway. It is sent only to Anthropic's API
// or to the ANTHROPIC_BASE_URL server: a base URL written in a model
// reference gets no key (llm.KeyAllowed). Errors are labelled with
// ref.Provider ("anthropic"). GAVEL_MAX_RESPONSE_MB, when set, caps a
// response's body (Config.MaxResponseBytes).
func Open(ref llm.Ref, getenv func(string) string) (llm.Model, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	envBase := strings.TrimSpace(getenv("ANTHROPIC_BASE_URL"))
	base := ref.BaseURL
	if base == "" {
		base = envBase
	}
	key := strings.TrimSpace(getenv("ANTHROPIC_API_KEY"))
	if !llm.KeyAllowed(ref, envBase, "api.anthropic.com") {
		key = "" // a base URL from a model reference gets no key: see llm.KeyAllowed
	}
	if key == "" && isAnthropic(base) {
		return nil, &llm.MissingKeyError{Ref: ref, Variable: "ANTHROPIC_API_KEY"}
	}
	provider := ref.Provider
	if provider == "" {
		provider = "anthropic"
	}
	limit, err := llm.MaxResponseBytes(getenv)
	if err != nil {
		return nil, err
	}
	return New(Config{APIKey: key, BaseURL: base, Model: ref.Model, Provider: provider, MaxResponseBytes: limit})
}

// isAnthropic reports whether base is Anthropic's own API ("" is the
// default).
func isAnthropic(base string) bool {
	if base == "" {
		return true
	}
	u, err := url.Parse(base)
	return err == nil && strings.EqualFold(u.Hostname(), "api.anthropic.com")
}
