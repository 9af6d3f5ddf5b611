package rule

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/gavelhq/gavel/judge"
)

// The JSON a program judge reads and writes, version ProgramInputVersion
// (docs/program-judges.md documents every field).

// ProgramCase is what a program judge is told of the case it judges.
type ProgramCase struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	// Input is what the case asks the agent: its input, or its first
	// round's prompt.
	Input    string            `json:"input"`
	Tags     []string          `json:"tags"`
	Metadata map[string]string `json:"metadata"`
}

type programCaseKey struct{}

// WithProgramCase returns ctx carrying the case being judged, for the
// program judges that judge its trials. Without it, a program is told
// only the case's id and input, as the transcript knows them.
func WithProgramCase(ctx context.Context, c ProgramCase) context.Context {
	return context.WithValue(ctx, programCaseKey{}, c)
}

// programInput is what a program judge reads: once mode's stdin, or a
// line of persistent mode's, with an id.
type programInput struct {
	ID            string            `json:"id,omitempty"`
	Version       int               `json:"version"`
	Case          ProgramCase       `json:"case"`
	Trial         int               `json:"trial"`
	Round         int               `json:"round"`
	Goal          string            `json:"goal"`
	Context       []programTurn     `json:"context"`
	Turns         []programTurn     `json:"turns"`
	ToolCalls     []programToolCall `json:"tool_calls"`
	FinalResponse string            `json:"final_response"`
	ExecStatus    string            `json:"exec_status"`
	ExecError     string            `json:"exec_error"`
	Workspace     string            `json:"workspace"`
	Findings      []string          `json:"findings"`
}

type programTurn struct {
	Role      string            `json:"role"`
	Content   string            `json:"content"`
	Round     int               `json:"round"`
	Origin    string            `json:"origin"`
	ToolCalls []programToolCall `json:"tool_calls"`
}

type programToolCall struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Result    string          `json:"result"`
	IsError   bool            `json:"is_error"`
	Injected  string          `json:"injected"`
}

// programInputOf is what a program judging t is given: the case from
// ctx (WithProgramCase), the soft findings of earlier judges from ctx
// (judge.FindingsFrom), and round, the round t is.
func programInputOf(ctx context.Context, t *judge.Transcript, round int) programInput {
	if t == nil {
		t = &judge.Transcript{}
	}
	c, ok := ctx.Value(programCaseKey{}).(ProgramCase)
	if !ok {
		c = ProgramCase{ID: t.CaseID, Input: t.Goal}
	}
	if c.Tags == nil {
		c.Tags = []string{}
	}
	if c.Metadata == nil {
		c.Metadata = map[string]string{}
	}
	in := programInput{
		Version: ProgramInputVersion, Case: c, Trial: t.Trial, Round: round, Goal: t.Goal,
		Context: programTurns(t.Context), Turns: programTurns(t.Turns), ToolCalls: programCalls(t.ToolCalls()),
		FinalResponse: t.Response(), ExecStatus: string(t.Status), ExecError: t.Error, Workspace: t.Workspace,
		Findings: []string{},
	}
	for _, f := range judge.FindingsFrom(ctx) {
		in.Findings = append(in.Findings, f.String())
	}
	return in
}

func programTurns(turns []judge.Turn) []programTurn {
	out := make([]programTurn, len(turns))
	for i, t := range turns {
		out[i] = programTurn{Role: string(t.Role), Content: t.Content, Round: t.Round, Origin: string(t.Origin), ToolCalls: programCalls(t.ToolCalls)}
	}
	return out
}

func programCalls(calls []judge.ToolCall) []programToolCall {
	out := make([]programToolCall, len(calls))
	for i, c := range calls {
		args := c.Arguments
		if len(args) == 0 || !json.Valid(args) {
			args = json.RawMessage("null")
		}
		out[i] = programToolCall{ID: c.ID, Name: c.Name, Arguments: args, Result: c.Result, IsError: c.IsError, Injected: c.Injected}
	}
	return out
}

// marshal writes the input as one line of JSON.
func (in programInput) marshal() ([]byte, error) {
	b, err := json.Marshal(in)
	if err != nil {
		return nil, fmt.Errorf("write the trial as JSON: %w", err)
	}
	return append(b, '\n'), nil
}

// programAnswer is what a program judge answers.
type programAnswer struct {
	Status    *string        `json:"status"`
	Score     *float64       `json:"score"`
	Reasoning *string        `json:"reasoning"`
	Checks    []programCheck `json:"checks"`
}

type programCheck struct {
	Name    *string `json:"name"`
	Passed  *bool   `json:"passed"`
	Message *string `json:"message"`
}

