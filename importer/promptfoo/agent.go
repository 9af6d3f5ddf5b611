package promptfoo

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/gavelhq/gavel/importer/suitefile"
)

// DefaultAgentModel is the agent's model of a converted suite none of
// whose providers Gavel has; GAVEL_AGENT_MODEL replaces it.
const DefaultAgentModel = "openai:gpt-5-mini"

// agent is the suite's agent: a builtin agent on the first provider
// Gavel has (GAVEL_AGENT_MODEL names another), with the prompts' system
// message and the provider's tools as mock tools. The comment above it
// says which providers promptfoo compared and how to run each.
func (c *converter) agent(providers []provider, system string, n *notes) (suitefile.M, string) {
	var refs []string
	var tools []any
	var first *provider
	for i, p := range providers {
		ref, why := modelRef(p.id, p.config)
		if ref == "" {
			n.add(suitefile.NotConverted, fmt.Sprintf("provider %s", p.id), why)
			continue
		}
		refs = append(refs, ref)
		if first == nil {
			first = &providers[i]
		}
	}
	model := DefaultAgentModel
	if len(refs) > 0 {
		model = refs[0]
	} else if len(providers) > 0 {
		n.add(suitefile.Approximated, "the agent", "no provider has a Gavel equivalent: the agent's model is "+DefaultAgentModel+" (GAVEL_AGENT_MODEL names another)")
	}
	builtin := suitefile.M{{Key: "model", Value: "${GAVEL_AGENT_MODEL:-" + model + "}"}}
	if system != "" {
		builtin = builtin.Set("system_prompt", system)
		if vars := literalPlaceholders(system, n); len(vars) > 0 {
			builtin = builtin.Set("vars", vars)
		}
	}
	if first != nil {
		cfg := first.config
		if mt, ok := number(cfg["max_tokens"]); ok && mt > 0 {
			builtin = builtin.Set("max_tokens", int(mt))
		}
		for _, key := range []string{"temperature", "top_p", "seed", "response_format", "reasoning_effort", "stop"} {
			if _, ok := cfg[key]; ok {
				n.add(suitefile.NotConverted, "provider config "+key, "the builtin agent's model is called with the vendor's defaults")
			}
		}
		tools = c.mockTools(cfg["tools"], n)
	}
	var comment []string
	if len(refs) > 1 {
		comment = append(comment, fmt.Sprintf("promptfoo compared %d providers; a suite has one agent. Run it with each:", len(refs)))
		for _, r := range refs {
			comment = append(comment, "  GAVEL_AGENT_MODEL="+r+" gavel run")
		}
		comment = append(comment, "and compare the runs (gavel compare).")
	}
	agent := suitefile.M{{Key: "builtin", Value: builtin}}
	if tools != nil {
		agent = agent.Set("mock_tools", tools)
	}
	return agent, strings.Join(comment, "\n")
}

var braces = regexp.MustCompile(`\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// literalPlaceholders keeps a system prompt's {word}s as written: the
// builtin agent fills {name} from its vars, so each becomes a var of its
// own text. {today}, {now} and {locale} the agent fills in.
func literalPlaceholders(system string, n *notes) map[string]any {
	vars := map[string]any{}
	for _, m := range braces.FindAllStringSubmatch(system, -1) {
		switch m[1] {
		case "today", "now", "locale":
			n.add(suitefile.Approximated, "the system prompt's "+m[0], "the builtin agent fills "+m[0]+" in")
		default:
			vars[m[1]] = m[0]
		}
	}
	return vars
}

// mockTools are the provider's tools (OpenAI's {type: function,
// function: {...}} or Anthropic's {name, input_schema}) as mock tools:
// promptfoo sends their definitions and runs none of them, so each
// answers every call with the same words, to be replaced by real answers.
func (c *converter) mockTools(v any, n *notes) []any {
	if s, ok := v.(string); ok {
		p, isFile := fileRef(c.dir, s)
		if !isFile {
			return nil
		}
		data, err := readData(p)
		if err != nil {
			n.add(suitefile.NotConverted, "provider tools "+s, err.Error())
			return nil
		}
		v = data
	}
	list, _ := v.([]any)
	var out []any
	for i, item := range list {
		t, _ := item.(map[string]any)
		if fn, ok := t["function"].(map[string]any); ok {
			t = map[string]any{"name": fn["name"], "description": fn["description"], "input_schema": fn["parameters"]}
		}
		name, _ := t["name"].(string)
		if name == "" {
			n.add(suitefile.NotConverted, fmt.Sprintf("provider tools[%d]", i), "not a function tool (hosted tools such as web search or MCP are not converted)")
			continue
		}
		tool := suitefile.M{{Key: "name", Value: name}}
		if d, ok := t["description"].(string); ok && d != "" {
			tool = tool.Set("description", d)
		}
		if schema, ok := t["input_schema"].(map[string]any); ok {
			tool = tool.Set("input_schema", schema)
		}
		tool = tool.Set("results", []any{suitefile.M{{Key: "result", Value: "(promptfoo ran no tools: write this tool's answers here)"}}})
		out = append(out, tool)
	}
	if len(out) > 0 {
		n.add(suitefile.Approximated, "provider tools", "promptfoo sends the tool definitions and runs no tool: each is a mock tool answering every call with the same placeholder, for you to replace")
	}
	return out
}
