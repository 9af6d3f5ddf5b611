package importer

import (
	"encoding/json"
	"fmt"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/report"
)

// ReadReport reads one of Gavel's JSON reports (report.JSONReport), as
// Read does a file of FormatGavel: its head (the report without its
// cases) and its cases, checked and computed again from their judgments
// (see readGavel). Its problems are returned as Problems, and nothing
// else then.
func ReadReport(path string, data []byte) (report.JSONReport, []Case, error) {
	head, cases, problems := readGavel(path, data)
	if len(problems) > 0 {
		return report.JSONReport{}, nil, problems
	}
	return head, cases, nil
}

// readGavel reads Gavel's JSON report (report.JSONReport): every case
// with its trials and transcripts. What a report says its run came to is
// not taken on trust, since a report is a file anyone can edit: each
// trial's verdict is computed again from its judgments
// (gavel.Trial.Recompute), each case's outcome from its trials
// (outcomeOf), and a report that holds what no run of Gavel writes (a
// threshold that is no pass rate, a negative count, a verdict on a
// conversation that did not complete, ...) is refused, each value at its
// JSON path (reportCheck). The run's numbers are computed from the cases
// by whoever makes a run of them (gavel.Run.Stats).
func readGavel(path string, data []byte) (head report.JSONReport, cases []Case, problems Problems) {
	var r report.JSONReport
	if err := json.Unmarshal(data, &r); err != nil {
		if bad, ok := badJudgment(path, data); ok {
			return head, nil, Problems{bad}
		}
		line, msg := jsonProblem(data, 0, err)
		return head, nil, Problems{{File: path, Line: line, Message: msg}}
	}
	if r.SchemaVersion != report.SchemaVersion {
		return head, nil, Problems{{File: path, Path: "schema_version", Message: fmt.Sprintf(
			"this Gavel reads JSON reports of schema %d, and this one is of schema %d", report.SchemaVersion, r.SchemaVersion)}}
	}
	check := &reportCheck{path: path}
	trials := make([]int, len(r.Cases))
	for i, jc := range r.Cases {
		trials[i] = len(jc.Trials)
		p := fmt.Sprintf("cases[%d]", i)
		if jc.ID == "" {
			check.add(p+".id", "a case needs an id")
			continue
		}
		if !validOutcome(jc.Outcome) {
			check.add(p+".outcome", "unknown outcome %q: want PASS, FAIL, FLAKY, ERROR or SKIPPED", jc.Outcome)
			continue
		}
		check.jsonCase(&jc, p)
		c := Case{ID: jc.ID, Name: jc.Name, Description: jc.Description, Tags: jc.Tags, Metadata: jc.Metadata,
			Source: jc.Source, Expected: jc.Expected, Critical: jc.Critical, Quarantined: jc.Quarantined}
		if c.Source == "" {
			c.Source = path
		}
		seen := map[int]bool{}
		for j, t := range jc.Trials {
			tp := fmt.Sprintf("%s.trials[%d]", p, j)
			switch {
			case t.CaseID != jc.ID:
				check.add(tp+".case_id", "the trial is of case %q, in case %q", t.CaseID, jc.ID)
				continue
			case t.N < 1:
				check.add(tp+".trial", "a trial's number counts from 1")
				continue
			case !t.Verdict.Status.Valid():
				check.add(tp+".verdict.status", "a trial needs a verdict: PASS, FAIL, ABSTAIN or ERROR")
				continue
			}
			check.trial(&t, tp, seen)
			t.Recompute()
			c.Trials = append(c.Trials, t)
		}
		if c.Outcome = outcomeOf(c.Trials); c.Outcome == gavel.Skipped {
			c.SkipReason = jc.SkipReason
		}
		cases = append(cases, c)
	}
	check.head(&r, trials)
	r.Cases = nil
	return r, cases, check.problems
}

// outcomeOf is the outcome of a report's case, computed from its trials
// (gavel.CaseResult.Summarize) whatever the report says; "" (not judged)
// for a case whose every trial was imported without a verdict (NotJudged)
// and was not judged since.
func outcomeOf(trials []gavel.Trial) gavel.Outcome {
	judged := len(trials) == 0
	for _, t := range trials {
		if v := t.Verdict; v.Status != judge.StatusAbstain || v.Name != NotJudgedName || len(v.Parts) > 0 {
			judged = true
		}
	}
	if !judged {
		return ""
	}
	cr := gavel.CaseResult{Trials: trials}
	cr.Summarize()
	return cr.Outcome
}

// validOutcome reports whether o is one of a case's outcomes.
func validOutcome(o gavel.Outcome) bool {
	switch o {
	case gavel.Passed, gavel.Failed, gavel.Flaky, gavel.Errored, gavel.Skipped:
		return true
	}
	return false
}
