package web

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gavelhq/gavel/report"
)

// Numbers and text are formatted in Go, so that templates only place
// strings, as the reports do (see report/numbers.go).

// The numbers are written as the reports write them.
var (
	percent  = report.Percent
	tokens   = report.Tokens
	passRate = report.PassRate
	cost     = report.Cost
	count    = report.Count
	score    = report.Score
	elapsed  = report.Elapsed
)

// stamp formats a time for a page, in UTC to the second; "" for the zero
// time.
func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02 15:04:05 UTC")
}

// machineTime formats a time for a <time datetime> attribute or the API.
func machineTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

// thresholdOf returns the pass rate a run had to reach: the one it
// recorded, or 1 when it recorded none, as reports read it.
func thresholdOf(t float64) float64 {
	if t == 0 {
		return 1
	}
	return t
}

// clean makes untrusted text (replies, tool results, names, reasoning)
// fit to place in a page: line breaks become "\n", and control
// characters other than tab and newline, and bytes that are not UTF-8,
// are dropped, as the reports drop them (report/clean.go). Escaping is
// html/template's job; clean only keeps an agent from smuggling in
// characters that render as nothing or steer a terminal when copied.
func clean(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\r':
			return '\n'
		case r == '\t' || r == '\n':
			return r
		case r < 0x20 || (r >= 0x7f && r <= 0x9f), r == 0xFFFE, r == 0xFFFF:
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, ""))
}

// oneLine cleans s and folds its whitespace, line breaks included, into
// single spaces.
func oneLine(s string) string {
	return strings.Join(strings.Fields(clean(s)), " ")
}

// shorten cuts s to at most n runes, ending it with "…" when cut.
func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// statusClass maps a run's status, a case's outcome or a judgment's
// status to its CSS class.
func statusClass(status string) string {
	switch status {
	case "PASS", "passed":
		return "pass"
	case "FAIL", "failed":
		return "fail"
	case "ERROR", "errored":
		return "error"
	case "FLAKY":
		return "flaky"
	case "INCONCLUSIVE":
		return "inconclusive"
	case "SKIPPED", "ABSTAIN", "incomplete", "abandoned":
		return "skipped"
	case "running":
		return "running"
	}
	return "unknown"
}
