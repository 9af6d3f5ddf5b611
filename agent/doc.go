// Package agent drives the agent under test, whatever it is written in.
//
// An Agent opens sessions by id; a Session takes user messages and
// returns replies (text, the tool calls the agent made, usage, latency)
// and closes. Opening an id again resumes that conversation: Gavel tests
// revival by closing a session in the middle of a thread and reopening it.
// Optional abilities are found by type assertion, as database/sql/driver
// does: a Session that is a Dispatcher takes proactive events (the agent
// speaks first), an Agent that is a Resetter can forget everything.
//
// # Events
//
// The exec and builtin agents take events, and an HTTP agent with an event
// URL: the builtin agent's model reads an event as a user message,
// "[event NAME] PAYLOAD" (EventText), so its system prompt should say what
// events mean. A Func and an HTTP agent without an event URL take none; an
// EventTaker says so before a case sends one (TakesEvents), so a suite
// that would send them one is refused when it is built.
//
// # Revival
//
// A revival is real only if closing the session reaches the agent. Revive
// revives a session as its agent says (a Reviver): the builtin agent from
// the checkpoint its Close saved, an exec agent by close and open requests
// (in per-session mode, in a new process), an HTTP agent by its close and
// open requests. An HTTP agent without a close request, and a Func, cannot
// be revived: Revive refuses, and so does a conversation that would
// revive them, rather than testing nothing. WithRestart revives any agent
// by restarting its process or server with a command (a Restarter), so
// that what it kept only in memory is gone, as after a deploy.
//
// # Adapters
//
//   - Func: an agent written in Go, in process.
//   - HTTP: an agent behind an HTTP API; request and reply fields map
//     onto an existing API without code.
//   - Exec: a subprocess speaking JSON Lines on stdin and stdout (see
//     docs/exec-protocol.md), so an agent in any language fits.
//   - Builtin: an agent defined in configuration: a system prompt, a
//     model, MCP tools and a ReAct loop, with a checkpoint saved on close.
//
// # Replies as they came
//
// A session that fails part-way returns, with its error, the reply it had
// (the tool calls made, the tokens spent), and the conversation records
// it: the builtin agent does on a model error, on a reply cut off by the
// token limit and at its turn limit. The builtin agent reports each
// reply's FinishReason (see judge.Turn.FinishReason); it does not run tool
// calls from a reply cut off by the token limit (finish_reason length),
// and a call whose arguments are not a JSON object is a failed call the
// model is told about, sent back to the provider with {} as its
// arguments. The HTTP and exec adapters read at most 16 MiB of an answer
// (a larger one is an error), and a reply whose text, token counts or
// cost have the wrong type is an error naming the field.
package agent
