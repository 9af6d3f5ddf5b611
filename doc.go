// Package gavel tests AI agents end to end: it runs an agent through real
// conversations and judges every turn, deterministic rules first, then LLM
// judges and juries, with verdicts computed in code.
//
// This root package will hold the domain (suites, cases, runs, results)
// that ties the parts together. Today the parts are:
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
//     pairwise, follow-up) whose verdicts are computed in code.
//
// See README.md for the project structure and docs/decisions for the
// reasoning behind the design.
package gavel
