// Package anthropic is Gavel's provider for Anthropic's Messages API, on
// Anthropic's official Go SDK.
//
// Programs register its opener under the provider it offers:
//
//	reg := llm.Registry{"anthropic": anthropic.Open}
//	model, err := reg.Open("anthropic:claude-opus-4-5", os.Getenv)
//
// # Configuration
//
// Open reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL; a model reference's
// base URL wins over the variable. The key is required for Anthropic's own
// API, and reported missing (a *llm.MissingKeyError) when the model is
// opened; another server, such as a gateway, may do without. New takes a
// Config instead, and the SDK reads nothing from the environment (no
// ANTHROPIC_AUTH_TOKEN, no profile). Open also reads GAVEL_MAX_RESPONSE_MB,
// the cap on a response's body in MiB (default 32,
// llm.DefaultMaxResponseBytes).
//
// # Mapping
//
// The Messages API takes one system prompt and a conversation that
// alternates between user and assistant, so:
//
//   - every system message, wherever it is, joins the top-level system
//     (separated by blank lines);
//   - an assistant's tool calls are tool_use blocks whose input is the
//     call's arguments, which must be a JSON object (anything else is an
//     error, and the request is not sent);
//   - consecutive tool messages become one user message of tool_result
//     blocks (tool_use_id, content, is_error), and a user message right
//     after them joins that message, after the results;
//   - consecutive messages of one role merge, and empty ones are left out
//     (the API refuses empty text).
//
// MaxTokens defaults to DefaultMaxTokens (4096): Anthropic requires one.
// Seed is not sent: Anthropic has none. Structured output is a forced
// tool: a tool named Schema.Name whose input_schema is Schema.Schema, with
// tool_choice {type: tool, name}; its input comes back as the response's
// Text, not as a tool call. Schema.Strict is not sent.
//
// Responses join their text blocks; tool_use blocks are ToolCalls.
// stop_reason end_turn and stop_sequence are FinishStop, max_tokens is
// FinishLength, tool_use FinishToolCalls and refusal FinishFiltered. Usage
// counts the cache in: InputTokens is input_tokens plus
// cache_read_input_tokens plus cache_creation_input_tokens, of which
// CachedTokens are the cache reads.
//
// # Errors and retries
//
// An error answer is an *llm.APIError with the status, Anthropic's
// message, a body excerpt, the request-id and the retry-after. The SDK's
// own retries are off: wrap the model in llm.Retry, whose policy is the
// same for every vendor. A 200 whose body is not a message is an error
// quoting the body, and so is one whose text is not a string (a number, an
// object: the SDK would take them as text) or whose token counts are
// negative or more than a call can spend (llm.MaxTokenCount). A body
// larger than the cap is an *llm.TooLargeError, read no further.
//
// # Tests
//
// The tests run offline against llmtest.AnthropicServer, a fake that
// checks requests as the real API does. TestLive is a smoke test against
// the real API: it runs when ANTHROPIC_API_KEY is set (with
// $GAVEL_ANTHROPIC_TEST_MODEL, by default claude-haiku-4-5) and skips
// otherwise, even when GAVEL_REQUIRE_INTEGRATION=1, since CI has no vendor
// keys.
package anthropic
