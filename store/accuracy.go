package store

import (
	"context"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/stats"
)

// JudgeAccuracy is the accuracy of suite's judge by the labels people
// gave its verdicts in st (gavel.Calibration.JudgeAccuracy), for a run of
// the suite to correct its pass rate with (gavel.Run.JudgeAccuracy); nil
// when they are too few, or st cannot tell.
func JudgeAccuracy(ctx context.Context, st Store, suite string) *stats.Accuracy {
	checks, err := st.LabelChecks(ctx, LabelFilter{Suite: suite, Judgment: "."})
	if err != nil || len(checks) == 0 {
		return nil
	}
	a, ok := gavel.Calibrate(checks).JudgeAccuracy()
	if !ok {
		return nil
	}
	return &a
}
