package gavel_test

import (
	"fmt"
	"testing"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
)

// BenchmarkCalibrate measures a large calibration: 2,000 judgments of a
// 1..10 criterion, each labelled by three people, so that every
// statistic and its bootstrap interval is computed: kappa, the weighted
// kappas, alpha's three metrics, and every two people's kappas.
func BenchmarkCalibrate(b *testing.B) {
	var checks []gavel.LabelCheck
	for i := range 2000 {
		judged := 1 + (i*7)%10
		for p, person := range []string{"ada", "grace", "linus"} {
			human := min(10, max(1, judged+(i*(p+3))%5-2))
			checks = append(checks, gavel.LabelCheck{CaseID: fmt.Sprint("case-", i), Trial: 1, Status: judge.StatusPass, ModelJudged: true,
				JudgeCategory: fmt.Sprint(judged), HumanCategory: fmt.Sprint(human), Author: person})
		}
	}
	b.ResetTimer()
	for range b.N {
		c := gavel.Calibrate(checks)
		if len(c.Alpha) != 3 || c.Alpha[2].Interval == nil || c.Table.Weighted[1].Interval == nil {
			b.Fatalf("alpha %+v, weighted %+v", c.Alpha, c.Table.Weighted)
		}
	}
}
