// Package gateway speaks the model vendors' wire formats in front of an
// llm.Model: OpenAI's Chat Completions (POST /v1/chat/completions) and
// Anthropic's Messages (POST /v1/messages), streamed or not. A program
// written against either API, in any language or framework, is pointed at
// a Server (OPENAI_BASE_URL=http://127.0.0.1:8790/v1) and talks to the
// model Gavel chooses: a vendor's, behind Gavel's meter, cache, retries
// and limits, or a scripted one, offline.
//
// The codecs are exported for the fake vendor servers of package
// llmtest, which check requests as the real APIs do: DecodeChat and
// DecodeMessages turn a request's body into an llm.Request, or into the
// 400 the real API answers, in its words; ChatCompletion, StreamChat,
// Message and StreamMessage encode an llm.Response as the vendor's
// answer; ModelError,
// WriteOpenAIError and WriteAnthropicError answer a failure in the
// vendor's error shape.
//
// Gavel serves a suite's agent.model_endpoint with a Server (package
// spec): an http or exec agent's own model calls are then counted,
// priced, traced, cached and given faults as the builtin agent's are.
package gateway
