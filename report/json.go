package report

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/gavelhq/gavel"
)

// SchemaVersion is the version of the JSON report's schema, written as
// its "schema_version". It goes up when a field changes meaning or is
// removed; adding a field does not change it, so readers should ignore
// fields they do not know.
const SchemaVersion = 1

// A JSONReport is the JSON report, field for field; docs/report-json.md
// documents every field. Decode a report into it to read one back.
//
// Every field is always present: lists and maps are empty rather than
// null, and only pass_rate is null (for a case that did not run). The
// trials inside keep gavel.Trial's encoding, which leaves empty fields
// out.
type JSONReport struct {
	SchemaVersion int       `json:"schema_version"`
	GavelVersion  string    `json:"gavel_version"`
	Suite         JSONSuite `json:"suite"`
	Started       time.Time `json:"started"`
	// Duration is encoded in nanoseconds.
	Duration time.Duration `json:"duration_ns"`
	// Incomplete is true when the run did not run every selected trial;
	// Stopped says what stopped it (interrupted, budget, fail-fast) and
	// StopReason why, in words. Interrupted is true when it was stopped
	// from outside (Ctrl-C, SIGTERM, a results store that stopped taking
	// writes).
	Incomplete  bool            `json:"incomplete"`
	Stopped     gavel.StopCause `json:"stopped"`
	StopReason  string          `json:"stop_reason"`
	Interrupted bool            `json:"interrupted"`
	// Passed is true when the run is complete and reached the suite's
	// threshold: an incomplete run never passes.
	Passed bool        `json:"passed"`
	Stats  gavel.Stats `json:"stats"`
	Cases  []JSONCase  `json:"cases"`
	// Shard says which shard of a run the report is of (gavel run
	// --shard), null for a whole run. A shard's Passed is its part's
	// alone: gavel merge decides on the whole run.
	Shard *Shard `json:"shard"`
}

// A JSONSuite describes the suite a report is about.
type JSONSuite struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	File        string `json:"file"`
	// Threshold is the pass rate the run had to reach, 1 when the suite
	// set none.
	Threshold float64           `json:"threshold"`
	Models    map[string]string `json:"models"`
}

// A JSONCase is one case of a report: what it is, how it came out, and
// every trial.
type JSONCase struct {
	ID          string            `json:"id"`
	Name        string            `json:"name"`
	Description string            `json:"description"`
	Tags        []string          `json:"tags"`
	Difficulty  string            `json:"difficulty"`
	Metadata    map[string]string `json:"metadata"`
	Source      string            `json:"source"`
	Input       string            `json:"input"`
	Expected    string            `json:"expected"`
	Outcome     gavel.Outcome     `json:"outcome"`
	SkipReason  string            `json:"skip_reason"`
	// PassRate is the share of trials that passed; nil when none ran.
	PassRate *float64      `json:"pass_rate"`
	Trials   []gavel.Trial `json:"trials"`
}

// writeJSON writes the JSON report, indented.
func writeJSON(b *bytes.Buffer, run *gavel.Run, opts Options) error {
	enc := json.NewEncoder(b)
	enc.SetIndent("", "  ")
	// Agent text is full of < and >: keep it readable. The report is
	// data, not HTML; whoever embeds it in a page escapes it there.
	enc.SetEscapeHTML(false)
	return enc.Encode(newJSONReport(run, opts))
}

// newJSONReport builds the JSON report of a run.
func newJSONReport(run *gavel.Run, opts Options) JSONReport {
	r := JSONReport{
		SchemaVersion: SchemaVersion,
		GavelVersion:  opts.Version,
		Suite:         JSONSuite{Name: suiteName(run), Threshold: threshold(run), Models: map[string]string{}},
		Started:       run.Started,
		Duration:      run.Duration,
		Incomplete:    !run.Complete(),
		Stopped:       run.Stopped,
		StopReason:    run.StopReason,
		Interrupted:   run.Stopped == gavel.StopInterrupted,
		Passed:        run.Passed(),
		Stats:         run.Stats(),
		Cases:         make([]JSONCase, len(run.Cases)),
		Shard:         opts.Shard,
	}
	if s := run.Suite; s != nil {
		r.Suite.Description, r.Suite.File = s.Description, s.File
		for role, model := range s.Models {
			r.Suite.Models[role] = model
		}
	}
	for i := range run.Cases {
		r.Cases[i] = newJSONCase(&run.Cases[i])
	}
	return r
}

// newJSONCase builds one case of the JSON report.
func newJSONCase(cr *gavel.CaseResult) JSONCase {
	f := factsOf(cr)
	c := JSONCase{
		ID:          f.ID,
		Name:        f.Name,
		Description: f.Description,
		Tags:        []string{},
		Metadata:    map[string]string{},
		Input:       f.Input,
		Expected:    f.Expected,
		Outcome:     cr.Outcome,
		SkipReason:  cr.SkipReason,
		Trials:      append([]gavel.Trial{}, cr.Trials...),
	}
	if rate, ok := cr.PassRate(); ok {
		c.PassRate = &rate
	}
	if cs := cr.Case; cs != nil {
		c.Tags = append(c.Tags, cs.Tags...)
		c.Difficulty, c.Source = cs.Difficulty, cs.Source
		for k, v := range cs.Metadata {
			c.Metadata[k] = v
		}
	}
	return c
}
