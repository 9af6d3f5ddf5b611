// Package judge is Gavel's core vocabulary: the Judge interface, the
// Transcript a judge reads, the Judgment it returns, the Score a judgment
// carries, and the ways judges compose into bigger judges.
//
// It uses the standard library only, so that every other part of Gavel
// (rules, LLM judges, juries, the runner, the store, the web app) can share
// these types without pulling anything else in. A test keeps it that way.
//
// # Judges
//
// A Judge has one method: it reads a Transcript and returns a Judgment, or
// an error when it could not judge at all. Func adapts a plain function:
//
//	short := judge.Func(func(ctx context.Context, t *judge.Transcript) (judge.Judgment, error) {
//		return judge.Verdict(len(t.Response()) < 500, "answer is short"), nil
//	})
//
// # Verdicts
//
// A Judgment has one of four statuses. PASS and FAIL mean the judge judged.
// ABSTAIN means it had nothing to say (aggregates leave it out). ERROR means
// it could not judge: a provider down, a command missing, malformed model
// output. ERROR is never read as a pass. An ERROR's Cause says when it was
// a service that could not be reached or a run stopped at once, as
// CauseOf classifies the error where it happened: Gavel's exit code tells
// "the judge's provider was down" from "it answered badly" by it.
//
// The verdict is always computed in code from scores and statuses; a model
// may weigh, but never decides by itself. A judge that decides by comparing
// a number with a line (a score with its passing score, a mean with its
// threshold, a measure with its limit) records both in the judgment's
// Threshold, so that reports say "scored 0.6, below its threshold 0.7"
// from data, not from the reasoning's text.
//
// # Scores
//
// A Score is boolean, numerical (a value between bounds) or categorical (a
// label from an allowed set, each label mapped to 0..1). Every kind
// normalises to 0..1, so judges of different kinds aggregate. Values out of
// range are an error when the score is built, never silently clamped.
//
// # Composition
//
// Composites are judges too, so they nest anywhere a judge fits:
//
//   - All: every part must pass; all parts run, so every failure is listed.
//   - Any: one part must pass; stops at the first PASS.
//   - Not: inverts PASS and FAIL.
//   - Named: names a judge for reports.
//   - Weighted: weighted mean of normalised scores against a threshold.
//   - Soft: a FAIL becomes a finding handed to later judges, not a failure.
//   - Tiered: cheap tiers first; a FAIL or ERROR stops the expensive tiers
//     from running, so a hard-rule failure spends no judge tokens.
//
// Run calls a judge and always returns a Judgment: an error, a panic or an
// invalid judgment becomes an ERROR, which keeps the judge's name, usage and
// duration, since a judge that could not judge may still have spent tokens;
// composites cut short by their context return what their parts spent. A
// judgment returned together with an error is an ERROR whatever its status.
//
// In a composite, a FAIL outweighs an ERROR (the outcome is known either
// way), an ERROR outweighs a PASS (the missing verdict might have been a
// fail), and abstentions are left out; a composite with nothing but
// abstentions abstains. Juries, with their voting strategies, live in
// package jury.
//
// # Transcripts
//
// A Transcript holds everything about one trial: the goal, the turns, the
// tool calls of each agent turn, the final response, the session id,
// where and how it was revived, the workspace, how the execution ended, how long it
// took and what it cost. An agent turn also records, as a FollowUpCheck,
// whether the reply was found to ask for clarification, by a pre-check
// (no question mark: no model asked) or by the follow-up detector's model.
// It round-trips through JSON, so a stored transcript can be judged again
// without calling the agent.
//
// # Usage
//
// Usage counts tokens and dollars. When a model without a price took
// part, Usage.Unpriced is set and CostUSD counts only the priced calls: a
// lower bound, which reports show as such, never as a plain amount.
package judge
