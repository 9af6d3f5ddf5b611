package gavel

import (
	"errors"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/jury"
	"github.com/gavelhq/gavel/stats"
)

// Agreement between two raters (a judge and a person, or two people)
// is measured over categories: each item gets one category from each,
// and Cohen's kappa is computed from the k×k table of what they said,
// whatever k is (2 for pass/fail, 3 for A/B/tie, 5 for a 1..5 scale).

// A Pair is what two raters said of one item: the first's category and
// the second's.
type Pair struct {
	First, Second string
	// Item names the item, when several pairs rated it (the judge against
	// each of several people): intervals resample items, each bringing
	// all its pairs. "" makes the pair an item of its own.
	Item string
}

// An Agreement is how far two raters agree on the items both rated.
type Agreement struct {
	// Categories are every category either rater used, sorted (numbers
	// in numeric order, then names in alphabetical order).
	Categories []string
	// Table counts the items by what the raters said: Table[i][j] is how
	// many items the first rater put in Categories[i] and the second in
	// Categories[j]. The diagonal is where they agree.
	Table [][]int
	// Items is how many items both rated; Agreed, on how many they gave
	// the same category; Observed is Agreed / Items (0 without items).
	Items, Agreed int
	Observed      float64
	// Chance is the agreement chance would give: the sum over categories
	// of the product of the raters' rates of using it.
	Chance float64
	// Kappa is Cohen's kappa, (Observed - Chance) / (1 - Chance), from -1
	// to 1: the agreement beyond chance. It is nil without items, or when
	// chance explains everything (both raters used one category only).
	Kappa *float64
	// KappaInterval is kappa's bootstrap interval over the items (see
	// AgreementBootstrap), at AgreementLevel; nil without kappa, or when
	// kappa is undefined on some resample (a resample of one category:
	// too few items of the rarer ones to tell).
	KappaInterval *stats.Interval
	// NoKappaInterval says why there is no KappaInterval beside a Kappa
	// (see Coefficient.NoInterval); "" when there is one, or no kappa.
	NoKappaInterval string
	// Ordinal is true when the categories are numbers (a 1..5 rubric, a
	// 1..10 criterion): a scale whose near misses are nearly agreement.
	Ordinal bool
	// Weighted are the weighted kappas of an ordinal scale of three
	// categories or more, linear then quadratic, with their intervals:
	// a disagreement counts as far as (or as the square of how far) the
	// two numbers are apart. nil on other scales (with two categories,
	// every weighting gives Kappa).
	Weighted []Coefficient
	// BaseRates are how often each rater used each category, in the
	// order of Categories (see BaseRate): what kappa depends on as much
	// as on the agreement.
	BaseRates []BaseRate
}

// A Coefficient is one measure of agreement: its value and interval, or
// why it has none.
type Coefficient struct {
	// Kind names it: "linear" or "quadratic" (a weighted kappa);
	// "nominal", "ordinal" or "interval" (Krippendorff's alpha's metric).
	Kind string
	// Value is nil when the data cannot give one; Absent then says why.
	Value  *float64
	Absent string
	// Interval is Value's bootstrap interval at AgreementLevel (see
	// AgreementBootstrap); nil when there is no Value, and, NoInterval
	// then saying why, with fewer than MinIntervalItems items (a
	// bootstrap of a handful of items is a handful of values, too narrow
	// to mean anything) or when Value is undefined on some resample.
	Interval   *stats.Interval
	NoInterval string
}

// MinIntervalItems is how many items (or pairable units) an agreement
// interval needs: the percentile bootstrap is not to be trusted on fewer
// than about 20.
const MinIntervalItems = 20

// The reasons an agreement statistic has no interval.
const (
	noIntervalFew       = "fewer than 20 items, too few for an interval"
	noIntervalResamples = "it is undefined on some resamples: too few items of the rarer categories"
)

// agreementInterval is the bootstrap interval of a statistic of n items
// by boot, or why there is none.
func agreementInterval(n int, boot func() (stats.Interval, bool)) (*stats.Interval, string) {
	if n < MinIntervalItems {
		return nil, noIntervalFew
	}
	iv, ok := boot()
	if !ok {
		return nil, noIntervalResamples
	}
	return &iv, ""
}

