package gavel

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gavelhq/gavel/judge"
)

// A judgment's scale is the categories a person may put it in. A label
// outside it (maybe, win or 7 on a pass/fail verdict, 7 of 1..5) can
// never agree with the judge: counted, it would only add a category to
// the agreement table and change the kappa. So every way a label comes
// in (the web app's form and API, gavel labels import) refuses it with
// CheckLabel.

// LabelCategories are the categories a person may put judgment j in:
// pass and fail, then those of the score JudgedCategory reads (the one of
// ScoredJudgment): a categorical score's names, or the whole numbers of a
// numerical score's scale when it has 3 to 11 (1..5, 1..10: not a 0..1
// aggregate's, whose rounding says nothing). A boolean score adds none:
// its true and false are pass and fail.
func LabelCategories(j judge.Judgment) []string {
	out := []string{CategoryPass, CategoryFail}
	scored, ok := ScoredJudgment(j)
	if !ok {
		return out
	}
	switch sc := scored.Score; sc.Kind {
	case judge.Categorical:
		for _, l := range sc.Labels {
			out = append(out, NormalCategory(l.Name))
		}
	case judge.Numerical:
		if sc.Min == math.Trunc(sc.Min) && sc.Max == math.Trunc(sc.Max) && sc.Max-sc.Min >= 2 && sc.Max-sc.Min <= 10 {
			for v := sc.Min; v <= sc.Max; v++ {
				out = append(out, strconv.FormatFloat(v, 'f', -1, 64))
			}
		}
	}
	return slices.Compact(out)
}

// A LabelRefusal is why a label cannot be given (see CheckLabel), in
// words for the person who gave it: a store's error wraps it, so that an
// app can tell a person's mistake from its own.
type LabelRefusal struct{ reason string }

func (r *LabelRefusal) Error() string { return r.reason }

// CheckLabel says why a person's category cannot label the judgment at
// path in verdict v (see JudgmentAt), as a *LabelRefusal, or nil when it
// can: the verdict must have that judgment, and the category must be one
// of its LabelCategories. An empty category (a label that says the
// judgment was correct or wrong) fits every judgment.
func CheckLabel(v judge.Judgment, path, category string) error {
	j, ok := JudgmentAt(v, path)
	if !ok {
		return &LabelRefusal{fmt.Sprintf("the verdict has no judgment %q: a judgment's path is its names from the verdict down, joined by / (this verdict's: %s)",
			path, judgmentPaths(v))}
	}
	if category == "" {
		return nil
	}
	allowed := LabelCategories(j)
	if !slices.Contains(allowed, NormalCategory(category)) {
		of := "the verdict"
		if path != "" {
			of = fmt.Sprintf("judgment %q", path)
		}
		return &LabelRefusal{fmt.Sprintf("%q is not a category of %s: %s (or say the judgment was correct or wrong)", category, of, orList(allowed))}
	}
	return nil
}

// judgmentPaths lists the paths of a verdict's judgments, quoted, for a
// message: the first 12.
func judgmentPaths(v judge.Judgment) string {
	paths := []string{`"" (the verdict)`}
	var walk func(j judge.Judgment, path string)
	walk = func(j judge.Judgment, path string) {
		for _, p := range j.Parts {
			if p.Name == "" { // it adds nothing to its parts' paths
				walk(judge.Judgment{Name: j.Name, Parts: p.Parts}, path)
				continue
			}
			sub := JudgmentPath(path, j.Name, p.Name)
			paths = append(paths, strconv.Quote(sub))
			walk(p, sub)
		}
	}
	walk(v, "")
	if len(paths) > 12 {
		paths = append(paths[:12], fmt.Sprintf("and %d more", len(paths)-12))
	}
	return strings.Join(paths, ", ")
}

// orList writes "a, b or c".
func orList(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}
