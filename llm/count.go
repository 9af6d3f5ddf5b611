package llm

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
)

// MaxTokenCount is the most tokens one count Gavel is told of may hold: a
// vendor's usage of a call, an agent's of a reply, an imported record's.
// No call spends a trillion tokens (the largest context windows hold ten
// million), nor does any reply or conversation; a count above it is a
// mistake of whoever sent it, refused with an error rather than summed.
// It is far below 2^53, so a count stays exact as a JSON number in any
// language, and far below 2^63, so millions of such counts sum without
// reaching the int64 sums saturate at.
const MaxTokenCount = 1_000_000_000_000

// MaxCostUSD is the most dollars one cost Gavel is told of may hold: no
// call, reply or record costs a billion dollars (MaxTokenCount tokens at
// the dearest list price cost less).
const MaxCostUSD = 1e9

// CountProblem says what is wrong with n as a token count, as the end of a
// sentence naming the count ("usage.prompt_tokens " + problem): "is -5,
// want a count of at least 0", or "is N, more than the … tokens a call or
// a reply can count" above MaxTokenCount. It returns "" for a count from
// 0 to MaxTokenCount. Every source of counts (providers, agents, imports)
// checks with it or ReadCount, so all refuse the same counts, in the same
// words.
func CountProblem(n int64) string {
	return is(strconv.FormatInt(n, 10), countWant(n))
}

// CostProblem is CountProblem for a cost in dollars: it must be a number
// from 0 to MaxCostUSD.
func CostProblem(usd float64) string {
	return is(strconv.FormatFloat(usd, 'g', -1, 64), costWant(usd))
}

// ReadCount reads a token count from JSON, and says what is wrong with it
// as CountProblem does, quoting the JSON: a value that is not a whole
// number is no count, and a number too large for an int64 is more than
// MaxTokenCount. A count with a problem reads as 0.
func ReadCount(raw json.RawMessage) (int64, string) {
	var n int64
	want := "want a count of at least 0"
	if err := json.Unmarshal(raw, &n); err == nil {
		want = countWant(n)
	} else if f, err := strconv.ParseFloat(string(bytes.TrimSpace(raw)), 64); err == nil && f > MaxTokenCount {
		want = tooManyTokens
	}
	if want != "" {
		return 0, is(excerpt(raw), want)
	}
	return n, ""
}

// ReadCost is ReadCount for a cost in dollars.
func ReadCost(raw json.RawMessage) (float64, string) {
	var usd float64
	want := "want an amount of at least 0"
	if err := json.Unmarshal(raw, &usd); err == nil {
		want = costWant(usd)
	}
	if want != "" {
		return 0, is(excerpt(raw), want)
	}
	return usd, ""
}

// countWant says what a count that is not a true one should be, or "".
func countWant(n int64) string {
	switch {
	case n < 0:
		return "want a count of at least 0"
	case n > MaxTokenCount:
		return tooManyTokens
	}
	return ""
}

// tooManyTokens is countWant's word on a count above MaxTokenCount.
var tooManyTokens = "more than the " + thousands(MaxTokenCount) + " tokens a call or a reply can count"

// costWant is countWant for a cost in dollars.
func costWant(usd float64) string {
	switch {
	case math.IsNaN(usd) || usd < 0:
		return "want an amount of at least 0"
	case usd > MaxCostUSD:
		return "more than the $" + thousands(MaxCostUSD) + " a call or a reply can cost"
	}
	return ""
}

// is makes a problem of a value shown as shown and what is wanted
// instead: "is -5, want …"; "" when nothing is wanted.
func is(shown, want string) string {
	if want == "" {
		return ""
	}
	return "is " + shown + ", " + want
}

// Problem says what is wrong with u as the usage of one call or reply,
// naming the first wrong field as JSON names it ("input_tokens is -5, want
// a count of at least 0"), or returns "": every count from 0 to
// MaxTokenCount, the cost from 0 to MaxCostUSD.
func (u Usage) Problem() string {
	for _, c := range []struct {
		name string
		n    int64
	}{
		{"input_tokens", u.InputTokens}, {"output_tokens", u.OutputTokens}, {"cached_tokens", u.CachedTokens},
		{"calls", u.Calls}, {"cache_hits", u.CacheHits},
	} {
		if p := CountProblem(c.n); p != "" {
			return c.name + " " + p
		}
	}
	if p := CostProblem(u.CostUSD); p != "" {
		return "cost_usd " + p
	}
	return ""
}

// addCount adds two counts, saturating at the int64 bounds: a sum too
// large for an int64 is math.MaxInt64, read "at least that many", where
// wrapping around made it negative (2^62 + 2^62 tokens summed to a total
// below any budget). judge.Usage sums with a copy of it (judge and llm
// import nothing of each other); their tests hold the two to one table.
func addCount(a, b int64) int64 {
	s := a + b
	switch {
	case a > 0 && b > 0 && s < 0:
		return math.MaxInt64
	case a < 0 && b < 0 && s >= 0:
		return math.MinInt64
	}
	return s
}

// thousands formats a whole number with thousands separators.
func thousands(f float64) string {
	s := strconv.FormatFloat(f, 'f', 0, 64)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// excerpt is raw JSON as an error quotes it: trimmed, cut at 40 bytes.
func excerpt(raw json.RawMessage) string {
	v := string(bytes.TrimSpace(raw))
	if len(v) > 40 {
		v = v[:40] + "…"
	}
	return v
}
