package spec

import (
	"errors"
	"strings"

	"github.com/gavelhq/gavel/llmjudge"
)

// A namedModel is a model reference and where the suite names it.
type namedModel struct {
	ref string
	at  Problem // File and Line
}

// hierarchyWarnings warns, at the first place each is named, of the judge
// models that are the agent's model or of its family
// (llmjudge.CheckHierarchy). Scripted models, which play a part rather
// than grade, are never compared; nor is anything when the agent's model
// is not known.
func hierarchyWarnings(judges []namedModel, agentRef string) Problems {
	if agentRef == "" || strings.HasPrefix(agentRef, "script:") {
		return nil
	}
	var out Problems
	seen := map[string]bool{}
	for _, j := range judges {
		if seen[j.ref] || strings.HasPrefix(j.ref, "script:") {
			continue
		}
		seen[j.ref] = true
		var w *llmjudge.HierarchyWarning
		if errors.As(llmjudge.CheckHierarchy(j.ref, agentRef), &w) {
			p := j.at
			p.Message = "warning: " + w.Error() + " (or set allow_same_family_judge: true)"
			out = append(out, p)
		}
	}
	return out
}
