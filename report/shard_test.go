package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gavelhq/gavel"
)

// A shard's text and Markdown reports give no verdict of their own: its
// pass rate is a part's, and the gate is the whole run's.
func TestShardReportsGiveNoVerdict(t *testing.T) {
	run := &gavel.Run{Suite: &gavel.Suite{Name: "s", Threshold: 0.8}, Cases: []gavel.CaseResult{{Case: &gavel.Case{ID: "c1"}, Outcome: gavel.Skipped}}}
	for _, tc := range []struct {
		shard *Shard
		want  string
	}{
		{&Shard{Index: 2, Count: 4}, "this is shard 2/4: gavel merge decides"},
		{&Shard{Index: 2, Count: 4, Label: "ci-7"}, `this is shard 2/4 of run "ci-7": the last shard to end decides`},
	} {
		for _, f := range []Format{Text, Markdown} {
			var b bytes.Buffer
			if err := Write(&b, f, run, Options{Shard: tc.shard}); err != nil {
				t.Fatal(err)
			}
			if out := b.String(); !strings.Contains(out, tc.want) || strings.Contains(out, "FAIL") {
				t.Errorf("%s report of %s: want %q and no FAIL\n%s", f, tc.shard, tc.want, out)
			}
		}
	}
}
