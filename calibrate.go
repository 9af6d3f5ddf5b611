package gavel

import (
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/stats"
)

// Calibration: before a team trusts an LLM judge, people label some of
// its verdicts, or of the judgments of one judge of a jury or tier: a
// category of the judgment's scale (pass or fail; win, tie or loss; 4
// of 1..5), or, as labels first were, the judgment was correct or
// wrong, with perhaps their own score. The judge's agreement with them
// is measured over the real categories (Cohen's kappa of the k×k table),
// and so is the agreement of every two people who labelled the same
// judgments. A judge that agrees on at least CalibratedAgreement of at
// least CalibrationLabels labels is calibrated; below that, its verdicts
// are a guess to be read, not a gate to trust.

// The bar a judge must clear to be called calibrated: agreement with
// people on at least 85% of at least 50 labelled verdicts.
const (
	CalibrationLabels   = 50
	CalibratedAgreement = 0.85
)

// A LabelCheck is a person's label on a trial's verdict, beside that
// verdict: one data point of a calibration.
type LabelCheck struct {
	RunID, CaseID string
	Trial         int
	// Judgment is the labelled judgment's path in the verdict's tree
	// ("tiered/jury/helpfulness"), "" for the verdict itself. Checks of
	// outside judgments (no run) name their item in CaseID.
	Judgment string
	// JudgeCategory is the category the judge gave, on the person's
	// scale (see JudgedCategory); "" reads the Status as pass or fail.
	JudgeCategory string
	// HumanCategory is the category the person gave; "" when they only
	// said the judgment was correct or wrong (see Human).
	HumanCategory string
	// Status and Score are the judgment's: its status, and the normalised
	// score (0..1) of the judge that scored it (ScoredJudgment: for a
	// composite verdict, the one model judge in it, never the mean over
	// its parts), when there is one.
	Status judge.Status
	Score  *float64
	// ModelJudged is true when a model took part in the verdict (see
	// ModelJudged: answered from Gavel's cache or not): a verdict of
	// deterministic rules alone, such as a forbidden tool call, needs no
	// calibration.
	ModelJudged bool
	// OffScale is true when HumanCategory is not on the judgment's scale
	// (see CheckLabel): a label stored before such labels were refused.
	// It can never agree, so it counts nowhere.
	OffScale bool
	// Correct is the person's word: the verdict was correct (true) or
	// wrong. HumanScore is their own score, 0..1, when they gave one.
	Correct    bool
	HumanScore *float64
	Author     string
	Comment    string
	Created    time.Time
}

// Counts reports whether the check counts in the agreement: only pass
// and fail verdicts a model took part in do, labelled on their scale.
// One that abstained or errored passed no judgment a person could agree
// with, and rules alone are not what a calibration measures.
func (c LabelCheck) Counts() bool {
	return c.ModelJudged && c.Judged() != "" && !c.OffScale
}

// Judged is the judge's category: JudgeCategory, or the status as pass
// or fail; "" when it gave none (it abstained or errored).
func (c LabelCheck) Judged() string {
	if c.JudgeCategory != "" {
		return NormalCategory(c.JudgeCategory)
	}
	switch c.Status {
	case judge.StatusPass:
		return CategoryPass
	case judge.StatusFail:
		return CategoryFail
	}
	return ""
}

// Human is the person's category: HumanCategory when they gave one;
// else the judge's when they said it was correct, and when they said it
// was wrong, the other one of pass and fail. A "wrong" on any other
// scale (a 3 of 1..5, a tie) says which category it is not, not which it
// is: Human is then "", and the label counts in the agreement but not in
// the kappa.
func (c LabelCheck) Human() string {
	if c.HumanCategory != "" {
		return NormalCategory(c.HumanCategory)
	}
	judged := c.Judged()
	switch {
	case c.Correct:
		return judged
	case judged == CategoryPass:
		return CategoryFail
	case judged == CategoryFail:
		return CategoryPass
	}
	return ""
}

