// Package suggest finds the name a user probably meant, for "did you
// mean" hints in error messages.
package suggest

import (
	"strings"
	"unicode/utf8"
)

// Closest returns the name nearest to got by edit distance, ignoring case
// and surrounding space, and whether it is near enough to suggest: at most
// two edits, or a third of the name's length for longer names.
func Closest(got string, names []string) (string, bool) {
	got = strings.ToLower(strings.TrimSpace(got))
	best, bestDist := "", -1
	for _, n := range names {
		if d := EditDistance(got, n); bestDist < 0 || d < bestDist {
			best, bestDist = n, d
		}
	}
	return best, bestDist >= 0 && bestDist <= max(2, utf8.RuneCountInString(best)/3)
}

// EditDistance returns the Levenshtein distance between a and b, in runes.
func EditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
