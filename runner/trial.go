package runner

import (
	"context"
	"fmt"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/conversation"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/secret"
	"github.com/gavelhq/gavel/telemetry"
)

// converse runs the conversation of trial j.n of case j.c. The trial is
// judged later, by judgeTrial. Every model call of the conversation (the
// agent's, the simulated user's, the follow-up detector's) carries the
// trial's number in its context, so that a cache keeps trials apart, and
// a Tally, so that the trial knows what it spent on each model.
func converse(ctx context.Context, s *gavel.Suite, j job, c Config) gavel.Trial {
	var spent llm.Tally
	ctx = llm.WithTally(llm.WithTrial(ctx, j.n), &spent)
	a := j.c.Agent
	if a == nil {
		a = s.Agent
	}
	t := gavel.Trial{CaseID: j.c.ID, N: j.n}
	if a == nil {
		t.Transcript = &judge.Transcript{CaseID: j.c.ID, Trial: j.n, Status: judge.ExecFailed, Error: "no agent to run: the case and the suite name none"}
		return t
	}
	convCtx, cancel := context.WithTimeout(ctx, c.Timeout)
	out := conversation.Run(convCtx, a, j.c.Script, conversation.Config{
		CaseID:    j.c.ID,
		Trial:     j.n,
		Provider:  agentProvider(s, j.c),
		FollowUps: c.FollowUps,
		Now:       c.Now,
	})
	cancel()
	t.Transcript = out.Transcript
	t.Usage.Agent = out.Transcript.Usage
	t.Usage.FollowUp = out.FollowUps
	t.Usage.SimulatedUser = out.SimulatedUser
	t.Models = addModels(t.Models, spent.ByModel())
	return t
}

// replayed is a stored trial made ready to be judged again: its
// transcript, without the verdict, usage and models of its first judging
// (Config.Replay).
func replayed(stored gavel.Trial) gavel.Trial {
	t := gavel.Trial{CaseID: stored.CaseID, N: stored.N, Transcript: stored.Transcript}
	if t.Transcript == nil {
		t.Transcript = &judge.Transcript{CaseID: stored.CaseID, Trial: stored.N, Status: judge.ExecFailed,
			Error: "the stored trial has no transcript to judge"}
	}
	return t
}

// judgeTrial judges a trial's conversation for case j.c; started is when
// its conversation began. The judges' model calls carry the trial's
// number and a Tally in their context, as the conversation's do.
func judgeTrial(ctx context.Context, j job, t gavel.Trial, started time.Time, c Config) gavel.Trial {
	var spent llm.Tally
	ctx = llm.WithTally(llm.WithTrial(ctx, j.n), &spent)
	t.Verdict = verdict(ctx, j.c, t.Transcript, c.Timeout)
	t.Usage.Judge = t.Usage.Judge.Add(t.Verdict.Usage)
	t.Models = addModels(t.Models, spent.ByModel())
	t.Duration = c.Now().Sub(started)
	return t
}

// startTrial starts the span of trial j of suite s, in a context that
// carries the suite's secrets (secret.NewContext): the spans under it hide
// them, and so does judgeTraced in the trial. The context also carries
// the trial's scope and its case's (agent.WithScopes): the trial's ends
// with the span, once the trial is judged. A trial run alone (RunTrial)
// is its case's scope too.
func startTrial(ctx context.Context, s *gavel.Suite, j job) (context.Context, func(judge.Judgment, *judge.Transcript)) {
	trial := agent.NewScope(fmt.Sprintf("%s#%d", j.c.ID, j.n))
	ofCase := j.scope
	if ofCase == nil {
		ofCase = agent.NewScope(j.c.ID)
		trial.OnEnd(ofCase.End)
	}
	ctx, end := telemetry.StartTrial(agent.WithScopes(secret.NewContext(ctx, s.Secrets), trial, ofCase), j.c.ID, j.n)
	return ctx, func(v judge.Judgment, t *judge.Transcript) {
		end(v, t)
		trial.End()
	}
}

// judgeTraced judges a trial as judgeTrial does, in the trial's traced
// context (startTrial's), hides the suite's secrets in all of it (its
// transcript, verdicts, errors), and ends the trial's span with its
// verdict. Every trial a run returns, reports and stores comes through
// here: the judges saw it whole, nothing after them sees a secret.
func judgeTraced(ctx context.Context, end func(judge.Judgment, *judge.Transcript), j job, t gavel.Trial, started time.Time, c Config) gavel.Trial {
	t = judgeTrial(ctx, j, t, started, c)
	secret.FromContext(ctx).RedactValue(&t)
	end(t.Verdict, t.Transcript)
	return t
}

// verdict judges a transcript for its case. A conversation that did not
// complete is an ERROR and is not judged; so is a case without a judge,
// and a verdict of ABSTAIN: no judge had anything to say, which is no
// pass.
func verdict(ctx context.Context, cs *gavel.Case, t *judge.Transcript, timeout time.Duration) judge.Judgment {
	if t.Status != judge.ExecSuccess {
		return judge.Judgment{Name: "conversation", Status: judge.StatusError, Cause: t.Cause,
			Reasoning: fmt.Sprintf("the conversation did not complete (%s): %s", t.Status, t.Error)}
	}
	if cs.Judge == nil {
		return judge.Judgment{Name: "verdict", Status: judge.StatusError, Reasoning: "the case has no judges"}
	}
	// Judges get their own time: the conversation's may be spent.
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	return gavel.TrialVerdict(judge.Run(ctx, cs.Judge, t))
}

// addModels adds what more models spent to a trial's Models.
func addModels(models map[string]judge.Usage, more map[string]llm.Usage) map[string]judge.Usage {
	for model, u := range more {
		if models == nil {
			models = map[string]judge.Usage{}
		}
		models[model] = models[model].Add(judge.Usage(u))
	}
	return models
}

// agentProvider is the provider of the agent's model, as the suite names
// it (models.agent, or the builtin agent's model), for the turns' spans;
// "" for a case with an agent of its own, or when the suite names none.
func agentProvider(s *gavel.Suite, c *gavel.Case) string {
	if c.Agent != nil || s.Models == nil {
		return ""
	}
	ref, err := llm.ParseRef(s.Models["agent"])
	if err != nil {
		return ""
	}
	return ref.Provider
}
