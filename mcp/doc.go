// Package mcp is Gavel's client of MCP (Model Context Protocol) servers
// and its recording proxy. It is built on the official MCP Go SDK, which
// no other package of Gavel imports: the rest of Gavel sees llm.Tool and
// judge.ToolCall.
//
// # Client
//
// A Server describes an MCP server as a suite file does: a command to run
// over stdio, or a URL over streamable HTTP or the older HTTP+SSE
// transport, with headers (credentials) and a timeout. Connect opens a
// session with it; Client.Tools lists its tools as llm.Tool (name,
// description, JSON Schema of the arguments); Client.Call calls one and
// returns a judge.ToolCall, the record judges read:
//
//   - Result is the result as text: text blocks as they are, other content
//     summarised ("[image/png, 1234 bytes]"), one block per line, then the
//     structured content as JSON unless a text block already holds it.
//   - IsError is the tool's isError. A tool that reports a failure is a
//     failed call, returned with a nil error, as judges count it; only a
//     protocol or transport failure (an unknown tool, a server that went
//     away, a timeout) is a Go error.
//
// Errors a user can cause name what to fix: a command that is not in PATH;
// a command that exits before the MCP handshake, with its exit status and
// the tail of its stderr; a URL that cannot be reached (header values are
// never printed; a password in the URL is masked).
//
// A server's message is read up to 16 MiB, whatever the transport: a stdio
// line and an SSE event as the SDK bounds them, and a streamable server's
// JSON answer by the client's own HTTP transport. Past that, the session
// fails with an error saying so, and nothing more is read.
//
// A stdio server runs in a process group of its own (on Unix). Close
// closes its stdin, as the MCP spec asks, then sends SIGTERM after two
// seconds and SIGKILL after two more, and kills whatever is left of the
// group, so a wrapper's children (npx, a shell) do not outlive it.
//
// # Recording proxy
//
// Many agents do not report the tool calls they make. For those, Gavel
// sits between the agent and its real MCP server: NewProxy connects to the
// upstream server and returns a Proxy, itself an MCP server that exposes
// exactly the upstream's tools, forwards each call unchanged, returns the
// upstream's result unchanged (isError included) and tells a Recorder of
// the call. A Log is a Recorder that keeps calls until Take, turn by turn.
//
// The agent reaches the proxy over streamable HTTP (Proxy.Handler, served
// on a loopback port) or over stdio (Proxy.ServeStdio, for an agent given
// a command such as "gavel mcp-proxy ..."). The tool list is read once,
// when the proxy is made: tools the upstream adds or removes later are not
// followed. Only tools are forwarded, not resources, prompts, progress or
// the upstream's own requests (sampling, elicitation).
//
// # Tests
//
// The tests run against the official reference servers from npm,
// @modelcontextprotocol/server-everything (over stdio, SSE and streamable
// HTTP) and @modelcontextprotocol/server-memory (stdio), and against small
// servers built with the SDK in the test process. To run them all locally,
// with Node.js 20 or later, from the repository's root:
//
//	sh mcp/testdata/install-servers.sh
//	go test ./mcp
//
// The script installs pinned versions into mcp/testdata/servers (ignored
// by git); set GAVEL_MCP_SERVERS to an absolute path to use another npm
// prefix. Without node or the servers, the tests that need them skip;
// with GAVEL_REQUIRE_INTEGRATION=1 (as in CI) they fail instead. The HTTP
// servers listen on a free port of 127.0.0.1 only (testdata/loopback.cjs).
package mcp
