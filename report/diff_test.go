package report

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDiff(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b string
		want []Edit
	}{
		{"same", "It ships today.", "It ships today.", []Edit{{Keep, "It ships today."}}},
		{"a word changed", "It arrives on 2026-03-15.", "It arrives on Monday.",
			[]Edit{{Keep, "It arrives on "}, {Delete, "2026-03-15."}, {Insert, "Monday."}}},
		{"words added", "Cancelled.", "Order 12345 is cancelled.",
			[]Edit{{Delete, "Cancelled."}, {Insert, "Order 12345 is cancelled."}}},
		{"a word removed in the middle", "I can cancel it now for you", "I can cancel it for you",
			[]Edit{{Keep, "I can cancel it "}, {Delete, "now "}, {Keep, "for you"}}},
		{"from nothing", "", "Hello there", []Edit{{Insert, "Hello there"}}},
		{"to nothing", "Hello", "", []Edit{{Delete, "Hello"}}},
		{"line breaks are spaces", "one\ntwo", "one\nthree", []Edit{{Keep, "one\n"}, {Delete, "two"}, {Insert, "three"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := WordDiff(tc.a, tc.b)
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("WordDiff(%q, %q) (-want +got):\n%s", tc.a, tc.b, d)
			}
			var a, b strings.Builder
			for _, e := range got {
				if e.Op != Insert {
					a.WriteString(e.Text)
				}
				if e.Op != Delete {
					b.WriteString(e.Text)
				}
			}
			if a.String() != tc.a || b.String() != tc.b {
				t.Errorf("the edits give back %q and %q, want %q and %q", a.String(), b.String(), tc.a, tc.b)
			}
		})
	}
}

func TestDiffLines(t *testing.T) {
	got := DiffLines([]string{"get_order_status({})", "cancel_order({})"}, []string{"get_order_status({})", "refund({})"})
	want := []Edit{{Keep, "get_order_status({})"}, {Delete, "cancel_order({})"}, {Insert, "refund({})"}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}