// Agrees reports whether the person agrees with the judge: the same
// category, or, without one, the judgment was correct.
func (c LabelCheck) Agrees() bool {
	if c.HumanCategory != "" {
		return c.Human() == c.Judged()
	}
	return c.Correct
}

// JudgedBy is c beside the judgment at c.Judgment of verdict v instead of
// the one it was given on: the judge's side (Status, Score, ModelJudged,
// JudgeCategory, OffScale) read from v, the person's kept. It is how a
// store reads a label beside its stored verdict, and how a label is
// checked against a verdict given again (CompareExamples). It returns
// false when v has no such judgment.
func JudgedBy(c LabelCheck, v judge.Judgment) (LabelCheck, bool) {
	j, ok := JudgmentAt(v, c.Judgment)
	if !ok {
		return c, false
	}
	c.Status, c.ModelJudged = j.Status, ModelJudged(j)
	// A label off the judgment's scale was recorded before such labels
	// were refused: it counts nowhere.
	c.OffScale = CheckLabel(v, c.Judgment, c.HumanCategory) != nil
	c.Score = nil
	if scored, ok := ScoredJudgment(j); ok { // the judge's own score, not a composite's mean
		if s, ok := scored.Normalized(); ok {
			c.Score = &s
		}
	}
	c.JudgeCategory = JudgedCategory(j, c.HumanCategory)
	return c, true
}

// item names what a check labels: its run, case, trial and judgment.
func (c LabelCheck) item() [4]string {
	return [4]string{c.RunID, c.CaseID, strconv.Itoa(c.Trial), c.Judgment}
}

// A Calibration measures how far a judge's verdicts agree with people's
// labels (see Calibrate).
type Calibration struct {
	// Labels is every label given; Counted, those the agreement is
	// measured on: on pass or fail verdicts a model took part in (see
	// LabelCheck.Counts).
	Labels, Counted int
	// Agreed is how many of the counted labels agreed with the judge
	// (see LabelCheck.Agrees); Agreement is Agreed / Counted, nil when
	// no label counted: there is no agreement to tell, which is no 0%.
	Agreed    int
	Agreement *float64
	// Kappa is Cohen's kappa of the judge's and the people's categories
	// (Table's): the agreement beyond what chance would give, from -1 to
	// 1. It is nil when chance explains everything (judge and people gave
	// one category only, such as every case passing).
	Kappa *float64
	// Table is the judge (first) against the people (second) over the
	// counted labels whose category is known (see LabelCheck.Human).
	Table Agreement
	// Raters are the agreements of every two people who labelled the
	// same judgments (inter-annotator agreement), by their names.
	Raters []RaterAgreement
	// Alpha is Krippendorff's alpha of every rater at once, the judge and
	// each person, over the judgments two of them or more rated (a rater
	// who skipped one is missing there, not disagreeing): nominal, and on
	// an ordinal scale of three categories or more (see
	// Agreement.Ordinal) ordinal and interval too, each with its interval.
	// It is measured when there are more than two raters (two people or
	// more beside the judge); nil else, when Kappa says it all.
	Alpha []Coefficient
	// AlphaRaters is how many raters Alpha is of; AlphaUnits, how many
	// judgments at least two of them rated.
	AlphaRaters, AlphaUnits int
	// Scored is how many counted labels carry a person's score, and
	// ScoreError the mean absolute difference between it and the
	// judge's score, among those where the judge gave one; nil when
	// Scored is 0.
	Scored     int
	ScoreError *float64
	// Disagreements are the counted labels that disagreed with the
	// judge, oldest first: the cases to read.
	Disagreements []LabelCheck
}

