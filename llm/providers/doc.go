// Package providers lists the model providers Gavel links in, so that the
// gavel command and Go programs that run suites (package gaveltest) open
// the same model references:
//
//	model, err := providers.Registry().Open("openai:gpt-5-mini", os.Getenv)
//
// Registry maps each provider of a model reference to its opener:
//
//	openai     OpenAI, or any OpenAI-compatible server (llm/openai)
//	ollama     a local Ollama server (llm/openai)
//	anthropic  Anthropic (llm/anthropic)
//	script     a scripted model in a YAML file, for offline runs (llm/llmtest)
//
// Namespace names the model a reference opens, server included, for the
// keys of an llm.Cache, so that models never share answers. Wrap wraps a
// model as both programs do: a meter, a cache keyed by that name, retries.
//
// The ollama and script models run on the user's own machine: they are
// opened with llm.Local, so a meter counts their tokens at no cost, and
// IsLocal names them (a cost budget needs no price for them).
//
// Package llm knows no provider, and stays free of the vendors' SDKs; a
// program that wants fewer providers, or one of its own, builds its own
// llm.Registry, or adds to the one Registry returns.
package providers
