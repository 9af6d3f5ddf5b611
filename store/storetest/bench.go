package storetest

import (
	"context"
	"fmt"
	"testing"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/store"
)

// benchCases is the size of the benchmarks' run: a suite of a thousand
// cases, where writing or reading a case at a time shows.
const benchCases = 1000

// Benchmark times what a store does once per run or per page, on a run
// of 1,000 cases of one trial each (the fixtures' trials: four turns,
// two tool calls, a jury of three). A store's package runs it from its
// tests, as it runs Run:
//
//	func BenchmarkStore(b *testing.B) {
//		storetest.Benchmark(b, func(b *testing.B) store.Store { ... })
//	}
//
// FinishRun ends the run again and again, its trials saved, as gavel run
// ends one (the rows it writes are there after the first time, as the
// trials' saves put them there in a real run); the reads read the run
// back whole, without its transcripts, and one case of it (the middle
// one).
func Benchmark(b *testing.B, open func(b *testing.B) store.Store) {
	s := open(b)
	b.Cleanup(func() {
		if err := s.Close(); err != nil {
			b.Errorf("Close: %v", err)
		}
	})
	ctx := context.Background()
	info, run := seedBenchRun(b, s)
	middle := run.Cases[benchCases/2].ID()
	name := func(what string) string { return fmt.Sprintf("%s/cases=%d", what, benchCases) }

	b.Run(name("FinishRun"), func(b *testing.B) {
		for b.Loop() {
			if err := s.FinishRun(ctx, info.ID, store.RunEnd{Status: store.Passed, Run: run}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run(name("Run"), func(b *testing.B) {
		for b.Loop() {
			if _, err := s.Run(ctx, info.ID); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run(name("RunVerdicts"), func(b *testing.B) {
		for b.Loop() {
			if _, err := s.RunVerdicts(ctx, info.ID); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run(name("RunCase"), func(b *testing.B) {
		for b.Loop() {
			if _, err := s.RunCase(ctx, info.ID, middle); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// seedBenchRun stores a run of benchCases cases, a trial each saved as
// gavel run saves them, and returns it, not finished.
func seedBenchRun(b *testing.B, s store.Store) (store.RunInfo, *gavel.Run) {
	b.Helper()
	ctx := context.Background()
	info, err := s.CreateRun(ctx, runInfo("support-desk", base))
	if err != nil {
		b.Fatal(err)
	}
	run := &gavel.Run{Started: base}
	for i := range benchCases {
		id := fmt.Sprintf("case_%04d", i+1)
		tr := trial(id, 1, trialSpec{helpfulness: float64(1 + i%5)})
		if err := s.SaveTrial(ctx, info.ID, store.TrialRecord{Trial: tr}); err != nil {
			b.Fatal(err)
		}
		run.Cases = append(run.Cases, result(testCase(id, "question "+id), tr))
	}
	return info, run
}
