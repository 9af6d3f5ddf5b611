package main

import (
	"fmt"
	"time"
)

// A target is one of the goals: it returns what r misses of it,
// nothing when r meets it.
type target func(r result) []string

func all(ts ...target) target {
	return func(r result) []string {
		var missed []string
		for _, t := range ts {
			missed = append(missed, t(r)...)
		}
		return missed
	}
}

func check(ok bool, format string, args ...any) []string {
	if ok {
		return nil
	}
	return []string{fmt.Sprintf(format, args...)}
}

func wallUnder(d time.Duration) target {
	return func(r result) []string { return check(r.Proc.Wall < d, "wall ≥ %s", d) }
}

func cpuUnder(d time.Duration) target {
	return func(r result) []string { return check(r.Proc.CPU < d, "CPU ≥ %s", d) }
}

func rssUnder(bytes int64) target {
	return func(r result) []string {
		return check(r.Proc.PeakRSS < bytes, "peak RSS ≥ %d MB", bytes>>20)
	}
}

func idealTimes(x float64) target {
	return func(r result) []string {
		return check(r.timesIdeal() <= x, "more than %.2f× ideal", x)
	}
}

func rateLimitedAtMost(n int) target {
	return func(r result) []string { return check(r.RateLimited <= n, "more than %d 429s", n) }
}

// everyCasePassed wants every case to pass: no failure, no error.
func everyCasePassed(r result) []string {
	if r.Scenario.Version {
		return nil
	}
	return check(r.Outcomes["PASS"] == r.Scenario.Cases && r.Proc.Exit == 0,
		"not every case passed (%s, exit %d)", r.outcomeText(), r.Proc.Exit)
}

// secondRunCalls wants the second of two cached runs to make n calls.
func secondRunCalls(n int) target {
	return func(r result) []string {
		if r.Run != 2 {
			return nil
		}
		return check(r.Calls == n, "the second run made %d calls", r.Calls)
	}
}

// firstRequestWithin wants gavel's first request to reach the fake
// within d of gavel's start.
func firstRequestWithin(d time.Duration) target {
	return func(r result) []string {
		return check(r.Calls > 0 && r.ToFirst < d, "first request ≥ %s after start", d)
	}
}

// exitWithin wants gavel to exit within d of the fake's last answer.
func exitWithin(d time.Duration) target {
	return func(r result) []string {
		return check(r.Calls > 0 && r.AfterLast < d, "exit ≥ %s after the last answer", d)
	}
}
