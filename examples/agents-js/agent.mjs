// The support-desk agent written with the OpenAI Agents SDK for
// JavaScript (@openai/agents), as a team would write it, driven by Gavel
// through the exec protocol (docs/exec-protocol.md): a JSON request a
// line on stdin, a JSON answer a line on stdout, logs on stderr.
//
// It knows nothing of Gavel but two addresses, as any agent is
// configured: its model's (OPENAI_BASE_URL, an OpenAI-compatible
// endpoint) and its tools' MCP server (ORDERS_MCP_URL). The suite points
// the first at Gavel's model endpoint and the second at Gavel's mock
// tools, so the agent runs offline, every call counted and recorded.
import { createInterface } from "node:readline";
import OpenAI from "openai";
import {
  Agent,
  MCPServerStreamableHttp,
  OpenAIChatCompletionsModel,
  run,
  setTracingDisabled,
} from "@openai/agents";

setTracingDisabled(true); // no traces sent to OpenAI: Gavel traces the run

const model = new OpenAIChatCompletionsModel(
  new OpenAI({
    baseURL: process.env.OPENAI_BASE_URL,
    apiKey: process.env.OPENAI_API_KEY || "unused",
    maxRetries: 2, // the SDK's own retries, which honour Retry-After
  }),
  process.env.AGENT_MODEL || "gpt-5-mini",
);

let orders; // the MCP server, connected at the first message
async function tools() {
  if (!orders) {
    const server = new MCPServerStreamableHttp({ url: process.env.ORDERS_MCP_URL, name: "orders" });
    await server.connect();
    orders = server;
  }
  return orders;
}

const sessions = new Map(); // session id -> the conversation so far

async function answer(req) {
  switch (req.type) {
    case "open":
      if (!sessions.has(req.session)) sessions.set(req.session, []);
      return { type: "ok" };
    case "close":
      return { type: "ok" }; // shared mode: the conversation stays in memory
    case "reset":
      sessions.clear();
      return { type: "ok" };
    case "message": {
      const agent = new Agent({
        name: "support-desk",
        instructions: "You are a customer-support agent. Be brief. Ask for explicit confirmation before cancelling.",
        model,
        mcpServers: [await tools()],
      });
      const history = sessions.get(req.session) ?? [];
      const result = await run(agent, [...history, { role: "user", content: req.text }], { maxTurns: 6 });
      sessions.set(req.session, result.history);
      return { type: "reply", text: String(result.finalOutput ?? "") };
    }
    default:
      return { type: "error", message: `unknown request type ${JSON.stringify(req.type)}` };
  }
}

const write = (obj) => process.stdout.write(JSON.stringify(obj) + "\n");

for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const req = JSON.parse(line);
  answer(req).then(
    (ans) => write({ ...ans, id: req.id }),
    (err) => {
      console.error(err);
      write({ type: "error", id: req.id, message: String(err?.message ?? err) });
    },
  );
}
await orders?.close();
