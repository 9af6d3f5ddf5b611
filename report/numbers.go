package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
)

// percent formats a share of 0..1 as "27.8%", or "80%" when the tenth is 0.
func percent(share float64) string {
	s := strconv.FormatFloat(share*100, 'f', 1, 64)
	return strings.TrimSuffix(s, ".0") + "%"
}

// passRate formats a run's pass rate (gavel.Stats.PassRate): "80%", or
// "unknown" when nothing was judged, never 0%.
func passRate(r *float64) string {
	if r == nil {
		return "unknown"
	}
	return percent(*r)
}

// notJudged is what reports say in place of a pass rate when no trial
// of the run was judged.
const notJudged = "no trial was judged"

// usd formats dollars as "$0.0123".
func usd(v float64) string {
	return fmt.Sprintf("$%.4f", v)
}

// cost formats what u cost: "$0.0123". A cost that includes a model
// without a price, or spending nobody reported, is unknown, never a
// plain amount: "$0.0123 + unpriced" (the priced part, a lower bound),
// "$0.0123 + unreported", or "unpriced", "unreported" when nothing of it
// is known.
func cost(u judge.Usage) string {
	var unknown []string
	if u.Unpriced {
		unknown = append(unknown, "unpriced")
	}
	if u.Unreported {
		unknown = append(unknown, "unreported")
	}
	switch {
	case len(unknown) == 0:
		return usd(u.CostUSD)
	case u.CostUSD == 0:
		return strings.Join(unknown, " + ")
	}
	return usd(u.CostUSD) + " + " + strings.Join(unknown, " + ")
}

// tokens formats the tokens u counts (input and output): "1,234". Usage
// nobody reported is unknown, never 0: "1,234 + unreported" (what was
// reported, a lower bound), or "unreported" when nothing was.
func tokens(u judge.Usage) string {
	switch {
	case !u.Unreported:
		return count(u.Tokens())
	case u.Tokens() == 0:
		return "unreported"
	}
	return count(u.Tokens()) + " + unreported"
}

