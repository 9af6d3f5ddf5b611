// Property-agent is the agent of the property-desk example: seed 000's
// property-management assistant (a system prompt, a model, and the
// listings tools of an MCP server reached by URL), speaking Gavel's exec
// protocol (docs/exec-protocol.md) on stdin and stdout.
//
// Usage, from examples/property-desk:
//
//	property-agent -db PATH -mcp URL [-transport streamable|sse] [-model REF] [-checkpoints sqlite|memory]
//
// It keeps its conversations in the SQLite file PATH, as the seed's agent
// keeps them in a checkpointer's database: a session's messages are
// saved when it is closed, and loaded when a session with the same id is
// opened, by this process or a later one. That is what lets a thread
// survive a restart of the agent, and what Gavel's revival tests: the
// suite runs the agent in per-session mode, so each revival closes the
// session, stops the process, and starts a new one that has only the
// database to go on. The tables, which a suite's sql checks can read:
//
//	threads(session_id TEXT PRIMARY KEY, created_at TEXT, updated_at TEXT)
//	messages(session_id TEXT, seq INTEGER, role TEXT, message TEXT)   message: llm.Message as JSON
//
// With -checkpoints memory it keeps them in memory instead, as a broken
// checkpointer would: they die with the process, and the suite's revival
// case fails (PROPERTY_CHECKPOINTS=memory in the suite's environment).
//
// Its replies carry text and usage, not tool calls, like the seed's API:
// the suite points -mcp at Gavel's recording proxy, which records every
// call. -model takes any model reference Gavel knows
// (script:models/agent.yaml by default, played offline; or, with a key
// in the environment, openai:gpt-5-mini and the like).
package main
