package web

import (
	"maps"
	"net/url"
	"strings"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/store"
)

// A run records its model references as the suite gave them after
// expanding ${VARIABLES}: "openai:gpt-5-mini", or a model behind a base
// URL, "openai:qwen2.5-7b@http://127.0.0.1:8000/v1". Keys never go in a
// reference (they come from OPENAI_API_KEY and the like, which nothing
// stores), but a base URL may carry a password or a token in its user
// info or query. The app never sends those to a browser: every model
// reference it shows or returns has been through redactModel.

// redactModel returns a model reference fit to show: the URL after its
// "@", if any, loses its user info, query and fragment.
func redactModel(ref string) string {
	name, rawURL, ok := strings.Cut(ref, "@")
	if !ok || !strings.Contains(rawURL, "://") {
		return ref
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return name + "@(address hidden)"
	}
	if u.User == nil && u.RawQuery == "" && u.Fragment == "" && !u.ForceQuery {
		return ref
	}
	u.User, u.RawQuery, u.Fragment, u.ForceQuery = nil, "", "", false
	return name + "@" + u.String()
}

// redactModels returns a copy of models by role with every reference
// redacted.
func redactModels(models map[string]string) map[string]string {
	if models == nil {
		return nil
	}
	out := make(map[string]string, len(models))
	for role, ref := range models {
		out[role] = redactModel(ref)
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
		name := redactModel(ref)
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
