package report

import (
	"html"
	"strings"
	"testing"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
)

// inconclusiveRun is a run of 4 cases of 2 trials each, 7 trials of 8
// passing, against a threshold of 80%: its pass rate, 87.5%, has an
// interval over cases that straddles the threshold, so its gate is
// INCONCLUSIVE; it has pass@2, pass^2 and a criterion, "tone", whose
// mean has an interval.
func inconclusiveRun() *gavel.Run {
	trial := func(id string, n int, pass bool, score float64) gavel.Trial {
		status := judge.StatusPass
		if !pass {
			status = judge.StatusFail
		}
		return gavel.Trial{CaseID: id, N: n, Verdict: judge.Judgment{Name: "tone", Status: status, Score: judge.Unit(score)}}
	}
	run := &gavel.Run{Suite: &gavel.Suite{Name: "support-desk", Threshold: 0.8}}
	for _, c := range []struct {
		id     string
		passes [2]bool
		scores [2]float64
	}{
		{"a", [2]bool{true, true}, [2]float64{1, 0.9}},
		{"b", [2]bool{true, true}, [2]float64{0.8, 0.8}},
		{"c", [2]bool{true, false}, [2]float64{0.7, 0.2}},
		{"d", [2]bool{true, true}, [2]float64{1, 1}},
	} {
		cr := gavel.CaseResult{Case: &gavel.Case{ID: c.id}}
		for i := range 2 {
			cr.Trials = append(cr.Trials, trial(c.id, i+1, c.passes[i], c.scores[i]))
		}
		cr.Summarize()
		run.Cases = append(run.Cases, cr)
	}
	return run
}

// The HTML report says what the text and Markdown reports say of a
// run's numbers as samples: the pass rate's interval with its method
// and unit, the gate's INCONCLUSIVE and what would decide it, and the
// intervals of pass@k, pass^k and each criterion's mean.
func TestHTMLShowsIntervalsAndGate(t *testing.T) {
	run := inconclusiveRun()
	page := html.UnescapeString(write(t, HTML, run, Options{}))
	text := write(t, Text, run, Options{})
	for _, want := range []string{
		"support-desk: INCONCLUSIVE",
		"(bootstrap over cases)",
		"straddles the threshold 80%",
		"more cases at this pass rate would",
		"pass@k: k=2 100% (95% interval",
		"pass^k: k=2 75% (95% interval",
		"95% interval",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page does not say %q:\n%s", want, page)
		}
	}
	// Worded once: the page says what the text report says.
	stats := run.Stats()
	for _, shared := range []string{rateInterval(stats.PassRateInterval), gateNote(run), passAtK(stats), passHatK(stats)} {
		if shared == "" || !strings.Contains(text, shared) || !strings.Contains(page, shared) {
			t.Errorf("want %q in both the text report and the page:\n%s\n%s", shared, text, page)
		}
	}
	if iv := stats.Criteria[0].Interval; iv == nil || !strings.Contains(page, "<td class=\"num\">"+scoreInterval(iv)+"</td>") {
		t.Errorf("the criteria's table has no cell with tone's interval %v:\n%s", iv, page)
	}
}

// The page names the verdict tree's nodes in words a reader knows, with
// the suite format's name small beside them: "tiered" reads "The rules
// first, then the model judges".
func TestHTMLDescribesTree(t *testing.T) {
	page := html.UnescapeString(write(t, HTML, fixture(t), Options{}))
	for _, want := range []string{
		`The rules first, then the model judges, each only when the one before it passed <small class="technical">tiered</small>`,
		`All of these must pass <small class="technical">all</small>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page does not say %q", want)
		}
	}
	if strings.Contains(page, `</span> tiered`) {
		t.Errorf("the page still names a node by its technical name alone")
	}
}