// persistentAnswer is a line of persistent mode's stdout.
type persistentAnswer struct {
	ID string `json:"id"`
	programAnswer
}

// read turns an answer into a judgment, or says what is wrong with it;
// withID says the answer is a line of persistent mode, with its id.
func (p *Program) read(answer []byte, withID bool) (judge.Judgment, error) {
	answer = bytes.TrimSpace(answer)
	if len(answer) == 0 {
		return judge.Judgment{}, errors.New("the program answered nothing on stdout: a judge writes its judgment there, as one JSON object")
	}
	if answer[0] != '{' {
		return judge.Judgment{}, errors.New("the answer is not a JSON object (stdout is for the judgment only; write logs to stderr)")
	}
	dec := json.NewDecoder(bytes.NewReader(answer))
	dec.DisallowUnknownFields()
	var a programAnswer
	var err error
	if withID {
		var pa persistentAnswer
		err = dec.Decode(&pa)
		a = pa.programAnswer
	} else {
		err = dec.Decode(&a)
	}
	if err != nil {
		return judge.Judgment{}, fmt.Errorf("the answer is not the JSON of a judgment (status, score, reasoning, checks): %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return judge.Judgment{}, errors.New("more output after the answer's JSON object: stdout is for the judgment only, once; write logs to stderr")
	}
	return p.judgment(a)
}

// judgment checks an answer's fields and makes its judgment.
func (p *Program) judgment(a programAnswer) (judge.Judgment, error) {
	j := judge.Judgment{Name: p.name}
	if a.Reasoning != nil {
		j.Reasoning = *a.Reasoning
	}
	for i, c := range a.Checks {
		switch {
		case c.Name == nil || *c.Name == "":
			return judge.Judgment{}, fmt.Errorf("checks[%d] has no name", i)
		case c.Passed == nil:
			return judge.Judgment{}, fmt.Errorf("checks[%d] (%s) does not say whether it passed: give \"passed\": true or false", i, *c.Name)
		}
		check := judge.Check{Name: *c.Name, Passed: *c.Passed}
		if c.Message != nil {
			check.Message = *c.Message
		}
		j.Checks = append(j.Checks, check)
	}
	status := ""
	if a.Status != nil {
		status = strings.ToLower(*a.Status)
		switch status {
		case "pass", "fail", "abstain", "error":
		default:
			return judge.Judgment{}, fmt.Errorf("status %q is not one of pass, fail, abstain and error", *a.Status)
		}
	}
	switch status {
	case "error":
		return judge.Judgment{}, fmt.Errorf("the program could not judge: %s", strings.TrimSpace(j.Reasoning))
	case "abstain":
		if a.Score != nil {
			return judge.Judgment{}, fmt.Errorf("status abstain with a score, %v: an abstention has none", *a.Score)
		}
		j.Status = judge.StatusAbstain
		return j, nil
	}
	if a.Score == nil {
		switch {
		case status == "":
			return judge.Judgment{}, errors.New("neither status nor score: give \"status\": \"pass\", \"fail\" or \"abstain\", or a \"score\" from 0 to 1")
		case p.threshold != nil:
			return judge.Judgment{}, fmt.Errorf("status %s and no score: the judge has a threshold, %v, so it wants a score from 0 to 1 to hold to it", status, *p.threshold)
		}
		j.Status = judge.StatusFail
		if status == "pass" {
			j.Status = judge.StatusPass
		}
		j.Score = judge.Bool(status == "pass")
		return j, nil
	}
	score, err := judge.Number(*a.Score, 0, 1)
	if err != nil {
		return judge.Judgment{}, fmt.Errorf("score %v is not from 0 to 1", *a.Score)
	}
	j.Score = score
	if p.threshold == nil {
		if status == "" {
			return judge.Judgment{}, fmt.Errorf("a score, %v, and no status: give \"status\", or a threshold to the judge in the suite to read the score by", *a.Score)
		}
		j.Status = judge.StatusFail
		if status == "pass" {
			j.Status = judge.StatusPass
		}
		return j, nil
	}
	j.Threshold = judge.AtLeast(*a.Score, *p.threshold)
	met := j.Threshold.Met()
	switch {
	case status == "pass" && !met:
		return judge.Judgment{}, fmt.Errorf("status pass with a score of %v, below the threshold %v: the two disagree", *a.Score, *p.threshold)
	case status == "fail" && met:
		return judge.Judgment{}, fmt.Errorf("status fail with a score of %v, at or above the threshold %v: the two disagree", *a.Score, *p.threshold)
	}
	j.Status = judge.StatusFail
	if met {
		j.Status = judge.StatusPass
	}
	return j, nil
}
