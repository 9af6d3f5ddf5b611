// Package importer reads transcripts that Gavel did not record (or that
// another Gavel did) into cases and trials, so that they can be stored
// as a run and judged again (gavel import, then gavel rejudge), and so
// that their user turns can become cases of a suite (WriteCases).
//
// Three formats are read (docs/import.md documents each field):
//
//   - FormatOpenAI: OpenAI chat-format conversations, JSON Lines, one
//     conversation a line: {"messages": [...], "metadata": {...}} or a
//     bare list of messages, with tool_calls and role: tool results.
//   - FormatOTLP: OpenTelemetry GenAI spans in OTLP JSON, as an OTLP/HTTP
//     JSON exporter or the collector's file exporter writes them; spans
//     are grouped into conversations by gen_ai.conversation.id, else by
//     trace id.
//   - FormatGavel: Gavel's own JSON report (docs/report-json.md), with
//     every trial's transcript and verdict.
//
// Read reads every file whole before it returns: a file with any
// problem gives an error listing every problem found, each at its
// file:line (a JSON Lines line) or file: JSON path, and nothing at all
// is returned, so that a caller stores all of an import or none of it.
//
// People's labels travel in label files too (docs/labels.md), CSV or
// JSON Lines: ReadLabels reads labels for the results database (gavel
// labels import), WriteLabels writes them (gavel labels export), and
// ExternalChecks pairs an outside data set's judge outputs with its
// people's labels (gavel calibrate --judgments --labels).
package importer
