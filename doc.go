// Package gavel tests AI agents end to end: it runs an agent through real
// conversations and judges every turn, deterministic rules first, then LLM
// judges and juries, with verdicts computed in code.
//
// This root package holds the domain that ties the parts together: a
// Suite of Cases, each a conversation script (package conversation) and a
// judge, and the results of running one (Run, CaseResult, Trial, Stats).
// Package runner runs suites. The parts are:
//
//   - judge: the core vocabulary (Judge, Transcript, Judgment, Score) and
//     composition (All, Any, Not, Weighted, Soft, Tiered);
//   - jury: several judges, one verdict, by a voting strategy;
//   - rule: deterministic judges (text, style, JSON, tool calls, limits,
//     workspace files, commands, builds);
//   - rule/dbstate: the database-state judge (SQLite, PostgreSQL);
//   - judge/judgetest: table tests for judges;
//   - llm: one interface to language models, with retry, limit, cache and
//     meter middleware; llm/openai and llm/anthropic on the vendors' SDKs;
//     llm/llmtest with a scripted model and fake vendor servers;
//   - llmjudge: LLM judges (rubric, criteria, traits, correctness,
//     pairwise, follow-up) whose verdicts are computed in code;
//   - mcp: the MCP client and the recording proxy; sim: simulated users;
//   - agent: the agent under test and its adapters (Go, HTTP, exec,
//     builtin);
//   - conversation: one trial of a case, round by round.
//
// See README.md for the project structure and docs/decisions for the
// reasoning behind the design.
package gavel
