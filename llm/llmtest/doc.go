// Package llmtest holds stand-ins for model vendors, so that Gavel's tests
// and its offline demo run without a network or a key: Scripted, a model
// that answers from rules, and local HTTP servers that speak the vendors'
// exact wire formats, with settable latency and faults.
//
// A Script is a Scripted model written as a YAML file, opened with the
// "script" provider (OpenScript): "script:models/agent.yaml". The offline
// examples play their agent, judge and simulated user that way.
//
// TestProvider is the conformance suite every provider runs against its
// vendor's fake server (retries, rate limits, malformed bodies, hangs,
// replies cut off by the token limit, numeric content, negative usage,
// usage no call can spend, oversized bodies), so a new provider is held
// to the same contract as the others.
package llmtest
