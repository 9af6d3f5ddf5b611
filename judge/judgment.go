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
	// Composite names the rule by which a composite's status was
	// computed from its Parts, so that it can be computed again from them
	// (see Recomputed): All's, Any's, Not's or Soft's (Tiered and
	// EachTurn follow All's). It is "" for a judgment that is no
	// composite, and for one whose rule needs more than its parts (a
	// weighted mean's weights, a jury's policies: its Threshold records
	// the comparison that decided).
	Composite Composite `json:"composite,omitempty"`
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

// A Composite names the rule by which a composite judgment's status is
// computed from its parts.
type Composite string

// The rules of composites.
const (
	CompositeAll  Composite = "all"  // All's rule (Tiered's and EachTurn's too)
	CompositeAny  Composite = "any"  // Any's rule
	CompositeNot  Composite = "not"  // Not's rule, of its one part
	CompositeSoft Composite = "soft" // Soft's rule, of its one part
)

// Valid reports whether c is "" or one of the rules.
func (c Composite) Valid() bool {
	switch c {
	case "", CompositeAll, CompositeAny, CompositeNot, CompositeSoft:
		return true
	}
	return false
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
	field, err := j.invalid()
	switch {
	case err == nil:
		return nil
	case field == "status":
		return fmt.Errorf("status %w", err)
	}
	return fmt.Errorf("%s: %w", field, err)
}

// ValidateTree reports why j or any of its parts, at any depth, is not a
// valid judgment (see Validate), after the JSON path of the field at
// fault below j: "parts[1].score: ...". It is nil when every one is
// valid. A judgment read from a file is checked so before it is trusted.
func (j Judgment) ValidateTree() error {
	if field, err := j.invalid(); err != nil {
		return fmt.Errorf("%s: %w", field, err)
	}
	for i, p := range j.Parts {
		if err := p.ValidateTree(); err != nil {
			return fmt.Errorf("parts[%d].%w", i, err)
		}
	}
	return nil
}

// invalid returns the field that makes j invalid, and why; nil when j is
// valid (its parts are not looked at).
func (j Judgment) invalid() (field string, err error) {
	if !j.Status.Valid() {
		return "status", fmt.Errorf("%q is not one of PASS, FAIL, ABSTAIN, ERROR", j.Status)
	}
	if err := j.Score.Validate(); err != nil {
		return "score", err
	}
	if j.Threshold != nil {
		if err := j.Threshold.Validate(); err != nil {
			return "threshold", err
		}
	}
	if !j.Composite.Valid() {
		return "composite", fmt.Errorf("%q is not one of all, any, not, soft", j.Composite)
	}
	if (j.Composite == CompositeNot || j.Composite == CompositeSoft) && len(j.Parts) != 1 {
		return "parts", fmt.Errorf("a composite %s has one part, not %d", j.Composite, len(j.Parts))
	}
	return "", nil
}
