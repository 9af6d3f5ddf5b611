package web

import (
	"fmt"
	"testing"
)

// versionDiff marks the changed lines and folds the unchanged lines far
// from any change.
func TestVersionDiff(t *testing.T) {
	for _, tc := range []struct {
		name, prev, cur string
		want            []diffLine
		removed, added  int
	}{
		{"a line changed", "a\nb\nc\n", "a\nB\nc\n", []diffLine{{"=", "a", 0}, {"-", "b", 0}, {"+", "B", 0}, {"=", "c", 0}}, 1, 1},
		{"a line added at the end", "a\n", "a\nb\n", []diffLine{{"=", "a", 0}, {"+", "b", 0}}, 0, 1},
		{"the same", "a\nb\n", "a\nb\n", []diffLine{{"=", "", 2}}, 0, 0},
		{"far lines folded", "1\n2\n3\n4\n5\n6\n", "1\n2\n3\n4\n5\nsix\n",
			[]diffLine{{"=", "", 2}, {"=", "3", 0}, {"=", "4", 0}, {"=", "5", 0}, {"-", "6", 0}, {"+", "six", 0}}, 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, removed, added := versionDiff(tc.prev, tc.cur)
			if fmt.Sprint(got) != fmt.Sprint(tc.want) || removed != tc.removed || added != tc.added {
				t.Errorf("versionDiff: %v, -%d +%d; want %v, -%d +%d", got, removed, added, tc.want, tc.removed, tc.added)
			}
		})
	}
}
