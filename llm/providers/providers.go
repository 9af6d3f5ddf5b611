package providers

import (
	"fmt"

	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/anthropic"
	"github.com/gavelhq/gavel/llm/llmtest"
	"github.com/gavelhq/gavel/llm/openai"
)

// Registry returns every provider Gavel links in, by the name model
// references give it ("openai:gpt-5-mini"). The map is new on each call, so
// a program may add providers to it.
func Registry() llm.Registry {
	r := llm.Registry{
		"openai":    openai.Open,
		"ollama":    openai.OpenOllama,
		"anthropic": anthropic.Open,
		"script":    llmtest.OpenScript,
	}
	for provider := range local {
		r[provider] = llm.Local(r[provider])
	}
	return r
}

// local names the providers whose models run on the user's own machine.
var local = map[string]bool{"ollama": true, "script": true}

// IsLocal reports whether the models of provider run on the user's own
// machine (ollama, script): they cost nothing, and need no price. Registry
// opens them with llm.Local.
func IsLocal(provider string) bool { return local[provider] }

// Probe opens ref as Registry's opener would, and lets the model go: it
// says what opening the model would refuse (a missing API key, an unknown
// provider) without calling it. gavel validate probes the models a run
// would open.
func Probe(ref llm.Ref, getenv func(string) string) error {
	open, ok := Registry()[ref.Provider]
	if !ok {
		return fmt.Errorf("unknown model provider %q", ref.Provider)
	}
	_, err := open(ref, getenv)
	return err
}