// count formats an integer with thousands separators: "12,345". A sum of
// counts saturates at math.MaxInt64 (judge.Usage.Add), so that one is "at
// least" so many.
func count(n int64) string {
	s := strconv.FormatInt(n, 10)
	sign := ""
	switch {
	case n < 0:
		sign, s = "-", s[1:]
	case n == math.MaxInt64:
		sign = "at least "
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return sign + s
}

// costAndTokens formats usage as "$0.0123 / 4,500 tokens".
func costAndTokens(u judge.Usage) string {
	return cost(u) + " / " + tokens(u) + " tokens"
}

// calls formats how many model calls usage counts and how many of them
// Gavel's cache answered: "12 calls", "12 calls, 4 answered from the
// cache", "3 calls, all answered from the cache"; "" when no call was
// counted (a run stored before calls were, an agent that reports its own
// usage).
func calls(u judge.Usage) string {
	if u.Calls <= 0 {
		return ""
	}
	s := count(u.Calls) + " calls"
	if u.Calls == 1 {
		s = "1 call"
	}
	switch {
	case u.CacheHits <= 0:
		return s
	case u.CacheHits >= u.Calls && u.Calls == 1:
		return s + ", answered from the cache"
	case u.CacheHits >= u.Calls:
		return s + ", all answered from the cache"
	}
	return s + ", " + count(u.CacheHits) + " answered from the cache"
}

// callsCell formats the calls of a usage table's row: "12", "12 (4 from
// the cache)"; "-" when no call was counted.
func callsCell(u judge.Usage) string {
	if u.Calls <= 0 {
		return "-"
	}
	if u.CacheHits > 0 {
		return count(u.Calls) + " (" + count(u.CacheHits) + " from the cache)"
	}
	return count(u.Calls)
}

// fromCache says how much of a turn Gavel's cache answered: "answered
// from the cache" when it answered every model call the turn made, "2 of
// 3 model calls answered from the cache" when it answered some, "" when
// none (or no call was counted).
func fromCache(u judge.Usage) string {
	switch {
	case u.CacheHits <= 0 || u.Calls <= 0:
		return ""
	case u.CacheHits >= u.Calls:
		return "answered from the cache"
	}
	return fmt.Sprintf("%s of %s model calls answered from the cache", count(u.CacheHits), count(u.Calls))
}

// seconds formats d in seconds with at most 3 decimals, trailing zeros
// dropped: "1.2", "0.035", "42".
func seconds(d time.Duration) string {
	s := strconv.FormatFloat(d.Seconds(), 'f', 3, 64)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// elapsed formats d for people, to the millisecond: "42.5s", "1m3.2s".
func elapsed(d time.Duration) string {
	return d.Round(time.Millisecond).String()
}

// score formats a normalised score as "0.67".
func score(v float64) string {
	return strconv.FormatFloat(v, 'f', 2, 64)
}

// Percent, Cost, Count, Score and Elapsed write numbers as every report
// does, for other views of runs (the web app) to write them alike.
var (
	// OneLine writes untrusted text (a case id, a reason) on one line,
	// its control characters made harmless, as every report does.
	OneLine = oneLine
	Percent = percent // a share of 0..1: "27.8%", "80%"
	// PassRate writes a run's pass rate (gavel.Stats.PassRate): "80%",
	// or "unknown" when nothing was judged.
	PassRate = passRate
	Cost     = cost    // what a usage cost: "$0.0123", "$0.0123 + unpriced", "unpriced", "unreported"
	Tokens   = tokens  // the tokens a usage counts: "1,234", "1,234 + unreported", "unreported"
	Count    = count   // with thousands separators: "12,345"
	Score    = score   // a normalised score: "0.67"
	Elapsed  = elapsed // to the millisecond: "42.5s"

	// Calls writes how many model calls a usage counts and how many the
	// cache answered: "12 calls, 4 answered from the cache"; "" when no
	// call was counted. CallsCell writes the same in a table's cell:
	// "12 (4 from the cache)", "-".
	Calls     = calls
	CallsCell = callsCell

	// PassRateChange and CostChange write how a comparison's pass rate
	// and cost moved, the runs separated by arrow: "80% -> 66.7% (-13.3
	// points)", "$0.0424 -> $0.0530 (+$0.0106)" ("… (change unknown)" when
	// a model without a price took part).
	PassRateChange = passRateChange
	CostChange     = costChange
	// UnpricedNote says which models of a run have no price, so that the
	// costs that include them are lower bounds, and how to give their
	// prices; "" when every cost is known.
	UnpricedNote = unpricedNote
	// UnreportedNote says that some of a run's spending was never
	// reported, so that the totals that include it are lower bounds; ""
	// when everything was.
	UnreportedNote = unreportedNote
	// Incomplete says why a run is incomplete, and that it does not pass,
	// on one line; "" for a complete run.
	Incomplete = incomplete
	// Unjudged says that a complete run in which nothing was judged does
	// not pass, on one line; "" for any other run.
	Unjudged = unjudged
	// IntervalWords writes an interval: "95% interval 62.3–98.4%"; ""
	// for none.
	IntervalWords = intervalWords
	// GateNote says, for a run whose sample did not decide its gate
	// (INCONCLUSIVE), why, what would decide it, and what the verdict
	// does; "" for any other.
	GateNote = gateNote
	// ComparisonVerdict is a comparison's verdict: its test's, and the
	// critical cases that failed in the head.
	ComparisonVerdict = comparisonVerdict
	// ComparisonTest says how a comparison was tested, a line each: the
	// pass rate's test, then each criterion's that found a change.
	ComparisonTest = func(t gavel.Significance) []string { return append(testLines(t), criterionTestLines(t)...) }
	// QuarantinedCases says, of each quarantined case of a run, why it was
	// left out of the gate, a line each.
	QuarantinedCases = quarantinedCases
	// CorrectedLine says the pass rate corrected for the judge's errors,
	// on one line; "" when people's labels do not tell them.
	CorrectedLine = correctedLine
	// TrialsCell writes how many of a case's judged trials passed, as
	// the table of cases shows it: "2/3", "not judged".
	TrialsCell = func(cr *gavel.CaseResult) string { return trialsCell(factsOf(cr)) }
	// PassHatK writes pass^k for k from 2 up: "k=2 44.4%, k=3 33.3%", or
	// "" when no case ran more than one trial.
	PassHatK = passHatK
)
