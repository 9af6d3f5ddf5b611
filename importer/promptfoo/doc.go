// Package promptfoo converts a promptfoo configuration into a Gavel suite
// (gavel import --from promptfoo; docs/migrate.md says what each concept
// becomes):
//
//   - providers: the builtin agent's model (openai, anthropic, ollama; an
//     OpenAI-compatible apiBaseUrl), the others listed to run in turn;
//     a provider's function tools become mock tools;
//   - prompts × tests × the values of list vars: cases, the prompt
//     rendered with the test's vars (a subset of Nunjucks), a chat
//     prompt's system message the agent's system prompt;
//   - assertions: rules (text, JSON, cost, latency, tool calls), LLM
//     judges (rubric, correctness), and all or weighted compositions for
//     assert-sets and tests with a threshold; defaultTest's go to every
//     case, metric names the judge, weight 0 makes it soft.
//
// What has no Gavel equivalent (JavaScript and Python assertions,
// embeddings, providers Gavel does not have, template statements) is in
// the suite's report and, as a comment, in the suite; nothing is dropped
// without a word.
package promptfoo
