// Package report writes the result of a run (a *gavel.Run) for people and
// for tools: a text table for the terminal, JSON for machines, JUnit XML
// for CI test reporters, Markdown for a GitHub job summary, and one HTML
// page with every transcript.
//
//	f, err := report.ParseFormat("junit") // from a flag, say
//	...
//	err = report.Write(os.Stdout, f, run, report.Options{Version: version})
//
// Write builds the whole report in memory before writing it, so a report
// is never left half-written by an encoding error. A run without a suite
// is reported as suite "suite" with a threshold of 1.
//
// # Formats
//
// Text (the default of the CLI) follows the seeds: a table of cases (id,
// tools, response, overall outcome, trials passed, mean score, cost: tools
// and response grade the tool-call rules and the other checks apart), then the pass rate against the
// suite's threshold with PASS, FAIL or INCOMPLETE (a run that did not
// run every selected trial never passes; a line says why), the trials, the
// tokens and cost by role with the model calls and how many Gavel's cache
// answered ("Tokens: 1,234 (agent 1,000, judge 234; 12 calls, 4 answered
// from the cache)"), pass^k when every case ran several trials, and the
// flaky cases; then two small tables, each when it has rows: every
// criterion's mean and lowest score over the run (see
// gavel.CriterionStat), and the calls (when they were counted), tokens and
// cost of every model (gavel.Run.Models). Then, for each case that did not
// pass, what it was asked and expected, the tool calls it made round by
// round (failed calls marked), the reply, the error when the conversation
// did not complete, and the judges' reasons in one place: the verdict in
// words (Decision: which judge decided it, of what kind, and its number
// against its own threshold, never a composite's mean), then the branches
// of the verdict that failed, down to the judgments that say why. Skipped
// cases close the report, with the reason. It has no colour. Every report
// that shows a conversation marks the turns Gavel's cache answered: "agent
// (answered from the cache)", "agent (1 of 3 model calls answered from the
// cache)".
//
// JSON is the complete record: the suite, the numbers, and every trial
// with its transcript and verdict. Its schema is versioned
// ("schema_version", see SchemaVersion) and documented field by field in
// docs/report-json.md; JSONReport decodes it.
//
// JUnit is one <testsuite> with a <testcase> per case: FAIL and FLAKY
// cases are a <failure>, ERROR cases an <error> (typed with how the
// conversation ended, TIMEOUT say), SKIPPED cases <skipped>. The message is
// the first reason a judge gave; the body is the text report's detail of
// the case. It keeps to what Jenkins, GitLab and GitHub's reporters all
// read. An incomplete run adds a <testcase> of its own with an <error>
// typed INCOMPLETE, so that CI pages show it.
//
// Markdown is for $GITHUB_STEP_SUMMARY or a pull request comment: a ✅,
// ❌ or ⚠️ (incomplete) heading, the numbers and the flaky cases, a table of the cases and
// the text report's tables of criteria and models, then each case that did
// not pass folded in a <details> block with its conversation turn by turn
// (rounds, automatic follow-ups, simulated turns and revivals marked) and
// the judges' reasons. GitHub caps a job summary at 1 MiB; replies are cut
// short unless Options.Verbose is set.
//
// HTML is a single file with its CSS inline and no scripts or external
// assets, to attach to a CI run: the summary, the table of cases, the
// tables of criteria and models, and per case every trial's conversation
// and the whole tree of its verdict, folded in <details> blocks that
// start open where something went wrong.
//
// # Comparisons
//
// WriteComparison renders a gavel.Comparison of two runs (gavel compare)
// in text, Markdown, JSON or HTML: regressions first, then fixes, then how
// every criterion's mean score moved, then the cases that changed
// otherwise, erred, or are in one run only (docs/report-json.md).
//
// # Untrusted text
//
// Agent replies, tool results and judges' reasoning are untrusted, and so
// are names (of cases, judges and criteria, from suite files; of models):
// a reply may hold markup, "]]>", escape sequences or bytes that are not
// text.
// Every format but JSON drops the control characters and the characters
// XML 1.0 forbids, so an agent cannot colour a terminal or break an XML
// parser; then JUnit escapes with encoding/xml, HTML with html/template,
// and Markdown escapes both HTML and Markdown, so a reply can neither add
// markup nor break out of a table cell. JSON keeps the text exactly, as
// JSON strings.
package report
