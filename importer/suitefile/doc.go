// Package suitefile writes a Gavel suite converted from another tool's
// evals (gavel import --from promptfoo, --from openai-evals): the suite's
// head as gavel.yaml and its cases as cases.yaml, with YAML comments that
// say what was approximated and what could not be converted, and a Report
// that lists the same for the command to print. Nothing the source said is
// dropped without a word: what has no Gavel equivalent stays in the files
// as a comment, and in the report.
//
// The converters build a Suite of ordered mappings (M), so that the files
// read in the order a person would write them.
package suitefile