// Calibrate measures a judge's agreement with people from their labels.
func Calibrate(checks []LabelCheck) Calibration {
	c := Calibration{Labels: len(checks), Raters: Raters(checks)}
	c.Alpha, c.AlphaRaters, c.AlphaUnits = alpha(checks)
	var pairs []Pair
	var scoreDiffs float64
	for _, ch := range checks {
		if !ch.Counts() {
			continue
		}
		c.Counted++
		if ch.Agrees() {
			c.Agreed++
		} else {
			c.Disagreements = append(c.Disagreements, ch)
		}
		if h := ch.Human(); h != "" {
			item := ch.item()
			pairs = append(pairs, Pair{First: ch.Judged(), Second: h, Item: strings.Join(item[:], "\x00")})
		}
		if ch.HumanScore != nil && ch.Score != nil {
			c.Scored++
			scoreDiffs += math.Abs(*ch.HumanScore - *ch.Score)
		}
	}
	if c.Counted == 0 {
		return c
	}
	agreement := float64(c.Agreed) / float64(c.Counted)
	c.Agreement = &agreement
	if c.Scored > 0 {
		e := scoreDiffs / float64(c.Scored)
		c.ScoreError = &e
	}
	c.Table = Agree(pairs)
	c.Kappa = c.Table.Kappa
	return c
}

// A RaterAgreement is the agreement of two people on the judgments both
// labelled.
type RaterAgreement struct {
	// First and Second are the people, in alphabetical order: Agreement's
	// first rater and second.
	First, Second string
	Agreement
}

// Raters measures the agreement of every two people over the judgments
// both labelled with a known category (see LabelCheck.Human) on the
// judgment's scale, whether a model judged them or not: a pair that
// shares none is left out. A
// person's later check of one judgment stands for their earlier ones.
func Raters(checks []LabelCheck) []RaterAgreement {
	said := map[string]map[[4]string]string{}
	for _, ch := range checks {
		h := ch.Human()
		if h == "" || ch.OffScale {
			continue
		}
		if said[ch.Author] == nil {
			said[ch.Author] = map[[4]string]string{}
		}
		said[ch.Author][ch.item()] = h
	}
	var people []string
	for p := range said {
		people = append(people, p)
	}
	sort.Strings(people)
	var out []RaterAgreement
	for i, a := range people {
		for _, b := range people[i+1:] {
			var pairs []Pair
			for item, ca := range said[a] {
				if cb, ok := said[b][item]; ok {
					pairs = append(pairs, Pair{First: ca, Second: cb})
				}
			}
			if len(pairs) > 0 {
				out = append(out, RaterAgreement{First: a, Second: b, Agreement: Agree(pairs)})
			}
		}
	}
	return out
}

// Calibrated reports whether the judge clears the bar: at least
// CalibratedAgreement over at least CalibrationLabels counted labels.
func (c Calibration) Calibrated() bool {
	return c.Counted >= CalibrationLabels && c.Agreement != nil && *c.Agreement >= CalibratedAgreement
}

// Verdict says where the judge stands, in a few words: "calibrated",
// "not calibrated" (enough labels, too little agreement), or "too few
// labels" (fewer than CalibrationLabels counted).
func (c Calibration) Verdict() string {
	switch {
	case c.Counted < CalibrationLabels:
		return "too few labels"
	case c.Calibrated():
		return "calibrated"
	}
	return "not calibrated"
}

// alpha is Krippendorff's alpha of the judge and every person (see
// Calibration.Alpha), with how many raters and pairable judgments it is
// of; nil when there are two raters or fewer.
func alpha(checks []LabelCheck) (coefficients []Coefficient, raters, units int) {
	said := map[string]map[[4]string]string{} // by rater ("" the judge), by item
	rate := func(rater string, item [4]string, category string) {
		if said[rater] == nil {
			said[rater] = map[[4]string]string{}
		}
		said[rater][item] = category
	}
	for _, ch := range checks {
		if ch.Counts() {
			rate("", ch.item(), ch.Judged())
		}
		if h := ch.Human(); h != "" && !ch.OffScale {
			rate("person "+ch.Author, ch.item(), h)
		}
	}
	return alphaOf(said)
}

