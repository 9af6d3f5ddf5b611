package eval

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gavelhq/gavel"
)

func TestParseShard(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Shard
		err  string
	}{
		{in: "1/4", want: Shard{1, 4}},
		{in: "4/4", want: Shard{4, 4}},
		{in: "1/1", want: Shard{1, 1}},
		{in: " 2 / 3 ", want: Shard{2, 3}},
		{in: "0/4", err: "K counts from 1"},
		{in: "5/4", err: "K is at most N"},
		{in: "a/b", err: "want K/N"},
		{in: "1/0", err: "N is at least 1"},
		{in: "3", err: "want K/N"},
		{in: "-1/4", err: "K counts from 1"},
	} {
		got, err := ParseShard(tc.in)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("ParseShard(%q): error %v, want one saying %q", tc.in, err, tc.err)
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("ParseShard(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

// Every selected trial is in exactly one shard, and the shards' sizes
// differ by one at most, whatever the number of shards.
func TestShardPartition(t *testing.T) {
	s := &gavel.Suite{Name: "s", Trials: 2}
	for i := range 11 {
		c := &gavel.Case{ID: fmt.Sprintf("c%02d", i)}
		if i%3 == 0 {
			c.Trials = 5
		}
		s.Cases = append(s.Cases, c)
	}
	p := planOf(s, 0, nil)
	total := 0
	for _, c := range p.Cases {
		total += c.Trials
	}
	if total != 4*5+7*2 {
		t.Fatalf("the plan has %d trials, want %d", total, 4*5+7*2)
	}
	for n := 1; n <= 7; n++ {
		owners := map[string]int{}
		sizes := make([]int, n)
		for k := 1; k <= n; k++ {
			sel := p.selects(Shard{k, n})
			for _, c := range p.Cases {
				for i := 1; i <= c.Trials; i++ {
					if sel(c.ID, i) {
						owners[fmt.Sprintf("%s#%d", c.ID, i)]++
						sizes[k-1]++
					}
				}
			}
		}
		if len(owners) != total {
			t.Errorf("%d shards: %d trials in some shard, want %d", n, len(owners), total)
		}
		for trial, o := range owners {
			if o != 1 {
				t.Errorf("%d shards: trial %s is in %d shards", n, trial, o)
			}
		}
		lo, hi := total, 0
		for _, size := range sizes {
			lo, hi = min(lo, size), max(hi, size)
		}
		if hi-lo > 1 {
			t.Errorf("%d shards: sizes %v differ by more than one", n, sizes)
		}
	}
	// --trials overrides every case's number, and the digest says so.
	if q := planOf(s, 3, nil); q.Cases[0].Trials != 3 || q.digest() == p.digest() {
		t.Errorf("--trials 3: %v, digest %s (without: %s)", q.Cases[:1], q.digest(), p.digest())
	}
}
