// Package openaievals converts an OpenAI Evals registry entry into a Gavel
// suite (gavel import --from openai-evals): the eval's YAML (in the
// registry's evals/ directory), its samples (JSON Lines in data/) and, for
// a model-graded eval, its spec (in modelgraded/).
//
// Each sample is a case: its input the case's message (a chat's system
// message the agent's system prompt), its ideal answer the judge's:
//
//   - Match: the reply starts with an ideal answer (starts_with);
//   - Includes: the reply contains one (contains, ignore_case as the
//     eval's arg says);
//   - FuzzyMatch: the reply contains one, case ignored (approximated:
//     FuzzyMatch also drops punctuation and articles, and passes when the
//     reply is inside the ideal answer);
//   - JsonMatch: the reply is JSON equal to one (json_schema with const);
//   - ModelBasedClassify: a rubric judge whose criteria are the spec's
//     prompt, filled in with the sample, and whose scores are the spec's
//     choice_scores, brought to 0..1.
//
// What cannot be converted is reported and kept as a comment, as package
// suitefile does for every converter.
package openaievals
