package conversation

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llmjudge"
	"github.com/gavelhq/gavel/telemetry"
)

// A Detector decides whether the agent's last reply asks for clarification
// instead of answering, and suggests an answer. *llmjudge.FollowUp is one.
type Detector interface {
	DetectIn(ctx context.Context, t *judge.Transcript) (llmjudge.FollowUpResult, error)
}

// Config says how to run a Script.
type Config struct {
	// CaseID and Trial are copied into the transcript.
	CaseID string
	Trial  int

	// SessionID is the id the session is opened (and revived) with.
	// Defaults to one made of the case id, the trial and random digits,
	// so that trials never share a conversation.
	SessionID string

	// Provider is the provider of the agent's model, when known: its
	// turns' spans say it (telemetry.Turn).
	Provider string

	// FollowUps detects requests for clarification; nil means the agent's
	// questions are never answered automatically.
	FollowUps Detector

	// Now tells the time. Defaults to time.Now.
	Now func() time.Time
}

// An Outcome is what running a Script produced.
type Outcome struct {
	// Transcript is the whole conversation; its Usage is the agent's.
	Transcript *judge.Transcript
	// SimulatedUser and FollowUps are what the simulated users and the
	// follow-up detector spent: reported apart from the agent's.
	SimulatedUser judge.Usage
	FollowUps     judge.Usage
}

// closeTimeout bounds closing the session at the end, which also happens
// after the trial's context ran out: an agent saves its checkpoint and an
// exec agent's process exits then.
const closeTimeout = 10 * time.Second

// Run drives a through s and returns the transcript. It never fails: an
// invalid script, an agent that errs or times out, a setup step or a
// simulated user that fails all end the conversation, with the transcript's
// Status and Error saying why and every turn so far kept. Cancelling ctx
// (or its deadline) stops it with status CANCELLED (or TIMEOUT).
func Run(ctx context.Context, a agent.Agent, s Script, c Config) Outcome {
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.SessionID == "" {
		c.SessionID = newSessionID(c.CaseID, c.Trial)
	}
	if !s.Now.IsZero() {
		ctx = agent.WithNow(ctx, s.Now)
	}
	d := &driver{agent: a, script: s, c: c, t: &judge.Transcript{
		CaseID:    c.CaseID,
		Trial:     c.Trial,
		Goal:      s.Goal(),
		SessionID: c.SessionID,
		Workspace: s.Workspace,
		Started:   c.Now(),
	}}
	err := d.run(ctx)
	if d.session != nil {
		closeCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), closeTimeout)
		if cerr := d.session.Close(closeCtx); cerr != nil && err == nil {
			err = fmt.Errorf("close the session: %w", cerr)
		}
		cancel()
	}
	d.t.Status, d.t.Error, d.t.Cause = status(ctx, err), "", ""
	if err != nil {
		d.t.Error, d.t.Cause = err.Error(), cause(d.t.Status, err)
	}
	d.t.Duration = c.Now().Sub(d.t.Started)
	d.out.Transcript = d.t
	return d.out
}

// status says how an execution that ended with err ended.
func status(ctx context.Context, err error) judge.ExecStatus {
	switch {
	case err == nil:
		return judge.ExecSuccess
	case errors.Is(ctx.Err(), context.DeadlineExceeded), errors.Is(err, context.DeadlineExceeded):
		return judge.ExecTimeout
	case ctx.Err() != nil, errors.Is(err, context.Canceled):
		return judge.ExecCancelled
	}
	return judge.ExecFailed
}

// cause classifies why an execution that ended with status and err
// failed (see judge.CauseOf): running out of the trial's time is a
// timeout, so the agent could not be reached in time.
func cause(status judge.ExecStatus, err error) judge.Cause {
	switch status {
	case judge.ExecTimeout:
		return judge.CauseUnreachable
	case judge.ExecCancelled:
		return judge.CauseCancelled
	}
	return judge.CauseOf(err)
}

func newSessionID(caseID string, trial int) string {
	b := make([]byte, 4)
	_, _ = rand.Read(b) // never fails
	if caseID == "" {
		caseID = "case"
	}
	return fmt.Sprintf("gavel-%s-t%d-%s", caseID, trial, hex.EncodeToString(b))
}

// A driver runs one script.
type driver struct {
	agent   agent.Agent
	script  Script
	c       Config
	t       *judge.Transcript
	session agent.Session
	out     Outcome
}

