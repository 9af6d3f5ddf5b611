// Package llm is Gavel's one small interface to language models: a Model
// generates one Response for one Request. The agent under test, the LLM
// judges and the simulated users all speak through it.
//
// It uses the standard library only. Vendors live in their own packages
// (llm/openai, llm/anthropic), each on the vendor's official SDK, and a
// Registry maps the provider of a model reference ("openai:gpt-5-mini") to
// the package that opens it. Package llm/llmtest has a scripted model and
// fake vendor servers, so everything runs offline.
//
// # Errors
//
// A vendor's error answer is an *APIError with its status, message, body
// excerpt, request id and Retry-After. Retryable tells a rate limit or a
// server error (worth retrying) from a bad request or a bad key (not).
// A provider that needs a key reports it missing with a *MissingKeyError,
// naming the variable, when it is opened: before anything runs.
//
// Providers read what a vendor sends with suspicion. LimitBody caps a
// response's body (DefaultMaxResponseBytes, 32 MiB, or MaxResponseEnv):
// past it, a *TooLargeError, and nothing more is read. CheckText and
// CheckCounts find what a vendor's SDK would have taken too kindly: a
// number or an object where text belongs, a negative token count or one
// above MaxTokenCount, which no call spends (Usage.Add saturates instead
// of wrapping around). A Response's FinishReason says when a reply was
// cut off by the token limit (FinishLength): its tool calls are then
// incomplete, not to be run.
//
// # Middleware
//
// Middleware wraps a Model in another Model. Chain them outermost first:
//
//	model := llm.Chain(provider,
//		meter.Meter(), // counts calls, tokens and cost, cached calls free
//		cache.Middleware("openai:gpt-5-mini"), // answers repeated requests from disk
//		llm.Retry(llm.RetryConfig{}), // backoff with jitter, honours Retry-After
//		limiter.Limit(), // in-flight and per-minute caps, adaptive on 429
//	)
//
// In this order a cache hit skips the limiter and the retries, and every
// retry waits for its own slot, so a 429 teaches the limiter.
//
// The Meter prices each call from a price table (Prices; DefaultPrices
// holds the vendors' list prices, which users add to and override). A
// model the table does not know is unpriced, not free: its responses'
// Usage.Unpriced is set, and every sum that includes them is a lower bound
// of the true cost. A model opened through Local (Ollama, a script) runs
// on the user's own machine and costs nothing.
//
// # Cache
//
// A Cache answers a call from disk when the same model was asked the same
// thing in the same trial before. Its key holds everything that makes an
// answer: the model's whole reference as resolved, given to Middleware
// (provider, model, server: "openai:gpt-5-mini OPENAI_BASE_URL=…",
// "openai:qwen@http://127.0.0.1:8000/v1", a script's absolute path and
// the SHA-256 of its content; providers.Namespace writes it), the whole Request (messages, tools,
// parameters, response schema, and Request.Trial, an LLM judge's sample
// number), and the trial number the context carries (WithTrial; the runner
// sets it for a trial's conversation and its judging). So a run repeated
// with the same trials makes no call at all, trial 2 never gets trial 1's
// answer, and a model never gets another's.
//
// A cache hit costs nothing this run: its Usage counts one call
// (Usage.Calls) and one cache hit (Usage.CacheHits), and no tokens and no
// cost, so what a trial sums, a Meter counts and a budget spends agree.
// A Meter or a Cache counts each fresh call as one call.
//
// # Limits
//
// Vendors count requests per account, so the models of one server should
// share a Limiter. Limiters hands out one per server, and its Registry
// method wraps a Registry's openers so that every model opened comes
// behind its server's Limiter, innermost, whatever a program wraps around
// it:
//
//	var limits llm.Limiters
//	reg := limits.Registry(llm.Registry{"openai": openai.Open})
//
// A Limiter's in-flight limit adapts to 429s (additive increase,
// multiplicative decrease) and remembers the highest limit that worked,
// so against a vendor that takes 8 requests at once it settles at 8 and
// probes 9 ever more rarely, instead of halving to 4 at every probe. The
// bench/ harness measures it: 200 cases at concurrency 32 against a fake
// that takes 8 at once finish in 1.01–1.05× the ideal time after 30–40 429s.
//
// What the stack adds to a call, against an in-process model that answers
// at once (BenchmarkMiddleware, 2-core go-svc machine, Go 1.26, while
// other builds ran; the target is under 50 µs):
//
//	meter+retry+limit        ~0.2–0.3 µs, 1 alloc over the bare call
//	full stack, cache miss   7–8 µs (one append to the cache's log)
//	full stack, cache hit    6–7 µs (one read and a JSON decode)
//
// A first design stored one file per entry; a miss then cost 0.3–1.4 ms in
// create and rename calls, which is why the cache appends to a log.
package llm
