package report

import (
	"bytes"
	"strings"

	"github.com/gavelhq/gavel"
)

// Explain says why a case did not pass, as every report does: message is
// the first reason a judge gave, on one line; detail is the text report's
// account of the case (input, expectations, tool calls, conversation,
// error, the judges' reasons), every trial that did not pass included.
// For a case that passed, both are empty.
func Explain(cr *gavel.CaseResult) (message, detail string) {
	if cr.Outcome == gavel.Passed {
		return "", ""
	}
	var b bytes.Buffer
	writeCaseDetail(&b, "", cr, true)
	return problemMessage(cr), strings.TrimLeft(b.String(), "\n")
}
