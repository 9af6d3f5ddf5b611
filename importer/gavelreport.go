package importer

import (
	"encoding/json"
	"fmt"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/report"
)

// readGavel reads Gavel's JSON report (report.JSONReport): every case
// with its trials, transcripts and verdicts, as the report has them.
func readGavel(path string, data []byte) (head report.JSONReport, cases []Case, problems Problems) {
	var r report.JSONReport
	if err := json.Unmarshal(data, &r); err != nil {
		line, msg := jsonProblem(data, 0, err)
		return head, nil, Problems{{File: path, Line: line, Message: msg}}
	}
	if r.SchemaVersion != report.SchemaVersion {
		return head, nil, Problems{{File: path, Path: "schema_version", Message: fmt.Sprintf(
			"this Gavel reads JSON reports of schema %d, and this one is of schema %d", report.SchemaVersion, r.SchemaVersion)}}
	}
	for i, jc := range r.Cases {
		p := fmt.Sprintf("cases[%d]", i)
		if jc.ID == "" {
			problems = append(problems, Problem{File: path, Path: p + ".id", Message: "a case needs an id"})
			continue
		}
		if !validOutcome(jc.Outcome) {
			problems = append(problems, Problem{File: path, Path: p + ".outcome", Message: fmt.Sprintf("unknown outcome %q: want PASS, FAIL, FLAKY, ERROR or SKIPPED", jc.Outcome)})
			continue
		}
		c := Case{ID: jc.ID, Name: jc.Name, Description: jc.Description, Tags: jc.Tags, Metadata: jc.Metadata,
			Source: jc.Source, Expected: jc.Expected, Outcome: jc.Outcome, SkipReason: jc.SkipReason}
		if c.Source == "" {
			c.Source = path
		}
		for j, t := range jc.Trials {
			tp := fmt.Sprintf("%s.trials[%d]", p, j)
			switch {
			case t.CaseID != jc.ID:
				problems = append(problems, Problem{File: path, Path: tp + ".case_id", Message: fmt.Sprintf("the trial is of case %q, in case %q", t.CaseID, jc.ID)})
				continue
			case t.N < 1:
				problems = append(problems, Problem{File: path, Path: tp + ".trial", Message: "a trial's number counts from 1"})
				continue
			case !t.Verdict.Status.Valid():
				problems = append(problems, Problem{File: path, Path: tp + ".verdict.status", Message: "a trial needs a verdict: PASS, FAIL, ABSTAIN or ERROR"})
				continue
			}
			c.Trials = append(c.Trials, t)
		}
		cases = append(cases, c)
	}
	r.Cases = nil
	return r, cases, problems
}

// validOutcome reports whether o is one of a case's outcomes.
func validOutcome(o gavel.Outcome) bool {
	switch o {
	case gavel.Passed, gavel.Failed, gavel.Flaky, gavel.Errored, gavel.Skipped:
		return true
	}
	return false
}
