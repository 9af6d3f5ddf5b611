package report

import (
	"bytes"
	"fmt"
	"io"

	"github.com/gavelhq/gavel"
)

// WriteCase writes one case of a run as text, turn by turn: what it asked
// and expected, then every trial, passed ones too, with its conversation,
// its tool calls with their arguments and results, and every judgment
// with its score and reasoning; and what the case's trials spent. It is
// what gavel show RUN CASE prints: the case alone, without the run's
// numbers.
func WriteCase(w io.Writer, cr *gavel.CaseResult) error {
	var b bytes.Buffer
	f := factsOf(cr)
	fmt.Fprintf(&b, "Case %s (%s)", oneLine(f.ID), cr.Outcome)
	if f.Name != "" {
		fmt.Fprintf(&b, ": %s", oneLine(f.Name))
	}
	b.WriteString("\n")
	if cr.Outcome == gavel.Skipped {
		fmt.Fprintf(&b, "  Skipped: %s\n", skipReason(cr))
	}
	if f.Ran > 0 {
		tokens, spent := usageLines(f.Usage)
		fmt.Fprintf(&b, "  Trials:   %s\n  Tokens:   %s\n  Cost:     %s\n", trialsPassed(f), tokens, spent)
	}
	writeCaseDetail(&b, "  ", cr, true)
	_, err := w.Write(b.Bytes())
	return err
}

// trialsPassed says how many of a case's judged trials passed: "2 of 3
// passed", "1 of 1 passed, 1 not judged", "1, not judged".
func trialsPassed(f caseFacts) string {
	switch {
	case f.Judged == 0:
		return fmt.Sprintf("%d, not judged", f.Ran)
	case f.Judged < f.Ran:
		return fmt.Sprintf("%d of %d passed, %d not judged", f.Passed, f.Judged, f.Ran-f.Judged)
	}
	return fmt.Sprintf("%d of %d passed", f.Passed, f.Judged)
}
