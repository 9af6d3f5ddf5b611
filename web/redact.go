package web

import (
	"maps"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/secret"
	"github.com/gavelhq/gavel/store"
)

// A run records its model references as the suite shows them: package
// spec writes them without the parts of their URLs that may hold a
// password or a token, and without what the suite read from the
// environment that is secret (package secret). Keys never go in a
// reference (they come from OPENAI_API_KEY and the like, which nothing
// stores). Runs recorded before spec did so hold the references as
// resolved, whose base URL may carry a password or a token in its user
// info or query: the app never sends those to a browser, as every model
// reference it shows or returns goes through secret.Address.

// redactModels returns a copy of models by role with every reference
// redacted.
func redactModels(models map[string]string) map[string]string {
	if models == nil {
		return nil
	}
	out := make(map[string]string, len(models))
	for role, ref := range models {
		out[role] = secret.Address(ref)
	}
	return out
}

// redactUsage returns a copy of usage by model with every model's
// reference redacted.
func redactUsage(usage map[string]judge.Usage) map[string]judge.Usage {
	if usage == nil {
		return nil
	}
	out := make(map[string]judge.Usage, len(usage))
	for ref, u := range usage {
		name := secret.Address(ref)
		out[name] = out[name].Add(u)
	}
	return out
}

// redactInfo returns a run's info with its model references redacted.
func redactInfo(info store.RunInfo) store.RunInfo {
	info.Models = redactModels(info.Models)
	info.Stats.Models = redactUsage(info.Stats.Models)
	info.Filters = append([]string(nil), info.Filters...)
	info.Settings = maps.Clone(info.Settings)
	return info
}

// redactRun redacts the model references of a run read from the store,
// in place: the store gave the caller its own copy.
func redactRun(sr *store.StoredRun) {
	sr.Info = redactInfo(sr.Info)
	if r := sr.Run; r != nil {
		r.Models = redactUsage(r.Models)
		if r.Suite != nil {
			suite := *r.Suite
			suite.Models = redactModels(suite.Models)
			r.Suite = &suite
		}
	}
}
