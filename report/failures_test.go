package report

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel/judge"
)

func TestFailures(t *testing.T) {
	pass := judge.Judgment{Name: "p", Status: judge.StatusPass}
	fail := func(name string, parts ...judge.Judgment) judge.Judgment {
		return judge.Judgment{Name: name, Status: judge.StatusFail, Reasoning: name + " failed", Parts: parts}
	}
	errored := judge.Judgment{Name: "e", Status: judge.StatusError, Reasoning: "provider down"}
	tests := []struct {
		name string
		in   judge.Judgment
		// want lists depth, name and leafness: "0 tiered", "1 rule leaf".
		want []string
		// first is firstReason's answer.
		first string
	}{
		{name: "pass", in: pass},
		{name: "abstain", in: judge.Abstained("nothing to say")},
		{name: "a failed leaf", in: fail("rule"), want: []string{"0 rule leaf"}, first: "rule: rule failed"},
		{name: "composite with failed and errored parts",
			in:    fail("all", pass, fail("a"), errored),
			want:  []string{"0 all", "1 a leaf", "1 e leaf"},
			first: "a: a failed"},
		{name: "nested",
			in:    fail("tiered", fail("round 1: rules", fail("x"), pass)),
			want:  []string{"0 tiered", "1 round 1: rules", "2 x leaf"},
			first: "x: x failed"},
		{name: "unnamed composites are passed through",
			in:    judge.Judgment{Status: judge.StatusFail, Parts: []judge.Judgment{fail("x")}},
			want:  []string{"0 x leaf"},
			first: "x: x failed"},
		{name: "a composite that failed with every part passing is the reason",
			in:    judge.Judgment{Name: "weighted", Status: judge.StatusFail, Reasoning: "0.4 < 0.7", Parts: []judge.Judgment{pass, pass}},
			want:  []string{"0 weighted leaf"},
			first: "weighted: 0.4 < 0.7"},
		{name: "multi-line reasoning gives its first line",
			in:    judge.Judgment{Name: "panicky", Status: judge.StatusError, Reasoning: "judge panicked: boom\ngoroutine 1"},
			want:  []string{"0 panicky leaf"},
			first: "panicky: judge panicked: boom"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, f := range failures(tc.in) {
				s := fmt.Sprintf("%d %s", f.Depth, f.Judgment.Name)
				if f.Leaf {
					s += " leaf"
				}
				got = append(got, s)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("failures (-want +got):\n%s", diff)
			}
			if got := firstReason(tc.in); got != tc.first {
				t.Errorf("firstReason = %q, want %q", got, tc.first)
			}
		})
	}
}
