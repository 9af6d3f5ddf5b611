package promptfoo

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// A prompt is one of promptfoo's prompts: a template of what the provider
// is sent, text or a chat (a JSON list of messages).
type prompt struct {
	label string // as the report names it
	tag   string // the cases' tag, when there are several prompts
	raw   string
	err   string // why it cannot be converted, if it cannot
}

// readPrompts reads prompts: a string or a list of strings and objects
// {raw|id, label}; a file:// reference (a glob too) is read: a text file
// holds prompts separated by lines of ---, a JSON or YAML file a chat.
func (c *converter) readPrompts(v any) []prompt {
	var items []any
	switch x := v.(type) {
	case nil:
		return nil
	case []any:
		items = x
	case map[string]any: // the old form: {file://x.txt: label}
		for k, label := range x {
			items = append(items, map[string]any{"id": k, "label": label})
		}
	default:
		items = []any{x}
	}
	var out []prompt
	for i, item := range items {
		switch x := item.(type) {
		case string:
			out = append(out, c.promptsOf(x, "")...)
		case map[string]any:
			label, _ := x["label"].(string)
			if raw, ok := x["raw"].(string); ok {
				out = append(out, c.promptsOf(raw, label)...)
			} else if id, ok := x["id"].(string); ok {
				out = append(out, c.promptsOf(id, label)...)
			} else {
				out = append(out, prompt{label: fmt.Sprintf("prompts[%d]", i), err: "a prompt object needs raw or id"})
			}
		default:
			out = append(out, prompt{label: fmt.Sprintf("prompts[%d]", i), err: fmt.Sprintf("a prompt is a text or an object, not %T", item)})
		}
	}
	return out
}

func (c *converter) promptsOf(s, label string) []prompt {
	p, ok := fileRef(c.dir, s)
	if !ok {
		if label == "" {
			return []prompt{{label: excerpt(s, 40), raw: s}}
		}
		return []prompt{{label: label, tag: slug(label), raw: s}}
	}
	paths, err := glob(p)
	if err != nil {
		return []prompt{{label: cmpOr(label, s), err: err.Error()}}
	}
	var out []prompt
	for _, path := range paths {
		name := cmpOr(label, filepath.Base(path))
		switch ext := strings.ToLower(filepath.Ext(path)); ext {
		case ".js", ".ts", ".mjs", ".cjs", ".py":
			out = append(out, prompt{label: name, err: "a prompt function (" + filepath.Base(path) + "): Gavel runs no promptfoo programs; render its prompts into a file"})
		case ".json", ".yaml", ".yml":
			v, err := readData(path)
			if err != nil {
				out = append(out, prompt{label: name, err: err.Error()})
				continue
			}
			if text, ok := v.(string); ok {
				out = append(out, prompt{label: name, tag: slug(name), raw: text})
				continue
			}
			data, _ := json.Marshal(v)
			out = append(out, prompt{label: name, tag: slug(name), raw: string(data)})
		default:
			text, err := readText(path)
			if err != nil {
				out = append(out, prompt{label: name, err: err.Error()})
				continue
			}
			parts := splitPrompts(text)
			for i, part := range parts {
				l := name
				if len(parts) > 1 {
					l = fmt.Sprintf("%s #%d", name, i+1)
				}
				out = append(out, prompt{label: l, tag: slug(l), raw: part})
			}
		}
	}
	return out
}

// splitPrompts splits a prompt file at its lines of --- (promptfoo's
// separator of several prompts in one file).
func splitPrompts(text string) []string {
	var out []string
	for _, part := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n---\n") {
		if strings.TrimSpace(part) != "" {
			out = append(out, strings.TrimSpace(part))
		}
	}
	return out
}

func readText(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	return string(data), nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// A message is one message of a chat prompt.
type message struct {
	Role    string `json:"role"`
	Content any    `json:"content"`
}

// renderPrompt renders a prompt with a test's vars and splits it into its
// system text and its user message. A chat prompt (a JSON list of
// messages, each content rendered on its own so that a var's quotes and
// newlines stay text) may have system messages and one user message;
// assistant messages (few-shot examples, a conversation so far) have no
// place in a Gavel case.
func renderPrompt(raw string, vars map[string]any) (system, user string, missing []string, err error) {
	var msgs []message
	trimmed := strings.TrimSpace(raw)
	if !strings.HasPrefix(trimmed, "[") || json.Unmarshal([]byte(trimmed), &msgs) != nil || len(msgs) == 0 || msgs[0].Role == "" {
		user, missing, err = render(raw, vars)
		return "", user, missing, err
	}
	var systems, users []string
	for _, m := range msgs {
		text, ok := contentText(m.Content)
		if !ok {
			return "", "", nil, fmt.Errorf("a %s message whose content is not text (images, audio)", m.Role)
		}
		text, miss, err := render(text, vars)
		if err != nil {
			return "", "", nil, err
		}
		missing = append(missing, miss...)
		switch m.Role {
		case "system", "developer":
			if len(users) > 0 {
				return "", "", nil, fmt.Errorf("a system message after the user's")
			}
			systems = append(systems, text)
		case "user":
			users = append(users, text)
		default:
			return "", "", nil, fmt.Errorf("a chat with %s messages: a Gavel case holds the user's messages, and its agent answers them", m.Role)
		}
	}
	if len(users) != 1 {
		return "", "", nil, fmt.Errorf("a chat with %d user messages: a Gavel case sends one user message a round, and the agent answers each", len(users))
	}
	return strings.Join(systems, "\n\n"), users[0], missing, nil
}

// contentText is a message's content as text: a string, or a list of
// text parts.
func contentText(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case []any:
		var parts []string
		for _, p := range x {
			m, ok := p.(map[string]any)
			if !ok || m["type"] != "text" {
				return "", false
			}
			s, _ := m["text"].(string)
			parts = append(parts, s)
		}
		return strings.Join(parts, "\n"), true
	}
	return "", false
}
