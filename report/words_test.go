package report_test

import (
	"testing"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/report"
)

// Judgments as the judges write them, thresholds included.
var (
	wordsUsage = judge.Usage{InputTokens: 900, OutputTokens: 40}

	forbidden = judge.Judgment{Name: "forbidden_tools cancel_order", Status: judge.StatusFail, Score: judge.Bool(false), Reasoning: "called forbidden tool cancel_order (call 2)"}
	mentions  = judge.Judgment{Name: "contains refund", Status: judge.StatusPass, Score: judge.Bool(true), Reasoning: "says refund"}
)

// rubricJudgment is a rubric's judgment of score against threshold.
func rubricJudgment(name string, score, threshold float64) judge.Judgment {
	status := judge.StatusFail
	if score >= threshold {
		status = judge.StatusPass
	}
	return judge.Judgment{Name: name, Status: status, Score: judge.Unit(score), Prompt: "p1a2b3", Usage: wordsUsage,
		Reasoning: "the reasoning says nothing of numbers", Threshold: judge.AtLeast(score, threshold)}
}

func of(th *judge.Threshold, what, unit string) *judge.Threshold {
	th.Of, th.Unit = what, unit
	return th
}

func TestDecision(t *testing.T) {
	axis := func(name string, v float64) judge.Judgment {
		status := judge.StatusFail
		if v >= 5 {
			status = judge.StatusPass
		}
		s, _ := judge.Number(v, 1, 10)
		return judge.Judgment{Name: name, Status: status, Score: s, Reasoning: name + " reasons", Threshold: judge.AtLeast(v, 5)}
	}
	criteria := func(mean float64, axes ...judge.Judgment) judge.Judgment {
		status := judge.StatusPass
		for _, a := range axes {
			if a.Status == judge.StatusFail {
				status = judge.StatusFail
			}
		}
		if mean < 6.5 {
			status = judge.StatusFail
		}
		return judge.Judgment{Name: "criteria", Status: status, Score: judge.Unit((mean - 1) / 9), Prompt: "c0ffee", Usage: wordsUsage,
			Reasoning: "mean and lowest", Parts: axes, Threshold: of(judge.AtLeast(mean, 6.5), "mean", "")}
	}
	all := func(status judge.Status, mean float64, parts ...judge.Judgment) judge.Judgment {
		return judge.Judgment{Name: "all", Status: status, Score: judge.Unit(mean), Parts: parts, Reasoning: "some failed"}
	}
	juror := func(status judge.Status) judge.Judgment {
		return judge.Judgment{Status: status, Score: judge.Bool(status == judge.StatusPass), Prompt: "j1", Usage: wordsUsage, Reasoning: "juror"}
	}
	pairwise, _ := judge.Category("loss", []judge.Label{{Name: "loss", Value: 0}, {Name: "tie", Value: 0.5}, {Name: "win", Value: 1}})

	tests := []struct {
		name    string
		verdict judge.Judgment
		want    string
	}{
		{"a rule failed, the model judge passed: the mean 0.8 is not read",
			all(judge.StatusFail, 0.8, forbidden, rubricJudgment("tone", 0.9, 0.7), mentions),
			"FAIL: decided by forbidden_tools cancel_order (a rule): called forbidden tool cancel_order (call 2)"},
		{"a model judge below its own threshold, from the recorded threshold",
			all(judge.StatusFail, 0.8, mentions, rubricJudgment("tone", 0.6, 0.7)),
			"FAIL: decided by tone (a model judge): scored 0.6, below its threshold 0.7"},
		{"through tiers",
			judge.Judgment{Name: "tiered", Status: judge.StatusFail, DecidedBy: "tier 2", Parts: []judge.Judgment{mentions, rubricJudgment("tone", 0.55, 0.7)}},
			"FAIL: decided by tone (a model judge): scored 0.55, below its threshold 0.7"},
		{"criteria: the mean below its threshold",
			criteria(6.25, axis("character", 6), axis("style", 6.5)),
			"FAIL: decided by criteria (a model judge): mean 6.25, below its threshold 6.5"},
		{"criteria: the mean passes, an axis does not",
			all(judge.StatusFail, 0.7, criteria(8.5, axis("character", 10), axis("style", 4))),
			"FAIL: decided by criteria › style (a model judge): scored 4 on 1..10, below its threshold 5"},
		{"each turn: the turn within its judge",
			judge.Judgment{Name: "ori", Status: judge.StatusFail, Parts: []judge.Judgment{
				{Name: "turn 1", Status: judge.StatusPass, Score: judge.Unit(0.9), Prompt: "c", Threshold: of(judge.AtLeast(7, 6.5), "mean", "")},
				{Name: "turn 2", Status: judge.StatusFail, Score: judge.Unit(0.3), Prompt: "c", Threshold: of(judge.AtLeast(3.5, 6.5), "mean", "")},
			}},
			"FAIL: decided by ori › turn 2 (a model judge): mean 3.5, below its threshold 6.5"},
		{"a weighted mean decides by itself, whatever its parts",
			judge.Judgment{Name: "weighted", Status: judge.StatusFail, Score: judge.Unit(0.45), Parts: []judge.Judgment{mentions, forbidden},
				Threshold: of(judge.AtLeast(0.45, 0.6), "weighted mean", "")},
			"FAIL: decided by weighted: weighted mean 0.45, below its threshold 0.6"},
		{"a jury's vote",
			judge.Judgment{Name: "panel", Status: judge.StatusFail, DecidedBy: "majority", Score: judge.Unit(1.0 / 3), Reasoning: "majority: 1 pass, 2 fail → FAIL",
				Parts: []judge.Judgment{juror(judge.StatusPass), juror(judge.StatusFail), juror(judge.StatusFail)}},
			"FAIL: decided by panel (a jury of 3, by majority): 1 PASS, 2 FAIL"},
		{"a jury's average against its threshold",
			judge.Judgment{Name: "panel", Status: judge.StatusFail, DecidedBy: "average", Score: judge.Unit(0.4),
				Parts:     []judge.Judgment{juror(judge.StatusPass), juror(judge.StatusFail), juror(judge.StatusFail)},
				Threshold: of(judge.AtLeast(0.4, 0.5), "average", "")},
			"FAIL: decided by panel (a jury of 3, by average): average 0.4, below its threshold 0.5"},
		{"a rule's measure against its limit",
			all(judge.StatusFail, 0.5, mentions, judge.Judgment{Name: "max_turn_latency 2s", Status: judge.StatusFail, Score: judge.Bool(false),
				Reasoning: "turn 4 took 4s, at most 2s allowed", Threshold: of(judge.AtMost(4, 2), "slowest agent turn", "s")}),
			"FAIL: decided by max_turn_latency 2s (a rule): slowest agent turn 4s, above its limit 2s"},
		{"a pairwise loss, in its labels",
			judge.Judgment{Name: "pairwise", Status: judge.StatusFail, Score: pairwise, Prompt: "pw", Threshold: judge.AtLeast(0, 0.5)},
			"FAIL: decided by pairwise (a model judge): scored loss, below its threshold tie"},
		{"a judgment stored before thresholds: its reasoning's first line",
			all(judge.StatusFail, 0.85, mentions, judge.Judgment{Name: "rubric", Status: judge.StatusFail, Score: judge.Unit(0.55), Prompt: "p", Reasoning: "score 0.55 < 0.7: no apology\nand more"}),
			"FAIL: decided by rubric (a model judge): score 0.55 < 0.7: no apology"},
		{"more than three deciders are counted",
			all(judge.StatusFail, 0, forbidden, forbidden, forbidden, forbidden, forbidden),
			"FAIL: decided by forbidden_tools cancel_order (a rule): called forbidden tool cancel_order (call 2); forbidden_tools cancel_order (a rule): called forbidden tool cancel_order (call 2); forbidden_tools cancel_order (a rule): called forbidden tool cancel_order (call 2); and 2 more"},
		{"a pass",
			all(judge.StatusPass, 0.95, mentions, rubricJudgment("tone", 0.9, 0.7)),
			"PASS: passed by contains refund (a rule): says refund; tone (a model judge): scored 0.9, above its threshold 0.7"},
		{"a conversation that did not complete",
			judge.Judgment{Name: "conversation", Status: judge.StatusError, Reasoning: "the conversation did not complete (TIMEOUT)"},
			"ERROR: could not be judged by conversation: the conversation did not complete (TIMEOUT)"},
		{"an abstention", judge.Abstained("nothing applies"), "ABSTAIN: no judge had anything to say"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := report.Decision(tt.verdict); got != tt.want {
				t.Errorf("Decision() =\n  %s\nwant\n  %s", got, tt.want)
			}
		})
	}
}

