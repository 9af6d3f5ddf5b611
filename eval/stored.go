package eval

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/gavelhq/gavel/report"
	"github.com/gavelhq/gavel/store"
)

// An UnknownRunError is a run the results database does not have.
type UnknownRunError struct{ ID string }

func (e *UnknownRunError) Error() string {
	return fmt.Sprintf("no run %q (gavel runs lists them)", e.ID)
}

// LoadRun reads run id, whole, from the results database at dsn (as
// OpenStore takes it). A run it does not have is an *UnknownRunError.
func LoadRun(ctx context.Context, dsn, id string) (*store.StoredRun, error) {
	st, err := OpenStore(ctx, dsn)
	if err != nil {
		return nil, fmt.Errorf("the results database: %w", err)
	}
	defer st.Close()
	stored, err := st.Run(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, &UnknownRunError{id}
	}
	return stored, err
}

// RunHeader says who ran a run, where and when, and, on lines of their
// own, which run it carries on or rejudges, and why it is abandoned,
// when it is.
func RunHeader(r store.RunInfo) string {
	s := fmt.Sprintf("Run %s (%s)", r.ID, r.Status)
	if r.Label != "" {
		s = fmt.Sprintf("Run %s, %q (%s)", r.ID, r.Label, r.Status)
	}
	if g := r.Git(); g != "" {
		s += " on " + g
	}
	if r.StartedBy != "" {
		s += " by " + r.StartedBy
	}
	if r.Continues != "" {
		s += fmt.Sprintf("\nCarries on run %s (%s): the trials kept from it were copied here; it is left as it was.",
			r.Continues, cmp.Or(r.Settings["continues_with"], "--resume"))
	}
	if from := r.ImportedFrom(); from != "" {
		s += "\nImported from " + from + " (gavel import): transcripts recorded elsewhere."
	}
	if r.Rejudges != "" {
		s += fmt.Sprintf("\nRejudges run %s: its stored transcripts were judged again here (gavel rejudge), without calling the agent; it is left as it was.", r.Rejudges)
	}
	if id := r.Settings["replay_tools"]; id != "" {
		s += fmt.Sprintf("\nReplays the tool results of run %s: its agent's tool calls were answered from that run's, not by the live servers (agent.replay_tools, --replay-tools).", id)
	}
	if r.Status == store.Running {
		s += fmt.Sprintf("\nRunning: %d trials of %d cases saved so far; no verdict yet.", r.SoFar.Trials, r.SoFar.Cases)
	}
	if r.Status == store.Abandoned {
		s += fmt.Sprintf("\nAbandoned: the process that ran it (pid %d on %s) is gone, or was not heard of since %s. "+
			"What it saved is below; gavel run --resume %s runs the rest.", r.PID, cmp.Or(r.Host, "its machine"), r.Heartbeat.Local().Format("2006-01-02 15:04:05"), r.ID)
	}
	return s
}

// WriteRuns writes a table of runs: id, suite, status, pass rate,
// cases, cost, when, label, git and the run each carries on or
// rejudges. A run not finished has no pass rate or cost yet.
func WriteRuns(w io.Writer, runs []store.RunInfo) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RUN\tSUITE\tSTATUS\tPASS RATE\tCASES\tCOST\tSTARTED\tLABEL\tGIT\tFROM")
	for _, r := range runs {
		rate, cases, cost := "-", r.SoFar.String(), "-"
		if r.Status != store.Running && r.Status != store.Abandoned {
			rate = "unknown" // nothing was judged
			if r.Stats.PassRate != nil {
				rate = fmt.Sprintf("%.1f%%", 100**r.Stats.PassRate)
			}
			cases, cost = strconv.Itoa(r.Stats.CaseCount()), report.Cost(r.Stats.Usage.Total())
		}
		from := r.Continues
		if r.Rejudges != "" {
			from = "rejudges " + r.Rejudges
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.Suite, r.Status, rate,
			cases, cost, r.Started.Local().Format("2006-01-02 15:04"),
			strings.Join(strings.Fields(r.Label), " "), r.Git(), from) // a label on one line
	}
	return tw.Flush()
}

// WriteFlaky writes the unstable cases of store.Flaky over a number of
// runs, as a table or, with asJSON, as JSON.
func WriteFlaky(w io.Writer, list []store.FlakyCase, runs int, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if list == nil {
			list = []store.FlakyCase{}
		}
		return enc.Encode(list)
	}
	if len(list) == 0 {
		_, err := fmt.Fprintf(w, "No case flipped in its suite's last %d finished runs.\n", runs)
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SUITE\tCASE\tFLIP RATE\tRUNS\tOUTCOMES\tQUARANTINED")
	for _, c := range list {
		outcomes := make([]string, len(c.Outcomes))
		for i, o := range c.Outcomes {
			outcomes[i] = string(o)
		}
		fmt.Fprintf(tw, "%s\t%s\t%.0f%%\t%d\t%s\t%s\n", report.OneLine(c.Suite), report.OneLine(c.CaseID), 100*c.FlipRate, len(c.Outcomes),
			strings.Join(outcomes, " "), report.OneLine(c.Quarantined))
	}
	return tw.Flush()
}

// WriteQuarantines writes a table of quarantined cases.
func WriteQuarantines(w io.Writer, list []store.Quarantine) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SUITE\tCASE\tBY\tREASON\tSINCE")
	for _, x := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", report.OneLine(x.Suite), report.OneLine(x.CaseID), report.OneLine(x.By),
			report.OneLine(x.Reason), x.Created.Local().Format("2006-01-02"))
	}
	return tw.Flush()
}

// ParseDate reads a date (2026-11-01, midnight UTC) or an RFC 3339 time.
func ParseDate(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("%q is not a date like 2026-11-01 or a time like 2026-11-01T09:00:00Z", s)
}
