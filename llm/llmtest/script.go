package llmtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gavelhq/gavel/llm"
)

// A Script is a scripted model written as a file, so that a suite can be
// run offline by pointing its model references at scripts
// ("script:models/agent.yaml"). It is YAML (or JSON):
//
//	name: support-agent        # the model name responses report
//	rules:                     # the first rule that matches answers
//	  - when:
//	      user: 'cancel .*?(?P<id>\d{5})'   # the latest user message
//	      last: user                       # what the request ends with
//	    tool_calls:
//	      - name: get_order_status
//	        arguments: {order_id: '${id}'}
//	  - when: {last: 'tool:get_order_status'}
//	    text: 'Order ${id} …'
//
// The conditions of when, all of which must hold (an absent one always
// does):
//
//   - user: a regular expression found in the latest user message;
//   - history: one found in all the user messages, joined by newlines;
//   - system: one found in the system prompt;
//   - text: one found in the content of the request's last message;
//   - last: what the last message is: "user", "assistant", "tool", or
//     "tool:NAME" for the result of the tool NAME.
//
// Named groups of the expressions, (?P<name>…), are expanded as ${name}
// in the rule's text and in its tool calls' arguments (as JSON string
// content). A rule may answer with an error instead: error: "…".
type Script struct {
	Name  string       `yaml:"name"`
	Rules []ScriptRule `yaml:"rules"`
}

// A ScriptRule is one rule of a Script.
type ScriptRule struct {
	When      ScriptWhen       `yaml:"when"`
	Text      string           `yaml:"text"`
	ToolCalls []ScriptToolCall `yaml:"tool_calls"`
	Error     string           `yaml:"error"`
}

// ScriptWhen holds a ScriptRule's conditions.
type ScriptWhen struct {
	User    string `yaml:"user"`
	History string `yaml:"history"`
	System  string `yaml:"system"`
	Text    string `yaml:"text"`
	Last    string `yaml:"last"`
}

// A ScriptToolCall is a tool call a ScriptRule answers with.
type ScriptToolCall struct {
	Name      string         `yaml:"name"`
	Arguments map[string]any `yaml:"arguments"`
}

// LoadScript reads a script file and returns its model. Errors name the
// file, and the rule and line of a bad expression.
func LoadScript(path string) (*Scripted, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("model script: %w", err)
	}
	m, err := ParseScript(data)
	if err != nil {
		return nil, fmt.Errorf("model script %s: %w", path, err)
	}
	return m, nil
}

// ParseScript parses a script and returns its model.
func ParseScript(data []byte) (*Scripted, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var s Script
	if err := dec.Decode(&s); err != nil {
		return nil, err
	}
	if len(s.Rules) == 0 {
		return nil, errors.New("no rules: the model could answer nothing")
	}
	m := &Scripted{Name: s.Name}
	for i, r := range s.Rules {
		rule, err := r.compile()
		if err != nil {
			return nil, fmt.Errorf("rule %d: %w", i+1, err)
		}
		m.Rules = append(m.Rules, rule)
	}
	return m, nil
}

// OpenScript is an llm.Opener for the "script" provider: the model of
// "script:PATH" is the script file at PATH.
func OpenScript(ref llm.Ref, _ func(string) string) (llm.Model, error) {
	return LoadScript(ref.Model)
}

// condition is one compiled regular expression and what it reads.
type condition struct {
	re   *regexp.Regexp
	read func(req *llm.Request) string
}