func (d *driver) run(ctx context.Context) error {
	if err := d.script.Validate(); err != nil {
		return fmt.Errorf("invalid conversation: %w", err)
	}
	if err := d.canRevive(); err != nil {
		return err
	}
	var err error
	if d.session, err = d.agent.Open(ctx, d.c.SessionID); err != nil {
		return fmt.Errorf("open session %q: %w", d.c.SessionID, err)
	}
	for i, r := range d.script.Rounds {
		if err := d.round(ctx, i+1, r); err != nil {
			return fmt.Errorf("round %d: %w", i+1, err)
		}
	}
	return nil
}

func (d *driver) round(ctx context.Context, n int, r Round) error {
	for k, step := range r.Setup {
		if err := step.Run(ctx); err != nil {
			return fmt.Errorf("setup step %d: %w", k+1, err)
		}
	}
	if r.Revive {
		if err := d.revive(ctx); err != nil {
			return err
		}
	}
	if r.User != nil {
		return d.simulate(ctx, n, r)
	}
	if r.Event != nil {
		if err := d.dispatch(ctx, n, *r.Event); err != nil {
			return err
		}
	} else if err := d.send(ctx, n, r.Prompt, "", r.Metadata); err != nil {
		return err
	}
	return d.followUp(ctx, n, r)
}

// canRevive checks, before anything is sent, that the agent can be
// revived if the script revives its session.
func (d *driver) canRevive() error {
	i := slices.IndexFunc(d.script.Rounds, func(r Round) bool { return r.Revive })
	if i < 0 {
		return nil
	}
	if _, err := agent.Revival(d.agent); err != nil {
		return fmt.Errorf("round %d revives the session, but %w", i+1, err)
	}
	return nil
}

// revive closes the session and opens it again with the same id, in the
// way the agent is revived (agent.Revive), and records how.
func (d *driver) revive(ctx context.Context) error {
	session := d.session
	d.session = nil
	reopened, how, err := agent.Revive(ctx, d.agent, session, d.c.SessionID)
	if err != nil {
		return err
	}
	d.session = reopened
	d.t.Revivals = append(d.t.Revivals, judge.Revival{BeforeTurn: len(d.t.Turns), Time: d.c.Now(), How: how})
	return nil
}

// send says text to the agent and records both turns. The user's turn is
// kept when the agent does not answer, and so is the partial reply an
// agent that failed part-way returns with its error.
func (d *driver) send(ctx context.Context, n int, text string, origin judge.Origin, meta map[string]string) error {
	d.t.Turns = append(d.t.Turns, judge.Turn{Role: judge.RoleUser, Content: text, Time: d.c.Now(), Round: n, Origin: origin})
	ctx, end := telemetry.StartTurn(ctx, telemetry.Turn{SessionID: d.c.SessionID, Round: n, Provider: d.c.Provider})
	reply, err := checkUsage(d.session.Send(ctx, agent.Message{Text: text, Metadata: meta}))
	end(replyUsage(reply), err)
	d.record(n, reply, err)
	if err != nil {
		return fmt.Errorf("the agent did not answer: %w", err)
	}
	return nil
}

func (d *driver) dispatch(ctx context.Context, n int, e agent.Event) error {
	dispatcher, ok := d.session.(agent.Dispatcher)
	if !ok {
		return fmt.Errorf("the agent cannot take the event %q: its sessions are not agent.Dispatchers", e.Name)
	}
	content := e.Name
	if len(e.Payload) > 0 {
		content += " " + string(e.Payload)
	}
	d.t.Turns = append(d.t.Turns, judge.Turn{Role: judge.RoleEvent, Content: content, Time: d.c.Now(), Round: n})
	ctx, end := telemetry.StartTurn(ctx, telemetry.Turn{SessionID: d.c.SessionID, Round: n, Provider: d.c.Provider})
	reply, err := checkUsage(dispatcher.Dispatch(ctx, e))
	end(replyUsage(reply), err)
	d.record(n, reply, err)
	if err != nil {
		return fmt.Errorf("the agent did not take the event %q: %w", e.Name, err)
	}
	return nil
}

// checkUsage refuses the usage of a reply that no reply can have
// (llm.Usage.Problem: a negative count, more tokens than any call spends,
// a cost that is not a number): the reply is kept without it, and the
// call fails, so that the count is an error rather than a number summed
// into the trial's usage and the run's budget. The exec and HTTP
// protocols refuse such counts as they read them; this holds every agent,
// one written in Go included, to the same.
func checkUsage(reply *agent.Reply, err error) (*agent.Reply, error) {
	if reply == nil {
		return nil, err
	}
	problem := llm.Usage(reply.Usage).Problem()
	if problem == "" {
		return reply, err
	}
	kept := *reply
	kept.Usage = judge.Usage{}
	refused := fmt.Errorf("the agent reported usage no reply can have: %s", problem)
	if err != nil {
		refused = fmt.Errorf("%w; and %w", err, refused)
	}
	return &kept, refused
}

