package report

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/stats"
)

// A breakdown is one of the small tables under a run's summary: the
// criteria's scores, or what each model spent. It is formatted here as
// cells, once for every report. The names in its first column come from
// suite files and meters, so each format cleans and escapes them as it
// places them.
type breakdown struct {
	// header names the columns, in lower case as the text report writes
	// them; the Markdown and HTML reports capitalise them (see title).
	header []string
	rows   [][]string
}

// breakdowns returns the run's breakdowns that have rows: the criteria
// (name, how many scores, their mean, its interval when a criterion has
// one, and their lowest, in name order),
// then the models (name, calls when they were counted, tokens and cost,
// in name order).
func breakdowns(s gavel.Stats) []breakdown {
	var out []breakdown
	if len(s.Criteria) > 0 {
		b := breakdown{header: []string{"criterion", "scores", "mean", "min"}}
		var level *stats.Interval // the first interval, for the column's header
		for _, c := range s.Criteria {
			if level == nil {
				level = c.Interval
			}
		}
		if level != nil {
			b.header = slices.Insert(b.header, 3, percent(level.Level)+" interval")
		}
		for _, c := range s.Criteria {
			row := []string{c.Name, strconv.Itoa(c.Count), score(c.Mean), score(c.Min)}
			if level != nil {
				row = slices.Insert(row, 3, scoreInterval(c.Interval))
			}
			b.rows = append(b.rows, row)
		}
		out = append(out, b)
	}
	if len(s.Models) > 0 {
		// Calls are shown when they were counted (not in runs stored
		// before they were).
		counted := slices.ContainsFunc(slices.Collect(maps.Values(s.Models)), func(u judge.Usage) bool { return u.Calls > 0 })
		b := breakdown{header: []string{"model", "tokens", "cost"}}
		if counted {
			b.header = []string{"model", "calls", "tokens", "cost"}
		}
		for _, name := range slices.Sorted(maps.Keys(s.Models)) {
			u := s.Models[name]
			row := []string{name, tokens(u), cost(u)}
			if counted {
				row = []string{name, callsCell(u), tokens(u), cost(u)}
			}
			b.rows = append(b.rows, row)
		}
		out = append(out, b)
	}
	return out
}

// unpricedNote says which models have no price, so that the costs that
// include them are lower bounds, and how to give their prices; "" when
// every cost is known.
func unpricedNote(s gavel.Stats) string {
	total := s.Usage.Total()
	var names []string
	for _, name := range slices.Sorted(maps.Keys(s.Models)) {
		if s.Models[name].Unpriced {
			names = append(names, oneLine(name))
		}
	}
	if !total.Unpriced && len(names) == 0 {
		return ""
	}
	// A usage can be unpriced with no model named: an http or exec agent
	// that reports tokens without their cost.
	who, has, it, its := "a model", "has", "it", "its"
	switch {
	case len(names) == 1:
		who = names[0]
	case len(names) > 1:
		who, has, it, its = strings.Join(names, ", "), "have", "them", "their"
	}
	return fmt.Sprintf("Unpriced: %s %s no price, so the costs that include %s are lower bounds. "+
		"Give %s price in US dollars per million tokens under prices: in the suite file, or in a file named with gavel run --prices.",
		who, has, it, its)
}

// unreportedNote says that some of what the run spent was never
// reported; "" when everything was.
func unreportedNote(s gavel.Stats) string {
	if !s.Usage.Total().Unreported {
		return ""
	}
	return "Unreported: the agent did not report what some of its replies spent (an http or exec agent that gives no token count, " +
		"a conversation imported without usage), so the tokens and costs that include them are lower bounds."
}

// title capitalises a column's name, "criterion" to "Criterion".
func title(column string) string {
	return strings.ToUpper(column[:1]) + column[1:]
}

// flakyCases formats the flaky cases, "case_004 (2 of 3 trials passed)"
// each, in suite order. The ids are not cleaned.
func flakyCases(facts []caseFacts) []string {
	var out []string
	for _, f := range facts {
		if f.Outcome == gavel.Flaky {
			out = append(out, fmt.Sprintf("%s (%d of %d trials passed)", f.ID, f.Passed, f.Ran))
		}
	}
	return out
}

// scoreInterval is a mean score's interval as a cell, "0.45–0.93" (its
// level is the column's); "-" for none (fewer than two cases scored).
func scoreInterval(iv *stats.Interval) string {
	if iv == nil {
		return "-"
	}
	return score(iv.Lo) + "–" + score(iv.Hi)
}
