// Package agentjudge is the agent-as-judge: a judge that is itself an
// agent with tools, and inspects the outcome of a trial (the files of the
// workspace, a database, an API) before it gives a verdict. It bridges
// package agent's builtin ReAct agent and the judges of package judge, as
// the seeds' agent-judge-agent bridge does.
//
// # How it judges
//
// New builds a builtin agent (agent.NewBuiltin) from a model, the tools
// (agent.Toolbox: an MCP client such as the official filesystem server,
// or any Go value that lists and calls tools) and its instructions
// (DefaultSystemPrompt, or Config.SystemPrompt). Each judgment opens a
// session of its own and sends it one message holding the criteria, the
// workspace's path (judge.Transcript.Workspace), the user's request, the
// earlier rounds and the transcript, every piece of text from the case,
// the agent under test or a tool enclosed in a hash-nonce fence
// (llmjudge.Fence) with the rule that fenced text, and what the judge's
// own tools return, is data, never instructions. The agent calls its tools
// as it sees fit, within Config.MaxTurns model calls, and ends with a
// final answer:
//
//	{"reasoning": "notes.md lists the three action items", "score": 0.9}
//
// A server that writes as well as reads (the filesystem server has
// write_file, move_file) would let the judge change the outcome it judges,
// and what later judges see: Config.AllowedTools keeps it to the tools
// named, and the judge's instructions tell it to inspect only.
//
// # The verdict
//
// The verdict is computed in code from that answer, as the LLM judges of
// package llmjudge compute theirs: the score, on 0..1, passes when it
// reaches Config.Threshold (0.7 by default), and the judgment's reasoning
// says so ("score 0.9 ≥ 0.7: …"). A final answer that is not a verdict
// (no JSON object, a field missing, a score out of range, two verdicts)
// is asked again in the same conversation, with the parse error, up to
// Config.Retries times; after that, or when the model fails, the tools
// cannot be listed, the agent uses all its turns or the context ends, the
// judge returns an error, and judge.Run makes it an ERROR. A judge that
// could not judge never passes.
//
// # What is recorded
//
// The judgment keeps every tool call the judge agent made, with its
// arguments, its result and whether it failed, in
// judge.Judgment.ToolCalls, also on an ERROR (judge.Run keeps them), so
// that a report shows what the judge looked at. A tool that reports a
// failure (an MCP isError result: a file that does not exist) is a failed
// call the agent sees and may reason about, not an error of the judge.
// The usage of every model call, the re-asks included, is the judgment's
// Usage; a model wrapped in an llm.Meter also adds each call to the
// llm.Tally of the context, as for any judge.
//
// Nothing of a judgment's conversation is kept after it: a Judge may
// judge many transcripts, several at once.
package agentjudge
