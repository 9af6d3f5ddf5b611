package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/stats"
)

// A JSONExampleComparison is the JSON report of a judge compared with
// and without examples on held-out labels (gavel.ExampleComparison).
type JSONExampleComparison struct {
	SchemaVersion int `json:"schema_version"`
	// Kind is "example_comparison".
	Kind string `json:"kind"`
	// Examples is the file of examples compared.
	Examples string `json:"examples"`
	// Given is how many of its examples the judge was given: those of
	// no held-out case.
	Given int `json:"given"`
	// HeldOutShare and Seed are the split's (gavel.Holdout).
	HeldOutShare float64 `json:"held_out_share"`
	Seed         uint64  `json:"seed"`
	HeldOutCases int     `json:"held_out_cases"`
	SourceCases  int     `json:"source_cases"`
	Trials       int     `json:"trials"`
	Labels       int     `json:"labels"`
	Unjudged     int     `json:"unjudged"`
	// Without and With are the agreements on the held-out labels; each
	// kappa null when chance explains every agreement.
	Without JSONExampleAgreement `json:"without"`
	With    JSONExampleAgreement `json:"with"`
	// Difference is with's kappa minus without's, null without both.
	Difference           *float64        `json:"difference"`
	DifferenceInterval   *stats.Interval `json:"difference_interval"`
	NoDifferenceInterval string          `json:"no_difference_interval,omitempty"`
	// Verdict says what the examples did (gavel.ExampleComparison.Verdict).
	Verdict string `json:"verdict"`
}

// A JSONExampleAgreement is one version's agreement with people.
type JSONExampleAgreement struct {
	Agreement       *float64        `json:"agreement"`
	Kappa           *float64        `json:"kappa"`
	KappaInterval   *stats.Interval `json:"kappa_interval"`
	NoKappaInterval string          `json:"no_kappa_interval,omitempty"`
}

func newJSONExampleAgreement(c gavel.Calibration) JSONExampleAgreement {
	return JSONExampleAgreement{Agreement: c.Agreement, Kappa: c.Kappa, KappaInterval: c.Table.KappaInterval, NoKappaInterval: c.Table.NoKappaInterval}
}

// WriteExampleComparison writes a comparison of a judge with and without
// the examples of file, as text or JSON.
func WriteExampleComparison(w io.Writer, f Format, file string, c gavel.ExampleComparison) error {
	var b bytes.Buffer
	switch f {
	case Text:
		writeExampleComparisonText(&b, file, c)
	case JSON:
		j := JSONExampleComparison{SchemaVersion: 1, Kind: "example_comparison", Examples: file, Given: c.Examples,
			HeldOutShare: heldOutShare(c.Holdout), Seed: c.Holdout.Seed,
			HeldOutCases: c.HeldOutCases, SourceCases: c.SourceCases, Trials: c.Trials, Labels: c.Labels, Unjudged: c.Unjudged,
			Without: newJSONExampleAgreement(c.Without), With: newJSONExampleAgreement(c.With),
			Difference: c.Difference, DifferenceInterval: c.DifferenceInterval, NoDifferenceInterval: c.NoDifferenceInterval,
			Verdict: c.Verdict()}
		enc := json.NewEncoder(&b)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(j); err != nil {
			return fmt.Errorf("write json example comparison: %w", err)
		}
	default:
		return fmt.Errorf("write example comparison: no report in format %q: want text or json", f)
	}
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("write %s example comparison: %w", f, err)
	}
	return nil
}

func heldOutShare(h gavel.Holdout) float64 {
	if h.Share == 0 {
		return gavel.DefaultHoldoutShare
	}
	return h.Share
}

func writeExampleComparisonText(b *bytes.Buffer, file string, c gavel.ExampleComparison) {
	fmt.Fprintf(b, "Examples %s: %s\n", file, c.Verdict())
	fmt.Fprintf(b, "Held out:    %d of %d labelled cases (share %s, seed %d); the judge was given the %d examples of the others\n",
		c.HeldOutCases, c.HeldOutCases+c.SourceCases, strconv.FormatFloat(heldOutShare(c.Holdout), 'f', -1, 64), c.Holdout.Seed, c.Examples)
	fmt.Fprintf(b, "Scored:      %s on %d held-out trials, judged again with and without the examples", nLabels(c.Labels), c.Trials)
	if c.Unjudged > 0 {
		fmt.Fprintf(b, " (%d more not scored: a version could not judge, or the suite lacks the case)", c.Unjudged)
	}
	b.WriteString("\n")
	fmt.Fprintf(b, "Without:     kappa %s, agreement %s\n", KappaOf(c.Without.Table), AgreementOf(c.Without))
	fmt.Fprintf(b, "With:        kappa %s, agreement %s\n", KappaOf(c.With.Table), AgreementOf(c.With))
	switch {
	case c.Difference == nil:
		b.WriteString("Difference:  - (a kappa is missing)\n")
	case c.DifferenceInterval == nil:
		fmt.Fprintf(b, "Difference:  %+.2f (no interval: %s)\n", *c.Difference, c.NoDifferenceInterval)
	default:
		fmt.Fprintf(b, "Difference:  %+.2f (%s interval %s, paired over the judgments)\n", *c.Difference, percent(c.DifferenceInterval.Level), interval(c.DifferenceInterval))
	}
}
