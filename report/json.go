package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
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
	Passed bool `json:"passed"`
	// Gate is the run's verdict against its threshold, weighed with the
	// pass rate's interval (gavel.Run.Gate): PASS, FAIL or INCONCLUSIVE,
	// and what an INCONCLUSIVE verdict does; null for a shard, whose
	// verdict is the whole run's, and for a run that is incomplete.
	Gate  *gavel.Gate `json:"gate"`
	Stats gavel.Stats `json:"stats"`
	// Shard says which shard of a run the report is of (gavel run
	// --shard), null for a whole run. A shard's Passed is its part's
	// alone: gavel merge decides on the whole run.
	Shard *Shard `json:"shard"`
	// Cases stays the last field: streamJSON writes them after the rest.
	Cases []JSONCase `json:"cases"`
}

// A JSONSuite describes the suite a report is about.
type JSONSuite struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	File        string `json:"file"`
	// Threshold is the pass rate the run had to reach, 1 when the suite
	// set none.
	Threshold float64 `json:"threshold"`
	// Gate is how the run weighed its pass rate against the threshold,
	// as the suite said (gate:); empty for the defaults.
	Gate   gavel.GateConfig  `json:"gate"`
	Models map[string]string `json:"models"`
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
	// Critical is true for a case marked critical: true, whose every
	// failure fails the gate; absent otherwise.
	Critical bool `json:"critical,omitempty"`
	// Quarantined says why the case was left out of the gate
	// (gavel.CaseResult.Quarantined); absent when it was not.
	Quarantined string        `json:"quarantined,omitempty"`
	Outcome     gavel.Outcome `json:"outcome"`
	SkipReason  string        `json:"skip_reason"`
	// PassRate is the share of trials that passed; nil when none ran.
	PassRate *float64      `json:"pass_rate"`
	Trials   []gavel.Trial `json:"trials"`
}

// writeJSON writes the JSON report, indented, into b.
func writeJSON(b *bytes.Buffer, run *gavel.Run, opts Options) error {
	return streamJSON(b, run, opts)
}

// streamJSON writes the JSON report, indented, to w a case at a time, as
// encoding the report whole would write it: a report of a large run is
// never held in memory twice over, nor indented in one piece.
func streamJSON(w io.Writer, run *gavel.Run, opts Options) error {
	head := newJSONReport(run, opts, false)
	var b bytes.Buffer
	if err := jsonEncoder(&b, "").Encode(head); err != nil {
		return err
	}
	// The head ends with its empty list of cases, the last field:
	// `"cases": []` and the closing brace. The cases go in between.
	const empty = "[]\n}\n"
	out := b.Bytes()
	if !bytes.HasSuffix(out, []byte(empty)) {
		return errors.New("report: the JSON report's cases are not its last field")
	}
	if len(run.Cases) == 0 {
		_, err := w.Write(out)
		return err
	}
	if _, err := w.Write(append(out[:len(out)-len(empty)], "[\n"...)); err != nil {
		return err
	}
	b.Reset()
	enc := jsonEncoder(&b, "    ")
	for i := range run.Cases {
		b.WriteString("    ")
		if err := enc.Encode(newJSONCase(&run.Cases[i])); err != nil {
			return err
		}
		b.Truncate(b.Len() - 1) // the newline Encode ends with
		if i < len(run.Cases)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
		if b.Len() >= 64<<10 || i == len(run.Cases)-1 {
			if _, err := w.Write(b.Bytes()); err != nil {
				return err
			}
			b.Reset()
		}
	}
	_, err := io.WriteString(w, "  ]\n}\n")
	return err
}

// jsonEncoder returns the encoder of the JSON report: indented by two
// spaces, lines after the first starting with prefix.
func jsonEncoder(w io.Writer, prefix string) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetIndent(prefix, "  ")
	// Agent text is full of < and >: keep it readable. The report is
	// data, not HTML; whoever embeds it in a page escapes it there.
	enc.SetEscapeHTML(false)
	return enc
}

// newJSONReport builds the JSON report of a run: with its cases, or with
// an empty list of them when withCases is false.
func newJSONReport(run *gavel.Run, opts Options, withCases bool) JSONReport {
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
		Gate:          gateOf(run, opts),
		Stats:         run.Stats(),
		Cases:         []JSONCase{},
		Shard:         opts.Shard,
	}
	if s := run.Suite; s != nil {
		r.Suite.Description, r.Suite.File, r.Suite.Gate = s.Description, s.File, s.Gate
		for role, model := range s.Models {
			r.Suite.Models[role] = model
		}
	}
	if withCases {
		r.Cases = make([]JSONCase, len(run.Cases))
		for i := range run.Cases {
			r.Cases[i] = newJSONCase(&run.Cases[i])
		}
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
		c.Difficulty, c.Source, c.Critical = cs.Difficulty, cs.Source, cs.Critical
		for k, v := range cs.Metadata {
			c.Metadata[k] = v
		}
	}
	c.Quarantined = cr.Quarantined
	return c
}

// gateOf is the JSON report's gate: nil for a shard or an incomplete run.
func gateOf(run *gavel.Run, opts Options) *gavel.Gate {
	if opts.Shard != nil || !run.Complete() {
		return nil
	}
	g := run.Gate()
	return &g
}