// replyUsage is what a reply, which may be nil, says the agent spent.
func replyUsage(reply *agent.Reply) judge.Usage {
	if reply == nil {
		return judge.Usage{}
	}
	return reply.Usage
}

// record adds the agent's reply as a turn: a whole reply (err is nil), or
// the partial one an agent that failed with err returned, when it holds
// anything (text, tool calls, tokens, a finish reason).
func (d *driver) record(n int, reply *agent.Reply, err error) {
	if reply == nil {
		return
	}
	spent := reply.Usage
	spent.Unreported = false // a partial reply that says nothing of its tokens holds nothing
	if err != nil && reply.Text == "" && len(reply.ToolCalls) == 0 && spent == (judge.Usage{}) && reply.FinishReason == "" && len(reply.ModelFaults) == 0 {
		return
	}
	d.t.Turns = append(d.t.Turns, judge.Turn{
		Role:         judge.RoleAgent,
		Content:      reply.Text,
		Time:         d.c.Now(),
		Latency:      reply.Latency,
		ToolCalls:    reply.ToolCalls,
		Usage:        reply.Usage,
		FinishReason: reply.FinishReason,
		ModelFaults:  reply.ModelFaults,
		Round:        n,
	})
	d.t.Usage = d.t.Usage.Add(reply.Usage)
}

// followUp answers the agent's requests for clarification in round n, up
// to the script's limit: from the round's hints first, then with the
// detector's suggestions. Each reply is first checked without a model
// (llmjudge.AsksNothing): one that asks nothing costs nothing. Every
// decision is recorded on the reply's turn.
func (d *driver) followUp(ctx context.Context, n int, r Round) error {
	if d.c.FollowUps == nil {
		return nil
	}
	for used := range d.script.maxFollowUps() {
		reply := d.lastAgentTurn()
		if reply == nil {
			return nil
		}
		if why, ok := llmjudge.AsksNothing(reply.Content, len(reply.ToolCalls)); ok {
			reply.FollowUp = &judge.FollowUpCheck{By: judge.FollowUpByPreCheck, Reason: why}
			return nil
		}
		res, err := d.c.FollowUps.DetectIn(ctx, d.t.Round(n))
		d.out.FollowUps = d.out.FollowUps.Add(res.Usage)
		check := &judge.FollowUpCheck{By: judge.FollowUpByModel, NeedsFollowUp: res.NeedsFollowUp, Reason: res.Reasoning, Usage: res.Usage}
		reply.FollowUp = check
		if err != nil {
			check.Error = err.Error()
			return fmt.Errorf("detect a request for clarification: %w", err)
		}
		if !res.NeedsFollowUp {
			return nil
		}
		answer := res.Reply
		if used < len(r.Hints) {
			answer = r.Hints[used]
		}
		if strings.TrimSpace(answer) == "" {
			check.Reason = strings.TrimPrefix(check.Reason+"; no answer to give", "; ")
			return nil
		}
		if err := d.send(ctx, n, answer, judge.OriginFollowUp, r.Metadata); err != nil {
			return err
		}
	}
	return nil
}

// lastAgentTurn returns the transcript's last turn if the agent spoke it,
// else nil.
func (d *driver) lastAgentTurn() *judge.Turn {
	if len(d.t.Turns) == 0 || d.t.Turns[len(d.t.Turns)-1].Role != judge.RoleAgent {
		return nil
	}
	return &d.t.Turns[len(d.t.Turns)-1]
}

// simulate lets round n's simulated user talk to the agent until they are
// done.
func (d *driver) simulate(ctx context.Context, n int, r Round) error {
	start := len(d.t.Turns)
	if strings.TrimSpace(r.Prompt) != "" {
		if err := d.send(ctx, n, r.Prompt, "", r.Metadata); err != nil {
			return err
		}
	}
	for {
		next, err := r.User.Next(ctx, d.t.Turns[start:])
		d.out.SimulatedUser = d.out.SimulatedUser.Add(next.Usage)
		if err != nil {
			return err
		}
		if next.Message != "" {
			if err := d.send(ctx, n, next.Message, judge.OriginSimulated, r.Metadata); err != nil {
				return err
			}
		}
		if next.Done && len(d.t.Turns) == start {
			// Nothing was said to the agent: the simulator failed, not the
			// agent.
			return fmt.Errorf("simulated user %s ended the conversation before its first message (%s): nothing was said to the agent",
				r.User.Name(), next.Reason)
		}
		if next.Done {
			return nil
		}
	}
}