// A BaseRate is how often two raters used a category, and how far they
// agree on it.
type BaseRate struct {
	Category string
	// First and Second are the shares of the items each rater put in the
	// category; Both, the share of all their ratings ((row + column) / 2n).
	First, Second, Both float64
	// Specific is the agreement specific to the category: of the times
	// either rater used it, the share the other did too, 2·agreed / (row +
	// column). With a category at a high base rate, the rare one's
	// specific agreement says what kappa cannot.
	Specific float64
}

// How agreement intervals are computed: the percentile bootstrap over the
// items rated (the units of Krippendorff's alpha), at level 0.95, with
// 2000 resamples drawn from a fixed seed, so the same labels print the
// same intervals every time.
var AgreementBootstrap = stats.Bootstrap{Seed: 1}

// AgreementLevel is the confidence level of agreement intervals.
const AgreementLevel = 0.95

// The kappa paradox: with one category far more common than the others
// (most verdicts pass), chance alone agrees on most items, so raters who
// agree on nearly all of them still get a low kappa. Kappa is then
// misleading, and Agreement.Paradox says so, when a category is at least
// SkewedBaseRate of both raters' ratings, they agree on at least
// HighAgreement of the items, and kappa is below LowKappa.
const (
	SkewedBaseRate = 0.8
	HighAgreement  = 0.8
	LowKappa       = 0.6
)

// Paradox returns the category whose base rate makes kappa misleading
// (see SkewedBaseRate), and true, when kappa is low for a skewed base
// rate despite high agreement; false otherwise.
func (a Agreement) Paradox() (BaseRate, bool) {
	if a.Kappa == nil || a.Observed < HighAgreement || *a.Kappa >= LowKappa {
		return BaseRate{}, false
	}
	for _, r := range a.BaseRates {
		if r.Both >= SkewedBaseRate {
			return r, true
		}
	}
	return BaseRate{}, false
}

// Agree measures the agreement of two raters from what they said of
// each item.
func Agree(pairs []Pair) Agreement {
	a := Agreement{Items: len(pairs)}
	seen := map[string]bool{}
	for _, p := range pairs {
		seen[p.First], seen[p.Second] = true, true
	}
	for c := range seen {
		a.Categories = append(a.Categories, c)
	}
	sortCategories(a.Categories)
	index := make(map[string]int, len(a.Categories))
	for i, c := range a.Categories {
		index[c] = i
	}
	a.Table = make([][]int, len(a.Categories))
	for i := range a.Table {
		a.Table[i] = make([]int, len(a.Categories))
	}
	for _, p := range pairs {
		a.Table[index[p.First]][index[p.Second]]++
		if p.First == p.Second {
			a.Agreed++
		}
	}
	if a.Items == 0 {
		return a
	}
	n := float64(a.Items)
	a.Observed = float64(a.Agreed) / n
	for i := range a.Categories {
		var row, col int
		for j := range a.Categories {
			row += a.Table[i][j]
			col += a.Table[j][i]
		}
		a.Chance += float64(row) / n * float64(col) / n
	}
	if a.Chance < 1-1e-12 {
		k := (a.Observed - a.Chance) / (1 - a.Chance)
		a.Kappa = &k
	}
	for i, c := range a.Categories {
		var row, col int
		for j := range a.Categories {
			row += a.Table[i][j]
			col += a.Table[j][i]
		}
		a.BaseRates = append(a.BaseRates, BaseRate{Category: c, First: float64(row) / n, Second: float64(col) / n,
			Both: float64(row+col) / (2 * n), Specific: 2 * float64(a.Table[i][i]) / float64(row+col)})
	}
	var items [][]stats.Rating
	itemOf := map[string]int{}
	for _, p := range pairs {
		r := stats.Rating{First: index[p.First], Second: index[p.Second]}
		if i, ok := itemOf[p.Item]; ok && p.Item != "" {
			items[i] = append(items[i], r)
			continue
		}
		itemOf[p.Item] = len(items)
		items = append(items, []stats.Rating{r})
	}
	positions := make([]float64, len(a.Categories))
	a.Ordinal = len(a.Categories) > 0
	for i, c := range a.Categories {
		v, err := strconv.ParseFloat(c, 64)
		positions[i] = v
		a.Ordinal = a.Ordinal && err == nil
	}
	if a.Kappa != nil {
		a.KappaInterval, a.NoKappaInterval = agreementInterval(len(items), func() (stats.Interval, bool) {
			return AgreementBootstrap.Kappa(items, positions, stats.Unweighted, AgreementLevel)
		})
	}
	if a.Ordinal && len(a.Categories) >= 3 {
		for _, w := range []stats.Weights{stats.Linear, stats.Quadratic} {
			c := Coefficient{Kind: w.String()}
			if v, err := stats.Kappa(a.Table, positions, w); err != nil {
				c.Absent = reason(err)
			} else {
				c.Value = &v
				c.Interval, c.NoInterval = agreementInterval(len(items), func() (stats.Interval, bool) {
					return AgreementBootstrap.Kappa(items, positions, w, AgreementLevel)
				})
			}
			a.Weighted = append(a.Weighted, c)
		}
	}
	return a
}

