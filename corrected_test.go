package gavel_test

import (
	"math"
	"testing"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/stats"
)

// A calibration of pass/fail verdicts tells the judge's accuracy: its
// rows are the judge's categories, its columns the people's.
func TestJudgeAccuracy(t *testing.T) {
	// The judge failed 16 that people failed and 2 they passed; it passed
	// 4 they failed and 18 they passed.
	table := gavel.Agreement{Categories: []string{"fail", "pass"}, Table: [][]int{{16, 2}, {4, 18}}}
	c := gavel.Calibration{Counted: gavel.CalibrationLabels, Table: table}
	got, ok := c.JudgeAccuracy()
	if want := (stats.Accuracy{TruePass: 18, FalseFail: 2, TrueFail: 16, FalsePass: 4}); !ok || got != want {
		t.Errorf("JudgeAccuracy() = %+v, %v; want %+v", got, ok, want)
	}
	for name, c := range map[string]gavel.Calibration{
		"too few labels":   {Counted: gavel.CalibrationLabels - 1, Table: table},
		"scores, not pass": {Counted: 60, Table: gavel.Agreement{Categories: []string{"1", "2", "3"}, Table: [][]int{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}},
		"only passes":      {Counted: 60, Table: gavel.Agreement{Categories: []string{"fail", "pass"}, Table: [][]int{{0, 2}, {0, 58}}}},
	} {
		if _, ok := c.JudgeAccuracy(); ok {
			t.Errorf("%s: an accuracy", name)
		}
	}
}

// With the judge's accuracy known, the run's numbers carry its pass rate
// corrected for the judge's errors, beside the raw one: 24 of 30 trials
// passed by a judge that passes 90% of what people pass and fails 80% of
// what they fail is (0.8 + 0.8 - 1) / (0.9 + 0.8 - 1) = 0.857 (Rogan and
// Gladen's formula; its interval is stats.RoganGladen's, tested there).
//
//	se=18/20; sp=16/20; ap=24/30
//	print((ap+sp-1)/(se+sp-1))   # 0.8571428571428571
func TestCorrectedPassRate(t *testing.T) {
	verdicts := make([][]judge.Judgment, 10)
	for i := range verdicts {
		for n := range 3 {
			verdicts[i] = append(verdicts[i], judge.Verdict(i*3+n < 24, ""))
		}
	}
	run := runOf(verdicts...)
	if st := run.Stats(); st.CorrectedPassRate != nil {
		t.Errorf("corrected without the judge's accuracy: %+v", st.CorrectedPassRate)
	}
	run.JudgeAccuracy = &stats.Accuracy{TruePass: 18, FalseFail: 2, TrueFail: 16, FalsePass: 4}
	c := run.Stats().CorrectedPassRate
	if c == nil || math.Abs(c.Rate-0.8571428571428571) > 1e-12 || c.Labels != 40 || c.Sensitivity != 0.9 || c.Specificity != 0.8 ||
		!c.Interval.Contains(c.Rate) || c.Interval.Method != stats.MethodRoganGladen {
		t.Errorf("corrected %+v, want 0.857 from 40 labels, Se 0.9, Sp 0.8, in its interval", c)
	}
}
