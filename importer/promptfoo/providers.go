package promptfoo

import (
	"fmt"
	"strings"
)

// A provider is one of promptfoo's providers: the model (or program)
// under test.
type provider struct {
	id     string         // "openai:chat:gpt-4.1-mini"
	label  string         // its label, if any
	config map[string]any // its config: temperature, max_tokens, tools, apiBaseUrl...
}

// readProviders reads providers: a string, or a list of strings, objects
// {id, label, config} or one-key mappings {id: {config...}}.
func readProviders(v any) ([]provider, []string) {
	var out []provider
	var bad []string
	var items []any
	switch x := v.(type) {
	case nil:
		return nil, nil
	case string, map[string]any:
		items = []any{x}
	case []any:
		items = x
	default:
		return nil, []string{fmt.Sprintf("providers: %T", v)}
	}
	for i, item := range items {
		switch x := item.(type) {
		case string:
			out = append(out, provider{id: x})
		case map[string]any:
			if id, ok := x["id"].(string); ok {
				p := provider{id: id}
				p.label, _ = x["label"].(string)
				p.config, _ = x["config"].(map[string]any)
				out = append(out, p)
				continue
			}
			if len(x) == 1 {
				for id, body := range x {
					p := provider{id: id}
					if m, ok := body.(map[string]any); ok {
						p.label, _ = m["label"].(string)
						p.config, _ = m["config"].(map[string]any)
					}
					out = append(out, p)
				}
				continue
			}
			bad = append(bad, fmt.Sprintf("providers[%d]", i))
		default:
			bad = append(bad, fmt.Sprintf("providers[%d]", i))
		}
	}
	return out, bad
}

// modelRef returns the Gavel model reference of a promptfoo provider id
// (and its config's apiBaseUrl), or why it has none. Gavel's providers
// are openai (and any OpenAI-compatible server), anthropic and ollama.
func modelRef(id string, config map[string]any) (string, string) {
	vendor, rest, ok := strings.Cut(id, ":")
	if !ok {
		return "", "Gavel has no provider of that name"
	}
	model := rest
	switch vendor {
	case "openai":
		kind, name, found := strings.Cut(rest, ":")
		switch {
		case !found:
		case kind == "chat" || kind == "responses":
			model = name
		default:
			return "", fmt.Sprintf("Gavel's openai provider speaks chat, not %s", kind)
		}
		if base, ok := config["apiBaseUrl"].(string); ok && base != "" {
			model += "@" + base
		} else if host, ok := config["apiHost"].(string); ok && host != "" {
			model += "@https://" + host + "/v1"
		}
	case "anthropic":
		kind, name, found := strings.Cut(rest, ":")
		switch {
		case !found:
		case kind == "messages":
			model = name
		default:
			return "", fmt.Sprintf("Gavel's anthropic provider speaks the Messages API, not %s", kind)
		}
	case "ollama":
		if kind, name, found := strings.Cut(rest, ":"); found && (kind == "chat" || kind == "completion") {
			model = name
		}
	default:
		return "", fmt.Sprintf("Gavel has no %s provider (it has openai, with any OpenAI-compatible server, anthropic and ollama)", vendor)
	}
	if model == "" {
		return "", "it names no model"
	}
	return vendor + ":" + model, ""
}

// graderRef is the model of an assertion's or a test's provider (a
// string, or {id, config}), or why it has none.
func graderRef(v any) (string, string) {
	switch x := v.(type) {
	case string:
		return modelRef(x, nil)
	case map[string]any:
		if id, ok := x["id"].(string); ok {
			config, _ := x["config"].(map[string]any)
			return modelRef(id, config)
		}
		if text, ok := x["text"]; ok { // {text: ..., embedding: ...}
			return graderRef(text)
		}
	}
	return "", "a grader Gavel cannot read"
}
