package report

import (
	"bytes"
	"fmt"
	"io"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
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
	var spent gavel.RoleUsage
	for _, t := range cr.Trials {
		spent = spent.Add(t.Usage)
	}
	if f.Ran > 0 {
		fmt.Fprintf(&b, "  Trials:   %d of %d passed\n", f.Passed, f.Ran)
		total := spent.Total()
		roles := byRole(spent, func(u judge.Usage) string { return count(u.Tokens()) })
		fmt.Fprintf(&b, "  Tokens:   %s%s\n", count(total.Tokens()), inParens(joinNonEmpty("; ", roles, calls(total))))
		fmt.Fprintf(&b, "  Cost:     %s%s\n", cost(total), inParens(byRole(spent, cost)))
	}
	writeCaseDetail(&b, "  ", cr, true)
	_, err := w.Write(b.Bytes())
	return err
}
