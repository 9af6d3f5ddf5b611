package main

import (
	"fmt"
	"math"
	"time"
)

// A scenario is one measurement: a generated suite of Cases run against
// the fake server.
type scenario struct {
	Name        string
	Cases       int
	Latency     time.Duration // of every answer
	Concurrency int           // gavel run --concurrency
	InFlight    int           // the fake's limit, above which it answers 429; 0: none
	Cached      bool          // two runs with the cache on, instead of one with --no-cache
	Version     bool          // not a suite: `gavel version`, started versionRuns times
	JSONL       bool          // the cases in a JSON Lines file, not inline in the suite
	Target      target
}

// callsPerCase is what every generated case costs: the agent's answer and
// the rubric judge's verdict.
const callsPerCase = 2

// versionRuns is how many times the version scenario starts gavel.
const versionRuns = 20

// retryAfter is the Retry-After of the fake's 429s.
const retryAfter = time.Second

// scenarios are the measurements of issue 5, in its order, with its
// targets.
var scenarios = []scenario{
	{Name: "zero", Cases: 1000, Concurrency: 4,
		Target: all(wallUnder(time.Second), cpuUnder(1500*time.Millisecond), rssUnder(80<<20), everyCasePassed)},
	{Name: "200ms", Cases: 200, Latency: 200 * time.Millisecond, Concurrency: 64,
		Target: all(idealTimes(1.15), everyCasePassed)},
	{Name: "50ms", Cases: 1000, Latency: 50 * time.Millisecond, Concurrency: 16,
		Target: all(idealTimes(1.10), everyCasePassed)},
	{Name: "limited", Cases: 200, Latency: 200 * time.Millisecond, Concurrency: 32, InFlight: 8,
		Target: all(everyCasePassed, idealTimes(1.25), rateLimitedAtMost(50))},
	{Name: "cache", Cases: 1000, Concurrency: 4, Cached: true,
		Target: all(secondRunCalls(0), everyCasePassed)},
	// Issue 16: a large suite read from JSON Lines, at no latency, so
	// that what gavel does before its first request and after its last
	// answer shows.
	{Name: "large", Cases: 10000, Concurrency: 4, JSONL: true,
		Target: all(firstRequestWithin(500*time.Millisecond), exitWithin(500*time.Millisecond), everyCasePassed)},
	{Name: "version", Version: true,
		Target: wallUnder(50 * time.Millisecond)},
}

// lanes is how many calls can be in flight at once: the concurrency, or
// the server's limit when it is lower.
func (s scenario) lanes() int {
	if s.InFlight > 0 && s.InFlight < s.Concurrency {
		return s.InFlight
	}
	return max(1, s.Concurrency)
}

// ideal is the ideal time: N / concurrency × 2 calls × latency,
// with the server's in-flight limit as the concurrency when it is lower.
func (s scenario) ideal() time.Duration {
	return time.Duration(float64(s.Cases) / float64(s.lanes()) * callsPerCase * float64(s.Latency))
}

// best is the shortest time the run can take when a case's two calls
// follow each other: every lane runs whole cases, so the busiest runs
// ⌈N / lanes⌉ of them. It is more than ideal when N is not a multiple of
// the lanes (200 cases on 64 lanes: 4 rounds of cases, not 3.125).
func (s scenario) best() time.Duration {
	if s.InFlight > 0 && s.InFlight < s.Concurrency {
		// Calls, not cases, queue for the server's slots.
		return time.Duration(math.Ceil(float64(s.Cases*callsPerCase)/float64(s.InFlight))) * s.Latency
	}
	return time.Duration(math.Ceil(float64(s.Cases)/float64(s.lanes()))) * callsPerCase * s.Latency
}

func (s scenario) String() string {
	if s.Version {
		return fmt.Sprintf("%s: gavel version, median of %d starts", s.Name, versionRuns)
	}
	limit := "no in-flight limit"
	if s.InFlight > 0 {
		limit = fmt.Sprintf("at most %d in flight (429, Retry-After %s)", s.InFlight, retryAfter)
	}
	cache := "--no-cache"
	if s.Cached {
		cache = "cache on, run twice"
	}
	if s.JSONL {
		cache += ", cases in JSON Lines"
	}
	return fmt.Sprintf("%s: %d cases, latency %s, concurrency %d, %s, %s", s.Name, s.Cases, s.Latency, s.Concurrency, limit, cache)
}
