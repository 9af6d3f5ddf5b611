// Package conversation drives an agent under test through one trial of a
// case and records everything into a judge.Transcript.
//
// A Script is a case's conversation: rounds, each a user prompt, a
// proactive event, or a simulated user playing a persona. Between rounds
// the session can be revived: closed and reopened with the same id, the
// agent restarted in between if it is an agent.Restarter (agent.Revive),
// and marked in the transcript with how it was done. A script that revives
// an agent that cannot be revived (agent.Revival fails) ends before
// anything is sent, as an error. Setup steps (an SQL statement, a
// command) can change the agent's world first, such as writing past
// timestamps so that time-dependent behaviour is testable without waiting.
// When the agent asks for clarification instead of answering, a follow-up
// detector notices and the driver answers (from the case's hints, or with
// the detector's suggested reply), up to a limit; such answers are marked
// in the transcript. A reply without a question mark asks nothing: the
// detector's model is not asked (llmjudge.AsksNothing), so a reply that
// asks nothing costs nothing. Every decision, the pre-check's or the
// model's, is recorded on the reply's turn (judge.FollowUpCheck), and what
// the detector spent is reported apart, as Outcome.FollowUps.
//
// Every user turn and agent turn carries its round number, so that each
// round can be judged on its own with judge.Transcript.Round while its
// judges still see the earlier rounds as context.
//
// Run never fails: what went wrong (the agent crashed, timed out, cannot
// take events) is the transcript's status and error, with every turn up to
// that point kept, so that a runner reports it as an ERROR of this case
// and goes on with the others. An agent that failed part-way and returned
// its partial reply with the error (the builtin agent's tool calls and
// tokens before a model error, its turn limit, or a reply cut off by the
// token limit) has that reply recorded as its last turn, with the
// reply's finish reason.
package conversation