func (r ScriptRule) compile() (Rule, error) {
	var conds []condition
	for _, c := range []struct {
		field, pattern string
		read           func(req *llm.Request) string
	}{
		{"user", r.When.User, latestUser},
		{"history", r.When.History, allUsers},
		{"system", r.When.System, systemPrompt},
		{"text", r.When.Text, lastContent},
	} {
		if c.pattern == "" {
			continue
		}
		re, err := regexp.Compile(c.pattern)
		if err != nil {
			return Rule{}, fmt.Errorf("when.%s: %w", c.field, err)
		}
		conds = append(conds, condition{re, c.read})
	}
	if err := checkLast(r.When.Last); err != nil {
		return Rule{}, err
	}
	if (r.Text != "" || len(r.ToolCalls) > 0) && r.Error != "" {
		return Rule{}, errors.New("a rule answers with text and tool calls, or with an error, not both")
	}
	calls := make([]json.RawMessage, len(r.ToolCalls))
	for i, c := range r.ToolCalls {
		if c.Name == "" {
			return Rule{}, fmt.Errorf("tool call %d has no name", i+1)
		}
		args := c.Arguments
		if args == nil {
			args = map[string]any{}
		}
		b, err := json.Marshal(args)
		if err != nil {
			return Rule{}, fmt.Errorf("tool call %d: arguments: %w", i+1, err)
		}
		calls[i] = b
	}

	match := func(req *llm.Request) (map[string]string, bool) {
		if kind := lastKind(req); r.When.Last != "" && kind != r.When.Last && !(r.When.Last == "tool" && strings.HasPrefix(kind, "tool:")) {
			return nil, false
		}
		groups := map[string]string{}
		for _, c := range conds {
			m := c.re.FindStringSubmatch(c.read(req))
			if m == nil {
				return nil, false
			}
			for k, name := range c.re.SubexpNames() {
				if name != "" {
					groups[name] = m[k]
				}
			}
		}
		return groups, true
	}
	// One pass over the conditions both decides and captures the groups
	// the answer is written with.
	return Rule{Respond: func(req *llm.Request) (Rule, bool) {
		groups, ok := match(req)
		if !ok {
			return Rule{}, false
		}
		if r.Error != "" {
			return Rule{Err: errors.New(expand(r.Error, groups, false))}, true
		}
		out := Rule{Text: expand(r.Text, groups, false)}
		for i, c := range r.ToolCalls {
			out.ToolCalls = append(out.ToolCalls, llm.ToolCall{Name: c.Name, Arguments: json.RawMessage(expand(string(calls[i]), groups, true))})
		}
		return out, true
	}}, nil
}

var placeholder = regexp.MustCompile(`\$\{(\w+)\}`)

// expand replaces ${name} with the group's value, escaped for a JSON
// string when inJSON. An unknown name is left as written.
func expand(s string, groups map[string]string, inJSON bool) string {
	return placeholder.ReplaceAllStringFunc(s, func(p string) string {
		v, ok := groups[p[2:len(p)-1]]
		if !ok {
			return p
		}
		if inJSON {
			b, _ := json.Marshal(v)
			return string(b[1 : len(b)-1])
		}
		return v
	})
}

func checkLast(last string) error {
	switch {
	case last == "", last == "user", last == "assistant", last == "tool":
		return nil
	case strings.HasPrefix(last, "tool:") && len(last) > len("tool:"):
		return nil
	}
	return fmt.Errorf(`when.last %q: want "user", "assistant", "tool" or "tool:NAME"`, last)
}

func latestUser(req *llm.Request) string {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if req.Messages[i].Role == llm.RoleUser {
			return req.Messages[i].Content
		}
	}
	return ""
}

func allUsers(req *llm.Request) string {
	var users []string
	for _, m := range req.Messages {
		if m.Role == llm.RoleUser {
			users = append(users, m.Content)
		}
	}
	return strings.Join(users, "\n")
}

func systemPrompt(req *llm.Request) string {
	for _, m := range req.Messages {
		if m.Role == llm.RoleSystem {
			return m.Content
		}
	}
	return ""
}

func lastContent(req *llm.Request) string {
	if len(req.Messages) == 0 {
		return ""
	}
	return req.Messages[len(req.Messages)-1].Content
}

// lastKind says what the request ends with: "user", "assistant", or
// "tool:NAME", naming the tool from the call the result answers.
func lastKind(req *llm.Request) string {
	if len(req.Messages) == 0 {
		return ""
	}
	last := req.Messages[len(req.Messages)-1]
	if last.Role != llm.RoleTool {
		return string(last.Role)
	}
	for i := len(req.Messages) - 2; i >= 0; i-- {
		for _, c := range req.Messages[i].ToolCalls {
			if c.ID == last.ToolCallID {
				return "tool:" + c.Name
			}
		}
	}
	return "tool"
}