// reason is why an agreement statistic has no value, in words: the
// reason of stats' error.
func reason(err error) string {
	switch {
	case errors.Is(err, stats.ErrOneCategory):
		return stats.ErrOneCategory.Error()
	case errors.Is(err, stats.ErrNoPairs):
		return stats.ErrNoPairs.Error()
	}
	return err.Error()
}

// sortCategories sorts numbers first, in numeric order, then the rest
// alphabetically.
func sortCategories(cs []string) {
	sort.Slice(cs, func(i, j int) bool {
		a, aerr := strconv.ParseFloat(cs[i], 64)
		b, berr := strconv.ParseFloat(cs[j], 64)
		switch {
		case aerr == nil && berr == nil:
			return a < b
		case aerr == nil:
			return true
		case berr == nil:
			return false
		}
		return cs[i] < cs[j]
	})
}

// The categories of a verdict's scale.
const (
	CategoryPass = "pass"
	CategoryFail = "fail"
)

// NormalCategory is how a category is compared: trimmed; pass, fail and
// tie (any case) in lower case; a number as Go writes it ("4.0" is "4").
// Other names keep their case: "A" and "a" may be different categories
// of a scale.
func NormalCategory(c string) string {
	c = strings.TrimSpace(c)
	switch l := strings.ToLower(c); l {
	case CategoryPass, CategoryFail, "tie":
		return l
	}
	if f, err := strconv.ParseFloat(c, 64); err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return c
}

// JudgedCategory is the category a judgment gives, on the scale of a
// person's category: for "pass" or "fail", the judgment's status; else
// its score's: a categorical score's label ("win", "tie", "A"), a
// numerical score's value as a whole number ("4" of 1..5), a boolean's
// "true" or "false". It is "" when the judgment gives none (it abstained
// or errored, or has no score of that kind).
func JudgedCategory(j judge.Judgment, person string) string {
	if p := NormalCategory(person); p == CategoryPass || p == CategoryFail || person == "" {
		switch j.Status {
		case judge.StatusPass:
			return CategoryPass
		case judge.StatusFail:
			return CategoryFail
		}
		return ""
	}
	if j.Status != judge.StatusPass && j.Status != judge.StatusFail {
		return ""
	}
	if j, ok := ScoredJudgment(j); ok {
		return scoreCategory(j)
	}
	return ""
}

// scoreCategory is the category of a judgment's own score.
func scoreCategory(j judge.Judgment) string {
	switch j.Score.Kind {
	case judge.Categorical:
		return NormalCategory(j.Score.Label)
	case judge.Numerical:
		return strconv.FormatFloat(math.Round(j.Score.Value), 'f', -1, 64)
	case judge.Boolean:
		return strconv.FormatBool(j.Score.Bool)
	}
	return ""
}

