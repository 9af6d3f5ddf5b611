package llm

import (
	"context"
	"encoding/json"
	"time"
)

// A Model generates one response for a request. Providers (llm/openai,
// llm/anthropic) implement it over a vendor's API; middleware (Retry,
// Limit, Cache, Meter) wraps one Model in another.
//
// Generate returns an error when no response could be had: a network
// failure, a vendor error (an *APIError), a cancelled context. A response
// the caller does not like (malformed JSON, a refusal) is still a response.
type Model interface {
	Generate(ctx context.Context, req *Request) (*Response, error)
}

// Func adapts an ordinary function to the Model interface.
type Func func(ctx context.Context, req *Request) (*Response, error)

// Generate calls f(ctx, req).
func (f Func) Generate(ctx context.Context, req *Request) (*Response, error) { return f(ctx, req) }

// A Request is everything one call to a model needs. Models must not
// modify it: middleware hands the same request on.
type Request struct {
	// Model is the vendor's name for the model, such as "gpt-5-mini". A
	// provider built for one model fills it in when it is empty.
	Model string `json:"model,omitempty"`

	// Messages are the conversation so far, in order. System messages may
	// appear anywhere; providers whose API takes one system prompt join
	// them.
	Messages []Message `json:"messages"`

	// Tools the model may call.
	Tools []Tool `json:"tools,omitempty"`

	// Temperature, when set, is the sampling temperature.
	Temperature *float64 `json:"temperature,omitempty"`
	// MaxTokens bounds the response's length; 0 leaves it to the provider.
	MaxTokens int `json:"max_tokens,omitempty"`
	// Seed, when set, asks for reproducible sampling where the vendor
	// supports it.
	Seed *int64 `json:"seed,omitempty"`

	// ResponseSchema, when set, asks for a JSON response that validates
	// against it (structured output), where the vendor supports it.
	ResponseSchema *Schema `json:"response_schema,omitempty"`

	// Trial is not sent to the model. It tells repeated samples of the
	// same request apart (an LLM judge asking k times), so that a cache
	// keeps them independent. The trial a call belongs to travels in the
	// context instead (WithTrial), for every caller alike.
	Trial int `json:"trial,omitempty"`
}

// Role says who wrote a message.
type Role string

// The roles of a message.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	// RoleTool carries the result of a tool call, named by ToolCallID.
	RoleTool Role = "tool"
)

// A Message is one message of a conversation.
type Message struct {
	Role    Role   `json:"role"`
	Content string `json:"content,omitempty"`
	// ToolCalls are the calls an assistant message makes.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// ToolCallID names the call a tool message answers.
	ToolCallID string `json:"tool_call_id,omitempty"`
	// IsError marks a tool message whose tool failed.
	IsError bool `json:"is_error,omitempty"`
}

// A ToolCall is a model's request to call a tool.
type ToolCall struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Arguments is a JSON object.
	Arguments json.RawMessage `json:"arguments"`
}

// A Tool is a function the model may call.
type Tool struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// Parameters is the JSON Schema of the arguments: an object schema.
	Parameters json.RawMessage `json:"parameters"`
}

// A Schema names a JSON Schema for structured output.
type Schema struct {
	// Name identifies the schema to the vendor ("verdict").
	Name string `json:"name"`
	// Schema is the JSON Schema the response must validate against.
	Schema json.RawMessage `json:"schema"`
	// Strict asks the vendor to enforce the schema exactly, where it can
	// (OpenAI's strict mode, which requires every property to be required
	// and additionalProperties false).
	Strict bool `json:"strict,omitempty"`
}

// A Response is a model's answer.
type Response struct {
	// Text is the response's text, the text blocks joined.
	Text string `json:"text,omitempty"`
	// ToolCalls are the calls the model asks for.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// FinishReason says why the model stopped.
	FinishReason FinishReason `json:"finish_reason,omitempty"`
	Usage        Usage        `json:"usage"`
	// Model is the model that answered, as the vendor names it.
	Model string `json:"model,omitempty"`
	// RequestID is the vendor's id of the request, for its support.
	RequestID string `json:"request_id,omitempty"`
	// ID is the vendor's id of the response (OpenAI's chatcmpl-…, a
	// llama.cpp server's too, Anthropic's msg_…): gen_ai.response.id.
	ID string `json:"id,omitempty"`
	// Latency is how long the call took.
	Latency time.Duration `json:"latency_ns,omitempty"`
	// Cached is true when the response came from a cache, not the model:
	// its Usage then counts one call and one cache hit, and no tokens.
	Cached bool `json:"cached,omitempty"`
	// Local is true when the model runs on the user's own machine (an
	// Ollama server, a script): its calls cost nothing, whatever its name.
	// Models opened through Local set it.
	Local bool `json:"local,omitempty"`
}

// FinishReason says why a model stopped generating.
type FinishReason string

// The reasons a model stops.
const (
	FinishStop      FinishReason = "stop"       // a natural end
	FinishLength    FinishReason = "length"     // MaxTokens reached
	FinishToolCalls FinishReason = "tool_calls" // it wants tools called
	FinishFiltered  FinishReason = "filtered"   // the vendor's content filter or a refusal
)

// Usage counts the tokens of a call and what they cost.
type Usage struct {
	InputTokens  int64 `json:"input_tokens,omitempty"`
	OutputTokens int64 `json:"output_tokens,omitempty"`
	// CachedTokens is how many of InputTokens were read from the vendor's
	// prompt cache (they are billed at a lower price).
	CachedTokens int64 `json:"cached_tokens,omitempty"`
	// CostUSD is filled in by Meter from a price table.
	CostUSD float64 `json:"cost_usd,omitempty"`
	// Calls is how many model calls the usage counts: set to 1 by a Meter
	// or a Cache on each response, summed by Add. Zero when nothing in
	// the chain counted calls.
	Calls int64 `json:"calls,omitempty"`
	// CacheHits is how many of Calls a Cache answered, not the model:
	// they cost no tokens and no money, so their tokens and cost are zero.
	CacheHits int64 `json:"cache_hits,omitempty"`
	// Unpriced is true when some of the tokens were spent on a model
	// without a price: CostUSD then counts only the priced ones, a lower
	// bound of the true cost.
	Unpriced bool `json:"unpriced,omitempty"`
	// Unreported is true when some of what was spent was never reported,
	// as judge.Usage has it (the two convert into each other); the
	// providers report what they spend, 0 included, and leave it false.
	Unreported bool `json:"unreported,omitempty"`
}

// Add returns the sum of u and v. The sum is unpriced when either is,
// and unreported when either is. A count too large for an int64
// saturates at math.MaxInt64 ("at least that many"), never wraps around
// to a negative one.
func (u Usage) Add(v Usage) Usage {
	return Usage{
		InputTokens:  addCount(u.InputTokens, v.InputTokens),
		OutputTokens: addCount(u.OutputTokens, v.OutputTokens),
		CachedTokens: addCount(u.CachedTokens, v.CachedTokens),
		CostUSD:      u.CostUSD + v.CostUSD,
		Calls:        addCount(u.Calls, v.Calls),
		CacheHits:    addCount(u.CacheHits, v.CacheHits),
		Unpriced:     u.Unpriced || v.Unpriced,
		Unreported:   u.Unreported || v.Unreported,
	}
}
