package anthropic

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/packages/param"

	"github.com/gavelhq/gavel/llm"
)

// params maps req onto the SDK's Messages request. It fails only on what
// the wire cannot carry: no model, an unknown role, tool arguments,
// parameters or a schema that are not JSON objects, a schema named like a
// tool.
func (m *Model) params(req *llm.Request) (sdk.MessageNewParams, error) {
	var p sdk.MessageNewParams
	p.Model = req.Model
	if p.Model == "" {
		p.Model = m.model
	}
	if p.Model == "" {
		return p, fmt.Errorf("%s: no model: name one in the request or in the model reference", m.provider)
	}
	p.MaxTokens = int64(req.MaxTokens)
	if p.MaxTokens <= 0 {
		p.MaxTokens = DefaultMaxTokens
	}
	if req.Temperature != nil {
		p.Temperature = param.NewOpt(*req.Temperature)
	}
	// Seed: Anthropic has none, so it is left out.

	var (
		system []string
		turns  turns
	)
	for i, msg := range req.Messages {
		switch msg.Role {
		case llm.RoleSystem:
			if msg.Content != "" {
				system = append(system, msg.Content)
			}
		case llm.RoleUser:
			turns.add(sdk.MessageParamRoleUser, nil, textBlock(msg.Content))
		case llm.RoleAssistant:
			blocks := textBlock(msg.Content)
			for _, c := range msg.ToolCalls {
				input, err := llm.ToolArguments(c.Arguments)
				if err != nil {
					return p, fmt.Errorf("%s: message %d: tool call %s (%s): %w", m.provider, i, c.ID, c.Name, err)
				}
				blocks = append(blocks, sdk.NewToolUseBlock(c.ID, input, c.Name))
			}
			turns.add(sdk.MessageParamRoleAssistant, nil, blocks)
		case llm.RoleTool:
			turns.add(sdk.MessageParamRoleUser, []sdk.ContentBlockParamUnion{toolResult(msg)}, nil)
		default:
			return p, fmt.Errorf("%s: message %d: unknown role %q: want system, user, assistant or tool", m.provider, i, msg.Role)
		}
	}
	if len(system) > 0 {
		p.System = []sdk.TextBlockParam{{Text: strings.Join(system, "\n\n")}}
	}
	p.Messages = turns.messages()

	for _, t := range req.Tools {
		schema := t.Parameters
		if len(schema) == 0 {
			schema = json.RawMessage(`{"type":"object","properties":{}}`)
		}
		if !llm.IsObject(schema) {
			return p, fmt.Errorf("%s: tool %q: parameters: want a JSON Schema object, got %.80s", m.provider, t.Name, schema)
		}
		p.Tools = append(p.Tools, tool(t.Name, t.Description, schema))
	}
	if s := req.ResponseSchema; s != nil {
		// Structured output is a forced tool whose input is the answer.
		for _, t := range req.Tools {
			if t.Name == s.Name {
				return p, fmt.Errorf("%s: response schema %q has the name of a tool: rename one", m.provider, s.Name)
			}
		}
		if !llm.IsObject(s.Schema) {
			return p, fmt.Errorf("%s: response schema %q is not a JSON object", m.provider, s.Name)
		}
		p.Tools = append(p.Tools, tool(s.Name, "Give your answer by calling this tool: its input is the answer, a JSON object matching the schema.", s.Schema))
		p.ToolChoice = sdk.ToolChoiceParamOfTool(s.Name)
	}
	return p, nil
}

// A turn is one message of the wire conversation, which must alternate
// between user and assistant. A user turn's tool results come before its
// other blocks, as the API wants.
type turn struct {
	role    sdk.MessageParamRole
	results []sdk.ContentBlockParamUnion
	blocks  []sdk.ContentBlockParamUnion
}

type turns []turn

// add adds blocks to the conversation, in the last turn when it has the
// same role: consecutive tool results become one user message, and
// consecutive messages of a role merge. A message with nothing to say adds
// nothing.
func (ts *turns) add(role sdk.MessageParamRole, results, blocks []sdk.ContentBlockParamUnion) {
	if len(results)+len(blocks) == 0 {
		return
	}
	if n := len(*ts); n > 0 && (*ts)[n-1].role == role {
		last := &(*ts)[n-1]
		last.results = append(last.results, results...)
		last.blocks = append(last.blocks, blocks...)
		return
	}
	*ts = append(*ts, turn{role: role, results: results, blocks: blocks})
}

func (ts turns) messages() []sdk.MessageParam {
	out := make([]sdk.MessageParam, len(ts))
	for i, t := range ts {
		out[i] = sdk.MessageParam{Role: t.role, Content: slices.Concat(t.results, t.blocks)}
	}
	return out
}

// textBlock is a text block of s; none when s is empty, which the API
// refuses.
func textBlock(s string) []sdk.ContentBlockParamUnion {
	if s == "" {
		return nil
	}
	return []sdk.ContentBlockParamUnion{sdk.NewTextBlock(s)}
}

// toolResult maps a tool message to a tool_result block.
func toolResult(msg llm.Message) sdk.ContentBlockParamUnion {
	b := sdk.ToolResultBlockParam{ToolUseID: msg.ToolCallID}
	if msg.Content != "" {
		b.Content = []sdk.ToolResultBlockParamContentUnion{{OfText: &sdk.TextBlockParam{Text: msg.Content}}}
	}
	if msg.IsError {
		b.IsError = param.NewOpt(true)
	}
	return sdk.ContentBlockParamUnion{OfToolResult: &b}
}

// tool is a custom tool whose input schema is sent as it is.
func tool(name, description string, schema json.RawMessage) sdk.ToolUnionParam {
	t := sdk.ToolParam{Name: name, InputSchema: param.Override[sdk.ToolInputSchemaParam](schema)}
	if description != "" {
		t.Description = param.NewOpt(description)
	}
	return sdk.ToolUnionParam{OfTool: &t}
}
