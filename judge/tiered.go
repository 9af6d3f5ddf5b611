package judge

import (
	"context"
	"fmt"
)

// Tiered runs judges in tiers, cheapest first: first, then each of later in
// order. When a tier FAILs or cannot judge (ERROR), the verdict can no
// longer be a pass, so the tiers after it are not run and spend nothing;
// DecidedBy names the tier that stopped it.
//
// The usual shape is three tiers, as the seeds describe: deterministic
// rules (some of them Soft), then LLM judges, then a jury for what is still
// in doubt:
//
//	judge.Tiered(judge.All(hardRules...), llmJudges, jury)
//
// The findings of every tier that ran (see Soft) reach the later tiers
// through their context: an LLM judge reads them with FindingsFrom.
//
// The verdict over the tiers that ran follows All's rule. A tier that
// runs out of time is an ERROR part like any other: the tiers before it
// keep their results in the verdict.
func Tiered(first Judge, later ...Judge) Judge {
	tiers := append([]Judge{first}, later...)
	return Func(func(ctx context.Context, t *Transcript) (Judgment, error) {
		var parts []Judgment
		var found []Finding
		for i, tier := range tiers {
			if err := ctx.Err(); err != nil {
				if i == 0 {
					return spent("tiered", parts), err
				}
				// The judges' time ran out (or the run was cancelled)
				// between tiers: the tiers that ran keep their results.
				out := Errored(fmt.Sprintf("tier %d did not run: %v", i+1, err))
				out.Name, out.Cause = fmt.Sprintf("tier %d", i+1), CauseOf(err)
				parts = append(parts, out)
				break
			}
			p := Run(WithFindings(ctx, found...), tier, t)
			parts = append(parts, p)
			found = append(found, p.AllFindings()...)
			if p.Status == StatusFail || p.Status == StatusError {
				break
			}
		}
		out := allOf("tiered", parts)
		if skipped := len(tiers) - len(parts); skipped > 0 {
			stopped := len(parts)
			out.DecidedBy = fmt.Sprintf("tier %d", stopped)
			out.Reasoning = fmt.Sprintf("tier %d of %d gave %s, so %d later tier(s) did not run: %s",
				stopped, len(tiers), parts[stopped-1].Status, skipped, out.Reasoning)
		}
		return out, nil
	})
}

type findingsKey struct{}

// WithFindings returns a context that carries fs after the findings ctx
// already carries.
func WithFindings(ctx context.Context, fs ...Finding) context.Context {
	if len(fs) == 0 {
		return ctx
	}
	prev := FindingsFrom(ctx)
	all := make([]Finding, 0, len(prev)+len(fs))
	all = append(append(all, prev...), fs...)
	return context.WithValue(ctx, findingsKey{}, all)
}

// FindingsFrom returns the findings ctx carries: what soft judges of
// earlier tiers noticed. Judges that weigh a transcript (an LLM judge) add
// them to what they consider.
func FindingsFrom(ctx context.Context) []Finding {
	fs, _ := ctx.Value(findingsKey{}).([]Finding)
	return fs
}

// AllFindings returns the findings of j and of all its parts, depth first.
func (j Judgment) AllFindings() []Finding {
	out := append([]Finding(nil), j.Findings...)
	for _, p := range j.Parts {
		out = append(out, p.AllFindings()...)
	}
	return out
}