func TestScoreNote(t *testing.T) {
	traits, _ := judge.Number(1, 1, 3)
	tests := []struct {
		name string
		j    judge.Judgment
		want string
	}{
		{"a model judge below its threshold", rubricJudgment("tone", 0.6, 0.7), "scored 0.6, below its threshold 0.7"},
		{"at its threshold", rubricJudgment("tone", 0.7, 0.7), "scored 0.7, at its threshold 0.7"},
		{"on its own scale", judge.Judgment{Status: judge.StatusFail, Score: traits, Threshold: judge.AtLeast(1, 2)}, "scored 1 on 1..3, below its threshold 2"},
		{"a limit kept", judge.Judgment{Status: judge.StatusPass, Score: judge.Bool(true), Threshold: of(judge.AtMost(3, 3), "agent turns", "")}, "agent turns 3, within its limit 3"},
		{"dollars", judge.Judgment{Status: judge.StatusFail, Score: judge.Bool(false), Threshold: of(judge.AtMost(0.042, 0.01), "agent's cost", "USD")}, "agent's cost $0.042, above its limit $0.01"},
		{"bounds", judge.Judgment{Status: judge.StatusFail, Score: judge.Bool(false), Threshold: &judge.Threshold{Of: "characters", Value: 512, Min: new(20.0), Max: new(400.0)}}, "characters 512, above its maximum 400"},
		{"a composite's mean is no score to read", judge.Judgment{Name: "all", Status: judge.StatusFail, Score: judge.Unit(0.8), Parts: []judge.Judgment{forbidden, mentions}}, ""},
		{"a score without a threshold is the judge's own", judge.Judgment{Status: judge.StatusFail, Score: traits}, "score 1 (1..3)"},
		{"a boolean says no more than the status", forbidden, ""},
		{"an ERROR shows none", judge.Judgment{Status: judge.StatusError, Score: judge.Unit(0.5), Threshold: judge.AtLeast(0.5, 0.7)}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := report.ScoreNote(tt.j); got != tt.want {
				t.Errorf("ScoreNote() = %q, want %q", got, tt.want)
			}
		})
	}
}
