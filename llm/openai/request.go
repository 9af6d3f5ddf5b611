package openai

import (
	"encoding/json"
	"fmt"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/shared"

	"github.com/gavelhq/gavel/llm"
)

// params maps req onto the SDK's chat completion request. It fails only on
// what the wire cannot carry: no model, an unknown role, parameters or a
// schema that are not JSON objects.
func (m *Model) params(req *llm.Request) (sdk.ChatCompletionNewParams, error) {
	var p sdk.ChatCompletionNewParams
	p.Model = req.Model
	if p.Model == "" {
		p.Model = m.model
	}
	if p.Model == "" {
		return p, fmt.Errorf("%s: no model: name one in the request or in the model reference", m.provider)
	}
	for i, msg := range req.Messages {
		switch msg.Role {
		case llm.RoleSystem:
			p.Messages = append(p.Messages, sdk.SystemMessage(msg.Content))
		case llm.RoleUser:
			p.Messages = append(p.Messages, sdk.UserMessage(msg.Content))
		case llm.RoleAssistant:
			a, err := assistantMessage(msg)
			if err != nil {
				return p, fmt.Errorf("%s: message %d: %w", m.provider, i, err)
			}
			p.Messages = append(p.Messages, a)
		case llm.RoleTool:
			// Chat Completions has no flag for a failed tool: IsError is
			// carried by the content alone.
			p.Messages = append(p.Messages, sdk.ToolMessage(msg.Content, msg.ToolCallID))
		default:
			return p, fmt.Errorf("%s: message %d: unknown role %q: want system, user, assistant or tool", m.provider, i, msg.Role)
		}
	}
	for _, t := range req.Tools {
		params, err := functionParameters(t.Parameters)
		if err != nil {
			return p, fmt.Errorf("%s: tool %q: parameters: %w", m.provider, t.Name, err)
		}
		fn := shared.FunctionDefinitionParam{Name: t.Name, Parameters: params}
		if t.Description != "" {
			fn.Description = param.NewOpt(t.Description)
		}
		p.Tools = append(p.Tools, sdk.ChatCompletionFunctionTool(fn))
	}
	if req.Temperature != nil {
		p.Temperature = param.NewOpt(*req.Temperature)
	}
	if req.MaxTokens > 0 {
		if m.legacyMaxTokens {
			p.MaxTokens = param.NewOpt(int64(req.MaxTokens))
		} else {
			p.MaxCompletionTokens = param.NewOpt(int64(req.MaxTokens))
		}
	}
	if req.Seed != nil {
		p.Seed = param.NewOpt(*req.Seed)
	}
	if s := req.ResponseSchema; s != nil {
		if !llm.IsObject(s.Schema) {
			return p, fmt.Errorf("%s: response schema %q is not a JSON object", m.provider, s.Name)
		}
		p.ResponseFormat.OfJSONSchema = &shared.ResponseFormatJSONSchemaParam{
			JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{
				Name:   s.Name,
				Schema: s.Schema,
				Strict: param.NewOpt(s.Strict),
			},
		}
	}
	return p, nil
}

// assistantMessage maps an assistant message: its text, and its tool calls
// as function calls whose arguments are a JSON string. Arguments that are
// not a JSON object are an error: sent back as they came (a model's broken
// JSON), they made a llama.cpp server answer 500 to every later request.
func assistantMessage(msg llm.Message) (sdk.ChatCompletionMessageParamUnion, error) {
	var a sdk.ChatCompletionAssistantMessageParam
	// The API refuses an assistant message with neither content nor tool
	// calls, but takes an empty string.
	if msg.Content != "" || len(msg.ToolCalls) == 0 {
		a.Content.OfString = param.NewOpt(msg.Content)
	}
	for _, c := range msg.ToolCalls {
		args, err := wireArguments(c.Arguments)
		if err != nil {
			return sdk.ChatCompletionMessageParamUnion{}, fmt.Errorf("tool call %s (%s): %w", c.ID, c.Name, err)
		}
		a.ToolCalls = append(a.ToolCalls, sdk.ChatCompletionMessageToolCallUnionParam{
			OfFunction: &sdk.ChatCompletionMessageFunctionToolCallParam{
				ID: c.ID,
				Function: sdk.ChatCompletionMessageFunctionToolCallFunctionParam{
					Name:      c.Name,
					Arguments: args,
				},
			},
		})
	}
	return sdk.ChatCompletionMessageParamUnion{OfAssistant: &a}, nil
}

// wireArguments is the arguments string of a tool call (llm.ToolArguments).
func wireArguments(args json.RawMessage) (string, error) {
	object, err := llm.ToolArguments(args)
	return string(object), err
}

// functionParameters is a tool's parameter schema as the SDK takes it; a
// tool without parameters takes an empty object.
func functionParameters(schema json.RawMessage) (shared.FunctionParameters, error) {
	if len(schema) == 0 {
		return shared.FunctionParameters{"type": "object", "properties": map[string]any{}}, nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(schema, &fields); err != nil || fields == nil {
		return nil, fmt.Errorf("want a JSON Schema object, got %.80s", schema)
	}
	out := make(shared.FunctionParameters, len(fields))
	for k, v := range fields {
		out[k] = v // kept as raw JSON, so numbers and nesting pass untouched
	}
	return out, nil
}