// alphaOf is Krippendorff's alpha of raters (what each said, by item),
// with how many raters and pairable items it is of; nil when there are
// two raters or fewer.
func alphaOf(said map[string]map[[4]string]string) (coefficients []Coefficient, raters, units int) {
	if len(said) <= 2 {
		return nil, 0, 0
	}
	var names []string
	items := map[[4]string]bool{}
	categories := map[string]bool{}
	for name, by := range said {
		names = append(names, name)
		for item, c := range by {
			items[item], categories[c] = true, true
		}
	}
	sort.Strings(names)
	order := make([][4]string, 0, len(items))
	for item := range items {
		order = append(order, item)
	}
	slices.SortFunc(order, func(a, b [4]string) int { return slices.Compare(a[:], b[:]) })
	var cats []string
	for c := range categories {
		cats = append(cats, c)
	}
	sortCategories(cats)
	numeric := len(cats) >= 3
	rank := map[string]float64{}
	value := map[string]float64{}
	for i, c := range cats {
		rank[c] = float64(i)
		v, err := strconv.ParseFloat(c, 64)
		value[c], numeric = v, numeric && err == nil
	}
	metrics := []stats.Metric{stats.MetricNominal}
	if numeric {
		metrics = append(metrics, stats.MetricOrdinal, stats.MetricInterval)
	}
	nominal, scaled := make([][]float64, len(order)), make([][]float64, len(order))
	for u, item := range order {
		nominal[u], scaled[u] = make([]float64, len(names)), make([]float64, len(names))
		rated := 0
		for r, name := range names {
			c, ok := said[name][item]
			if !ok {
				nominal[u][r], scaled[u][r] = math.NaN(), math.NaN()
				continue
			}
			nominal[u][r], scaled[u][r] = rank[c], value[c]
			rated++
		}
		if rated >= 2 {
			units++
		}
	}
	for _, m := range metrics {
		data := scaled
		if m == stats.MetricNominal {
			data = nominal
		}
		c := Coefficient{Kind: m.String()}
		if v, err := stats.KrippendorffAlpha(data, m); err != nil {
			c.Absent = reason(err)
		} else {
			c.Value = &v
			c.Interval, c.NoInterval = agreementInterval(units, func() (stats.Interval, bool) {
				return AgreementBootstrap.KrippendorffAlpha(data, m, AgreementLevel)
			})
		}
		coefficients = append(coefficients, c)
	}
	return coefficients, len(names), units
}

// A PeopleAgreement is how far people agree with each other on the
// judgments they labelled, the judge left out: what an annotation queue
// that asks several people to label the same items measures.
type PeopleAgreement struct {
	// People is how many people labelled a judgment with a known category
	// (see LabelCheck.Human); Items, how many judgments two of them or
	// more labelled.
	People, Items int
	// Pairs are the agreements of every two people (see Raters): Cohen's
	// kappa with its interval, which says it all when two people label.
	Pairs []RaterAgreement
	// Alpha is Krippendorff's alpha of every person at once over the
	// Items (a person who skipped a judgment is missing there, not
	// disagreeing), as Calibration.Alpha is of the judge and them: with
	// three people or more; nil else.
	Alpha []Coefficient
}

// AmongPeople measures how far people agree with each other on the
// judgments labelled in checks, whatever the judge said: every two
// people's Cohen's kappa, and with three or more, Krippendorff's alpha of
// them all. A person's later check of one judgment stands for their
// earlier ones.
func AmongPeople(checks []LabelCheck) PeopleAgreement {
	said := map[string]map[[4]string]string{}
	for _, ch := range checks {
		if h := ch.Human(); h != "" && !ch.OffScale {
			if said[ch.Author] == nil {
				said[ch.Author] = map[[4]string]string{}
			}
			said[ch.Author][ch.item()] = h
		}
	}
	out := PeopleAgreement{People: len(said), Pairs: Raters(checks)}
	rated := map[[4]string]int{}
	for _, by := range said {
		for item := range by {
			rated[item]++
		}
	}
	for _, n := range rated {
		if n >= 2 {
			out.Items++
		}
	}
	out.Alpha, _, _ = alphaOf(said)
	return out
}
