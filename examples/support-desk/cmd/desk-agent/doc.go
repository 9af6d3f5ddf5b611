// Desk-agent serves the support-desk agent over HTTP: the same system
// prompt, model and order tools as the suite's builtin agent, behind the
// kind of small JSON API many teams put in front of their agents. It
// shows Gavel testing an agent through the http adapter, and recording
// the tool calls of an agent that does not report them: desk-agent
// answers with text only, and reaches its MCP server through the URL it
// is given, which http.yaml points at Gavel's recording proxy.
//
// Usage, from examples/support-desk (or a copy of it with a go.work
// naming a Gavel checkout):
//
//	go run github.com/gavelhq/gavel/examples/support-desk/cmd/desk-agent &
//	go run github.com/gavelhq/gavel/cmd/gavel run http.yaml
//
// It listens where http.yaml reaches it, the host and port of
// DESK_AGENT_URL (127.0.0.1:8787 when unset; -addr says otherwise), and
// reaches its tools at Gavel's proxy, DESK_TOOLS_ADDR (127.0.0.1:8788;
// -mcp gives another URL). It answers
//
//	POST /chat  {"session_id": "s-1", "message": "where's my order 12345?"}
//	       200  {"reply": "Order 12345 has shipped ...",
//	            "usage": {"input_tokens": 310, "output_tokens": 42, "cached_tokens": 0, "cost_usd": 0.0001}}
//
//	POST /open  {"session_id": "s-1"}    204: the session is open (resumed, if it was closed)
//	POST /close {"session_id": "s-1"}    204: the session is saved as a checkpoint and let go
//
// A session is opened by /open or its first message. Closing it saves its
// conversation as a checkpoint (in memory) and drops it; opening it again
// resumes from the checkpoint, so a session Gavel closes and reopens
// (revival) continues. The MCP server is connected on
// the first message, and again after a failure, so desk-agent may start
// before the server does. -model takes any model reference Gavel knows
// (script:models/agent.yaml by default, played offline; or, with a key
// in the environment, anthropic:claude-sonnet-4-5 and the like).
package main
