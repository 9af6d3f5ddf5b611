package gaveltest

import (
	"strings"
	"testing"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
)

// caseResult is a case whose trials came out with statuses, summarized.
func caseResult(statuses ...judge.Status) *gavel.CaseResult {
	cr := &gavel.CaseResult{Case: &gavel.Case{ID: "c1", Name: "A case", Source: "gavel.yaml:7", Expected: "says hello"}}
	for i, s := range statuses {
		v := judge.Judgment{Name: "contains", Status: s, Reasoning: "found hello"}
		if s != judge.StatusPass {
			v.Reasoning = "no hello in the reply"
		}
		cr.Trials = append(cr.Trials, gavel.Trial{CaseID: "c1", N: i + 1, Verdict: v})
	}
	cr.Summarize()
	return cr
}

func TestVerdictOf(t *testing.T) {
	pass, fail, errored := judge.StatusPass, judge.StatusFail, judge.StatusError
	skipped := caseResult()
	skipped.SkipReason = "fail-fast: an earlier trial did not pass"
	tests := []struct {
		name        string
		cr          *gavel.CaseResult
		minPassRate float64
		fail, skip  bool
		text        []string // what the text holds
		not         []string // what it does not
	}{
		{name: "passed", cr: caseResult(pass, pass), minPassRate: 1},
		{name: "failed", cr: caseResult(fail), minPassRate: 1, fail: true, text: []string{
			"FAIL: contains: no hello in the reply\n",
			"Case:     A case (gavel.yaml:7)\n",
			"Expected: says hello\n",
			"FAIL contains: no hello in the reply",
		}, not: []string{"Trials:"}},
		{name: "failed, a lower rate", cr: caseResult(fail), minPassRate: 0.5, fail: true},
		{name: "flaky, below the rate", cr: caseResult(pass, fail, fail, pass, fail), minPassRate: 0.8, fail: true, text: []string{
			"FLAKY: contains: no hello in the reply\n",
			"Trials:   2 of 5 passed, 80% needed\n",
			"Trial 2 of 5: FAIL",
		}},
		{name: "flaky, at the rate", cr: caseResult(pass, pass, fail, pass, pass), minPassRate: 0.8, text: []string{
			"FLAKY: contains: no hello in the reply\n",
			"Trials:   4 of 5 passed, 80% needed\n",
		}},
		{name: "flaky, every trial required", cr: caseResult(pass, pass, fail, pass, pass), minPassRate: 1, fail: true, text: []string{
			"Trials:   4 of 5 passed, 100% needed\n",
		}},
		{name: "errored", cr: caseResult(errored), minPassRate: 1, fail: true, text: []string{
			"ERROR: contains: no hello in the reply\n",
		}},
		{name: "errored once, at the rate", cr: caseResult(pass, errored, pass, pass, pass), minPassRate: 0.8, text: []string{
			"ERROR: contains: no hello in the reply\n",
			"Trials:   4 of 5 passed, 80% needed\n",
		}},
		{name: "skipped", cr: skipped, minPassRate: 1, skip: true, text: []string{"fail-fast: an earlier trial did not pass"}},
		{name: "skipped, no reason", cr: caseResult(), minPassRate: 1, skip: true, text: []string{"giving no reason"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := verdictOf(tt.cr, tt.minPassRate)
			if v.Fail != tt.fail || v.Skip != tt.skip {
				t.Errorf("fail %t, skip %t; want fail %t, skip %t", v.Fail, v.Skip, tt.fail, tt.skip)
			}
			if len(tt.text) == 0 && len(tt.not) == 0 && tt.cr.Outcome == gavel.Passed && v.Text != "" {
				t.Errorf("text %q, want none", v.Text)
			}
			for _, want := range tt.text {
				if !strings.Contains(v.Text+"\n", want) {
					t.Errorf("text lacks %q:\n%s", want, v.Text)
				}
			}
			for _, bad := range tt.not {
				if strings.Contains(v.Text, bad) {
					t.Errorf("text has %q:\n%s", bad, v.Text)
				}
			}
		})
	}
}

func TestChooseCases(t *testing.T) {
	cases := []*gavel.Case{
		{ID: "a", Tags: []string{"smoke"}},
		{ID: "b", Tags: []string{"policy"}},
		{ID: "c", Tags: []string{"smoke", "policy"}},
	}
	tests := []struct {
		name      string
		ids, tags []string
		want      string // ids chosen, or the error
	}{
		{name: "all", want: "a b c"},
		{name: "ids", ids: []string{"c", "a"}, want: "a c"},
		{name: "tags", tags: []string{"policy"}, want: "b c"},
		{name: "ids and tags", ids: []string{"a", "b"}, tags: []string{"policy"}, want: "b"},
		{name: "unknown id", ids: []string{"a", "z"}, want: `Config.IDs: no case has id "z"`},
		{name: "nothing matches", ids: []string{"a"}, tags: []string{"policy"}, want: "no case matches Config.IDs and Config.Tags"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			chosen, err := chooseCases(cases, tt.ids, tt.tags)
			var got string
			if err != nil {
				got = err.Error()
			} else {
				ids := make([]string, len(chosen))
				for i, c := range chosen {
					ids[i] = c.ID
				}
				got = strings.Join(ids, " ")
			}
			if got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}
