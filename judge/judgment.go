package judge

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// A Judgment is a judge's verdict on one transcript.
type Judgment struct {
	// Name is the judge's name, as reports show it.
	Name   string `json:"name,omitempty"`
	Status Status `json:"status"`
	// Score is what the verdict was computed from; the zero Score when the
	// judge does not score (Normalized then falls back to the status).
	Score     Score  `json:"score,omitzero"`
	Reasoning string `json:"reasoning,omitempty"`
	// Cause, on an ERROR judgment, says what kept the judge from judging
	// when it was a service that could not be reached or a run stopped at
	// once (see CauseOf); "" otherwise.
	Cause Cause `json:"cause,omitempty"`

	// Checks are named sub-assertions, each with its own outcome, for
	// finer-grained reports ("turn 2: 4 questions, at most 1 allowed").
	Checks []Check `json:"checks,omitempty"`

	// Findings are what soft judges noticed without failing: later, more
	// expensive judges get them as context (see Tiered and Soft).
	Findings []Finding `json:"findings,omitempty"`

	// Parts are the judgments a composite or a jury was computed from.
	Parts []Judgment `json:"parts,omitempty"`
	// DecidedBy says which rule produced the verdict of a composite: a
	// jury's strategy, or the tier that stopped a Tiered judge.
	DecidedBy string `json:"decided_by,omitempty"`
	// Threshold is the line the verdict was drawn at, when the judge
	// compared a number with one: a model judge's score against its
	// passing score, a jury's or a weighted mean against its threshold, a
	// rule's measure against its limit. Nil for judges that compare no
	// number (a tool-call rule, All), and in judgments stored before it
	// was recorded.
	Threshold *Threshold `json:"threshold,omitempty"`

	// ToolCalls are the tools a judge called while judging, in order: an
	// agent judge that inspected the outcome (read a file of the workspace,
	// queried a database) before its verdict. They are the judge's, not
	// the agent's under test: rules on the transcript's tool calls never
	// see them.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`

	// Prompt is the version of the prompt a model judge was given: a
	// short hash of its template ("" for judges without a prompt), so
	// that labels on its judgments can be told apart by prompt version.
	Prompt string `json:"prompt,omitempty"`

	// Usage is what judging cost, parts included.
	Usage    Usage         `json:"usage,omitzero"`
	Duration time.Duration `json:"duration_ns,omitempty"`
}

// Status is the outcome of a judgment.
type Status string

// The outcomes of a judgment.
const (
	// StatusPass: judged, and the transcript meets the criteria.
	StatusPass Status = "PASS"
	// StatusFail: judged, and the transcript does not meet the criteria.
	StatusFail Status = "FAIL"
	// StatusAbstain: the judge had nothing to say about this transcript (a
	// check that does not apply). Aggregates leave abstentions out.
	StatusAbstain Status = "ABSTAIN"
	// StatusError: the judge could not judge. Never read as a pass.
	StatusError Status = "ERROR"
)

// Valid reports whether s is one of the four statuses.
func (s Status) Valid() bool {
	switch s {
	case StatusPass, StatusFail, StatusAbstain, StatusError:
		return true
	}
	return false
}

// UnmarshalJSON refuses a status that is not one of the four.
func (s *Status) UnmarshalJSON(data []byte) error {
	var str string
	if err := json.Unmarshal(data, &str); err != nil {
		return err
	}
	if !Status(str).Valid() {
		return fmt.Errorf("status %q is not one of PASS, FAIL, ABSTAIN, ERROR", str)
	}
	*s = Status(str)
	return nil
}

// A Check is one named sub-assertion of a judgment.
type Check struct {
	Name    string `json:"name"`
	Passed  bool   `json:"passed"`
	Message string `json:"message,omitempty"`
}

// A Finding is something a soft judge noticed: not a failure, but context
// for the judges that weigh the transcript after it.
type Finding struct {
	// Judge names the judge that found it.
	Judge   string `json:"judge,omitempty"`
	Message string `json:"message"`
}

// String formats f as "judge: message".
func (f Finding) String() string {
	if f.Judge == "" {
		return f.Message
	}
	return f.Judge + ": " + f.Message
}

// Verdict returns a PASS or FAIL judgment with a boolean score.
func Verdict(passed bool, reasoning string) Judgment {
	status := StatusFail
	if passed {
		status = StatusPass
	}
	return Judgment{Status: status, Score: Bool(passed), Reasoning: reasoning}
}

// Errored returns an ERROR judgment: the judge could not judge, for the
// given reason.
func Errored(reason string) Judgment {
	return Judgment{Status: StatusError, Reasoning: reason}
}

// Abstained returns an ABSTAIN judgment: the judge has nothing to say, for
// the given reason.
func Abstained(reason string) Judgment {
	return Judgment{Status: StatusAbstain, Reasoning: reason}
}

// Passed reports whether the status is PASS.
func (j Judgment) Passed() bool { return j.Status == StatusPass }

// ShowsScore reports whether j's score is worth showing beside its status:
// j was judged (PASS or FAIL) and has a score that is not a boolean (a
// boolean says no more than the status). An ERROR or ABSTAIN shows none,
// whatever score it carries.
func (j Judgment) ShowsScore() bool {
	return (j.Status == StatusPass || j.Status == StatusFail) && !j.Score.IsZero() && j.Score.Kind != Boolean
}

// Normalized returns the value on 0..1 that aggregates of j use, and
// whether j counts in an aggregate at all. A PASS or FAIL counts: with its
// score when it has one, else as 1 or 0. An ABSTAIN or ERROR does not
// count.
func (j Judgment) Normalized() (float64, bool) {
	switch j.Status {
	case StatusPass, StatusFail:
		if !j.Score.IsZero() {
			return j.Score.Normalized(), true
		}
		if j.Status == StatusPass {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

// Summary formats j for a parent's reasoning: "name: reasoning", with the
// first line of the reasoning only (a panic's reasoning carries its stack,
// which stays in the part).
func (j Judgment) Summary() string {
	reason, _, _ := strings.Cut(j.Reasoning, "\n")
	switch {
	case j.Name == "":
		return reason
	case reason == "":
		return j.Name
	}
	return j.Name + ": " + reason
}

// Validate reports why j is not a valid judgment, or nil.
func (j Judgment) Validate() error {
	if !j.Status.Valid() {
		return fmt.Errorf("status %q is not one of PASS, FAIL, ABSTAIN, ERROR", j.Status)
	}
	if err := j.Score.Validate(); err != nil {
		return fmt.Errorf("score: %w", err)
	}
	if j.Threshold != nil {
		if err := j.Threshold.Validate(); err != nil {
			return fmt.Errorf("threshold: %w", err)
		}
	}
	return nil
}
