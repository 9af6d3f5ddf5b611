package gavel

import (
	"crypto/sha256"
	"encoding/binary"
	"math"
	"sync"

	"github.com/gavelhq/gavel/stats"
)

// A run's numbers are computed again each time something asks for them
// (the reports, the gate, the store), and a bootstrap over ten thousand
// cases takes tens of milliseconds: its intervals are remembered by what
// they are computed from, so that the same data give the same interval
// once computed, whichever run or report asks.

// bootstrap is the bootstrap of every run's intervals.
var bootstrap = stats.Bootstrap{Resamples: stats.DefaultResamples, Seed: IntervalSeed}

// memo holds the latest bootstrap intervals by a digest of their data.
var memo = struct {
	sync.Mutex
	intervals map[[sha256.Size]byte]memoized
}{intervals: map[[sha256.Size]byte]memoized{}}

// memoSize bounds memo: a run's report asks for a few intervals, many
// times.
const memoSize = 64

type memoized struct {
	interval stats.Interval
	ok       bool
}

// minBootstrapCases is the fewest cases a bootstrap interval is drawn
// from: resampling one case gives that case back every time, an interval
// of no width that says nothing of the agent.
const minBootstrapCases = 2

// bootMean is the bootstrap interval of the mean of values, one a case.
func bootMean(values []float64, level float64) (stats.Interval, bool) {
	if len(values) < minBootstrapCases {
		return stats.Interval{}, false
	}
	return remembered('m', level, [][]float64{values}, func() (stats.Interval, bool) {
		return bootstrap.Mean(values, level)
	})
}

// bootRatio is the bootstrap interval of sum(num)/sum(den), the cases'
// sums and counts drawn together.
func bootRatio(num, den []float64, level float64) (stats.Interval, bool) {
	if len(num) < minBootstrapCases {
		return stats.Interval{}, false
	}
	return remembered('r', level, [][]float64{num, den}, func() (stats.Interval, bool) {
		return bootstrap.Ratio(num, den, level)
	})
}

// remembered returns compute's interval, from memo when the same kind of
// interval of the same data was computed before.
func remembered(kind byte, level float64, data [][]float64, compute func() (stats.Interval, bool)) (stats.Interval, bool) {
	h := sha256.New()
	var buf [8]byte
	h.Write([]byte{kind})
	binary.LittleEndian.PutUint64(buf[:], math.Float64bits(level))
	h.Write(buf[:])
	for _, vs := range data {
		binary.LittleEndian.PutUint64(buf[:], uint64(len(vs)))
		h.Write(buf[:])
		for _, v := range vs {
			binary.LittleEndian.PutUint64(buf[:], math.Float64bits(v))
			h.Write(buf[:])
		}
	}
	var key [sha256.Size]byte
	h.Sum(key[:0])
	memo.Lock()
	m, ok := memo.intervals[key]
	memo.Unlock()
	if ok {
		return m.interval, m.ok
	}
	iv, ok := compute()
	memo.Lock()
	if len(memo.intervals) >= memoSize {
		clear(memo.intervals)
	}
	memo.intervals[key] = memoized{iv, ok}
	memo.Unlock()
	return iv, ok
}
