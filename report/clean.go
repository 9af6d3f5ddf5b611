package report

import (
	"strings"
	"unicode/utf8"
)

// clean makes untrusted text (agent replies, tool results, judges'
// reasoning) safe to print: line breaks become "\n", and characters that
// XML 1.0 forbids or that steer a terminal are dropped: control
// characters other than tab and newline (so ANSI escape sequences lose
// their ESC and cannot colour or move anything), U+FFFE, U+FFFF, and
// bytes that are not UTF-8. Every format but JSON, which keeps the text
// exactly, passes untrusted text through clean.
func clean(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	if !needsCleaning(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i, w := 0, 0; i < len(s); i += w {
		var r rune
		r, w = utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\r':
			b.WriteByte('\n')
		case !allowed(r, w):
			// dropped
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// needsCleaning reports whether clean would change s, so that the common
// case copies nothing.
func needsCleaning(s string) bool {
	for i, w := 0, 0; i < len(s); i += w {
		var r rune
		r, w = utf8.DecodeRuneInString(s[i:])
		if r == '\r' || !allowed(r, w) {
			return true
		}
	}
	return false
}

// allowed reports whether the rune r, w bytes long in its string, may be
// printed.
func allowed(r rune, w int) bool {
	switch {
	case r == utf8.RuneError && w == 1: // not UTF-8
		return false
	case r == '\t' || r == '\n':
		return true
	case r < 0x20 || (r >= 0x7f && r <= 0x9f): // C0, DEL, C1
		return false
	case r == 0xFFFE || r == 0xFFFF:
		return false
	}
	return true
}

// oneLine cleans s and folds its whitespace, line breaks included, into
// single spaces.
func oneLine(s string) string {
	return strings.Join(strings.Fields(clean(s)), " ")
}

// shorten cuts s to at most n runes, ending it with "…" when cut. It
// leaves s alone when n <= 0.
func shorten(s string, n int) string {
	if n <= 0 || utf8.RuneCountInString(s) <= n {
		return s
	}
	runes := []rune(s)
	return string(runes[:n-1]) + "…"
}
