package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"
)

// printTable prints results as a table, a row each, with whether each
// meets its scenario's targets.
func printTable(w io.Writer, results []result) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "scenario\tcases\tlatency\tconc\tlimit\twall\tideal\t×ideal\tbest\tCPU-s\tpeak RSS\t→1st\tlast→\tcalls\t429s\toutcomes\ttarget\t")
	for _, r := range results {
		s := r.Scenario
		name := s.Name
		if r.Run > 0 {
			name = fmt.Sprintf("%s #%d", s.Name, r.Run)
		}
		verdict := "met"
		if missed := r.missed(); len(missed) > 0 {
			verdict = "MISSED: " + strings.Join(missed, "; ")
		}
		if s.Version {
			fmt.Fprintf(tw, "%s\t-\t-\t-\t-\t%s\t-\t-\t-\t%.3f\t%s\t-\t-\t-\t-\t-\t%s\t\n",
				name, seconds(r.Proc.Wall), r.Proc.CPU.Seconds(), megabytes(r.Proc.PeakRSS), verdict)
			continue
		}
		limit := "-"
		if s.InFlight > 0 {
			limit = fmt.Sprint(s.InFlight)
		}
		times := "-"
		if s.Latency > 0 {
			times = fmt.Sprintf("%.2f", r.timesIdeal())
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%.2f\t%s\t%s\t%s\t%d\t%d\t%s\t%s\t\n",
			name, s.Cases, s.Latency, s.Concurrency, limit,
			seconds(r.Proc.Wall), seconds(s.ideal()), times, seconds(s.best()),
			r.Proc.CPU.Seconds(), megabytes(r.Proc.PeakRSS), span(r.ToFirst, r.Calls), span(r.AfterLast, r.Calls), r.Calls, r.RateLimited, r.outcomeText(), verdict)
	}
	return tw.Flush()
}

func seconds(d time.Duration) string {
	if d < time.Second {
		return fmt.Sprintf("%.0f ms", float64(d)/float64(time.Millisecond))
	}
	return fmt.Sprintf("%.2f s", d.Seconds())
}

func megabytes(b int64) string {
	if b == 0 {
		return "?"
	}
	return fmt.Sprintf("%.0f MB", float64(b)/(1<<20))
}

// span formats a time measured around the fake's calls, "-" for a run
// that made none.
func span(d time.Duration, calls int) string {
	if calls == 0 {
		return "-"
	}
	return seconds(d)
}
