// Package openai is Gavel's provider for OpenAI's Chat Completions API,
// on OpenAI's official Go SDK. It also reaches Ollama and any other
// OpenAI-compatible server (vLLM, LM Studio, a gateway).
//
// Programs register its openers under the providers they offer:
//
//	reg := llm.Registry{"openai": openai.Open, "ollama": openai.OpenOllama}
//	model, err := reg.Open("openai:gpt-5-mini", os.Getenv)
//
// # Configuration
//
// Open reads OPENAI_API_KEY and OPENAI_BASE_URL; a model reference's base
// URL ("openai:qwen2.5-7b@http://127.0.0.1:8000/v1") wins over the
// variable. The key is required for OpenAI's own API, and reported missing
// (a *llm.MissingKeyError) when the model is opened; another server may do
// without. OpenOllama reads OLLAMA_HOST as Ollama does (default
// 127.0.0.1:11434) and needs no key. Both read GAVEL_MAX_RESPONSE_MB, the
// cap on a response's body in MiB (default 32, llm.DefaultMaxResponseBytes).
// New takes a Config instead of the environment.
//
// # Mapping
//
// System, user, assistant and tool messages map one to one; tool calls
// are function calls whose arguments travel as a JSON string, and a tool
// result names its call with tool_call_id. Chat Completions has no flag for
// a failed tool, so a tool message's IsError is not sent. A ResponseSchema
// is sent as response_format {type: json_schema, json_schema: {name,
// schema, strict}}. MaxTokens is max_completion_tokens (max_tokens for
// Ollama, which reads only that).
//
// Invalid JSON arguments from a model are kept as a JSON string, so a
// ToolCall's Arguments is always valid JSON. Sent back, arguments must be a
// JSON object: anything else is an error and the request is not sent (a
// llama.cpp server given a model's broken JSON back answered 500 to every
// later request). A refusal is FinishFiltered, with the refusal as the
// text; finish_reason length is FinishLength.
//
// # Errors and retries
//
// An error answer is an *llm.APIError with the status, OpenAI's message, a
// body excerpt, the x-request-id and the Retry-After. The SDK's own retries
// are off: wrap the model in llm.Retry, whose policy is the same for every
// vendor. A 200 whose body is not a chat completion is an error quoting the
// body, and so is one whose text is not a string (a number, an object:
// the SDK would take them as text) or whose token counts are negative or
// more than a call can spend (llm.MaxTokenCount). A body larger than the
// cap is an *llm.TooLargeError, read no further.
//
// # Connections
//
// Models given no Config.HTTPClient share one client whose transport keeps
// up to 256 idle connections per server (http.DefaultClient keeps 2), so
// the concurrent calls of a run reuse connections instead of opening new
// ones after every wave of answers.
//
// # Tests
//
// The tests run offline against llmtest.OpenAIServer, a fake that checks
// requests as the real API does. TestLive is a smoke test against the real
// API: it runs when OPENAI_API_KEY is set (with $GAVEL_OPENAI_TEST_MODEL,
// by default gpt-4.1-mini) and skips otherwise, even when
// GAVEL_REQUIRE_INTEGRATION=1, since CI has no vendor keys.
package openai
