// Package conversation drives an agent under test through one trial of a
// case and records everything into a judge.Transcript.
//
// A Script is a case's conversation: rounds, each a user prompt, a
// proactive event, or a simulated user playing a persona. Between rounds
// the session can be closed and reopened with the same id (a revival,
// marked in the transcript), and setup steps (an SQL statement, a
// command) can change the agent's world first, such as writing past
// timestamps so that time-dependent behaviour is testable without waiting.
// When the agent asks for clarification instead of answering, a follow-up
// detector notices and the driver answers (from the case's hints, or with
// the detector's suggested reply), up to a limit; such answers are marked
// in the transcript.
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
