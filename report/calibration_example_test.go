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
	}
	report.WriteCalibration(os.Stdout, report.Text, "support-desk", gavel.Calibrate(checks))
	// Output:
	// Judge calibration of suite support-desk: too few labels (50% agreement over 2 labels; the bar is 85% over 50)
	// Labels:      2 labels on verdicts, 2 counted (those on pass or fail verdicts a model took part in)
	// Agreement:   1 of 2 (50%)
	// Kappa:       0.00
	//
	// Disagreements (1):
	//   20261121-101500-a1b2 cancel_order#2: the judge said FAIL; ada: wrong, 0.80: "It did ask first."
}
