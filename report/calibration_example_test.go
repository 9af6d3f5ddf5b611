package report_test

import (
	"os"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/report"
)

func ExampleWriteCalibration() {
	human := 0.8
	checks := []gavel.LabelCheck{
		{RunID: "20261121-101500-a1b2", CaseID: "refund_late", Trial: 1, Status: judge.StatusPass, ModelJudged: true, Correct: true, Author: "ada"},
		{RunID: "20261121-101500-a1b2", CaseID: "cancel_order", Trial: 2, Status: judge.StatusFail, ModelJudged: true, Correct: false,
			HumanScore: &human, Author: "ada", Comment: "It did ask first.", Created: time.Now()},
		{RunID: "20261121-101500-a1b2", CaseID: "cancel_order", Trial: 2, Status: judge.StatusFail, ModelJudged: true, HumanCategory: "fail", Author: "grace"},
	}
	report.WriteCalibration(os.Stdout, report.Text, "support-desk", gavel.Calibrate(checks))
	// Output:
	// Judge calibration of suite support-desk: too few labels (66.7% agreement over 3 labels; the bar is 85% over 50)
	// Labels:      3 labels on judgments, 3 counted (those on judgments a model made that gave a category)
	// Agreement:   2 of 3 (66.7%)
	// Kappa:       0.40 (no interval: fewer than 20 items, too few for an interval)
	// Alpha:       nominal 0.33 (no interval: fewer than 20 items, too few for an interval); Krippendorff's, of the judge and 2 people at once over 2 judgments
	//
	// Judge (rows) against people (columns), with each category's base rate and the agreement on it:
	//      | fail | pass | judge | people | agreement on it
	// -----------------------------------------------------
	// fail | 1    | 1    | 66.7% | 33.3%  | 0.67
	// pass | 0    | 1    | 33.3% | 66.7%  | 0.67
	//
	// Between people (on the judgments both labelled):
	//   ada and grace: 0 of 1 (0%), kappa 0.00
	//
	// Disagreements (1):
	//   20261121-101500-a1b2 cancel_order#2: the judge said FAIL; ada: wrong, 0.80: "It did ask first."
}