// ScoredJudgment is the judgment whose score a person's score is measured
// against: j itself when it is one judge's (it has no parts, or it is a
// jury, whose strategy made its score); for a composite (a tiered
// verdict, all, any), the one judgment in it that a model made, since the
// composite's score is a mean over its parts, rules included, which no
// judge gave; false when there is none, or several (which one the person
// scored is not known).
func ScoredJudgment(j judge.Judgment) (judge.Judgment, bool) {
	if len(j.Parts) == 0 || isJury(j) {
		return j, true
	}
	// A model made the judgments whose usage is their own, not their
	// parts' (a composite's usage is the sum of its parts').
	spent := ModelJudged
	var made []judge.Judgment
	var walk func(j judge.Judgment)
	walk = func(j judge.Judgment) {
		if spent(j) && (isJury(j) || !slices.ContainsFunc(j.Parts, spent)) { // a jury is one judge
			made = append(made, j)
			return
		}
		for _, p := range j.Parts {
			walk(p)
		}
	}
	walk(j)
	if len(made) != 1 {
		return judge.Judgment{}, false
	}
	return made[0], true
}

// ModelJudged reports whether a model took part in judgment j: a model
// was called for it (Usage.Calls), or it spent tokens (a judgment
// recorded before calls were counted). An answer from Gavel's cache is a
// call (Usage.CacheHits among Calls) that spends no tokens: the model's
// judgment, replayed. Rules call no model.
func ModelJudged(j judge.Judgment) bool {
	return j.Usage.Calls > 0 || j.Usage.InputTokens > 0 || j.Usage.OutputTokens > 0
}

// isJury reports whether j is a jury's judgment: decided by one of the
// jury's strategies (a tiered verdict is decided by a tier).
func isJury(j judge.Judgment) bool {
	return jury.Strategy(j.DecidedBy).Known()
}

// JudgmentAt returns the judgment at path in a verdict's tree: path is
// the names from the verdict down, joined by "/" ("tiered/jury/tone"; a
// verdict without a name is left out: "jury/tone"), and "" is the
// verdict itself. Where siblings share a name the first is taken.
func JudgmentAt(v judge.Judgment, path string) (judge.Judgment, bool) {
	if path == "" {
		return v, true
	}
	return judgmentAt(v, path)
}

// below returns what is left of path below j: "" and true when path
// names j itself; false when path does not go through j. A judgment
// without a name adds nothing to its parts' paths.
func below(j judge.Judgment, path string) (rest string, here, ok bool) {
	switch {
	case j.Name == "":
		return path, false, true
	case path == j.Name:
		return "", true, true
	}
	rest, ok = strings.CutPrefix(path, j.Name+"/")
	return rest, false, ok
}

func judgmentAt(j judge.Judgment, path string) (judge.Judgment, bool) {
	rest, here, ok := below(j, path)
	if here {
		return j, true
	}
	if !ok {
		return judge.Judgment{}, false
	}
	for _, p := range j.Parts {
		if found, ok := judgmentAt(p, rest); ok {
			return found, true
		}
	}
	return judge.Judgment{}, false
}

// JudgmentPath is the path of a part named name of the judgment at
// parent (see JudgmentAt), whose own name is parentName.
func JudgmentPath(parent, parentName, name string) string {
	switch {
	case parent == "" && parentName == "":
		return name
	case parent == "":
		return parentName + "/" + name
	}
	return parent + "/" + name
}

// PromptOf reports whether the judgment at path in a verdict's tree was
// judged with a prompt whose version (judge.Judgment.Prompt) starts with
// version: its own, one of its parts' (a jury of model judges), or one of
// the judgments above it (an axis of a criteria judge). Every judgment
// matches an empty version.
func PromptOf(v judge.Judgment, path, version string) bool {
	if version == "" {
		return true
	}
	j := v
	for {
		if j.Prompt != "" && strings.HasPrefix(j.Prompt, version) {
			return true
		}
		rest, here, ok := below(j, path)
		if path == "" || here {
			return promptBelow(j, version)
		}
		if !ok {
			return false
		}
		next := false
		for _, p := range j.Parts {
			if _, found := judgmentAt(p, rest); found {
				j, path, next = p, rest, true
				break
			}
		}
		if !next {
			return false
		}
	}
}

func promptBelow(j judge.Judgment, version string) bool {
	if j.Prompt != "" && strings.HasPrefix(j.Prompt, version) {
		return true
	}
	for _, p := range j.Parts {
		if promptBelow(p, version) {
			return true
		}
	}
	return false
}
