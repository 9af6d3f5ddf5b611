package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gavelhq/gavel"
)

// A Store keeps what Gavel learns: case definitions, version by version,
// and every run with its trials, judgments, scores and usage, plus what
// people say of the judgments (labels). Implementations are safe for
// concurrent use, also by several processes at once (the CLI and the web
// app on one database). A Store may also be a Migrator or an Accounts.
//
// Every method that returns a RunInfo gives a running run whose process
// is gone the status Abandoned (see RunInfo.Abandoned), and the
// gavel.Run of an abandoned run is incomplete (gavel.StopInterrupted):
// it does not pass. The database keeps it running, so that a run whose
// process was only paused shows as running again once it is heard of.
type Store interface {
	// SaveCase records a case's definition for a suite and returns its
	// version: the latest version if the definition, name and tags are
	// unchanged, else a new one. Old runs keep pointing at the version
	// they ran. A new Source alone (the case moved in its file) updates
	// the latest version in place.
	SaveCase(ctx context.Context, c CaseDef) (CaseVersion, error)
	// Cases returns the latest version of every case of a suite (every
	// suite when suite is ""), by suite and case id.
	Cases(ctx context.Context, suite string) ([]CaseVersion, error)
	// CaseHistory returns every version of one case, oldest first.
	CaseHistory(ctx context.Context, suite, caseID string) ([]CaseVersion, error)

	// CreateRun records a run as it starts (status running) and returns it
	// with its ID set, and its Heartbeat set to now unless given.
	CreateRun(ctx context.Context, r RunInfo) (RunInfo, error)
	// SaveTrial records a finished trial of a run at once, so that a crash
	// loses only the trials in flight, and counts as a heartbeat of the
	// run. Saving a trial again (same case and number) replaces it,
	// keeping its labels. An unknown run is ErrNotFound.
	SaveTrial(ctx context.Context, runID string, t TrialRecord) error
	// Heartbeat records that a running run's process is alive (now). The
	// process running a run calls it every HeartbeatInterval, so that a
	// run nobody is running any more is shown as Abandoned. An unknown
	// run is ErrNotFound.
	Heartbeat(ctx context.Context, runID string) error
	// FinishRun records how a run ended: its status (a final one), its end
	// time, the cases' outcomes (skipped ones included) and its
	// statistics. Trials of f.Run not saved yet are saved. With f.Run nil
	// it closes a run from its saved trials (a run that crashed). Calling
	// it again overwrites.
	FinishRun(ctx context.Context, runID string, f RunEnd) error

	// ImportRun records a whole finished run at once (gavel import): its
	// info, as CreateRun takes it, and its end, whose Run holds every
	// case and trial, as FinishRun takes it. It is one transaction: when
	// any part fails, nothing of the run is stored. It returns the run's
	// info with its ID set.
	ImportRun(ctx context.Context, r RunInfo, end RunEnd) (RunInfo, error)

	// Run returns a run whole: its info and every case result with its
	// trials, transcripts and judgments, in suite order.
	Run(ctx context.Context, id string) (*StoredRun, error)
	// RunVerdicts is Run without the transcripts: every trial's
	// Transcript is nil, and the rest is as Run gives it (verdicts,
	// usage, durations, outcomes, statistics). It is for views of a whole
	// run that show no conversation, for less than Run: transcripts are
	// usually the bulk of a run. The cases of a run that never finished
	// have no input (Run takes theirs from the transcripts).
	RunVerdicts(ctx context.Context, id string) (*StoredRun, error)
	// RunCase returns one case of a run, as Run would give it, and its
	// neighbours, reading that case's trials only: for a view of one
	// case, whose cost must not grow with the run. A run, or a case the
	// run does not have, is ErrNotFound.
	RunCase(ctx context.Context, runID, caseID string) (*StoredCase, error)
	// RunInfo returns a run's info and summary, without its trials.
	RunInfo(ctx context.Context, id string) (RunInfo, error)
	// Runs lists runs, newest first.
	Runs(ctx context.Context, f RunFilter) ([]RunInfo, error)
	// Trend returns a suite's pass rate and per-criterion means over its
	// last n finished runs (passed, failed or incomplete: an errored run
	// measured nothing), oldest first.
	Trend(ctx context.Context, suite string, n int) ([]TrendPoint, error)
	// TrendTag is Trend over the same runs restricted to the cases that
	// carry tag (as the run saw them): each point's pass rate is the mean
	// of those cases' pass rates, its cost their trials' cost, and its
	// criteria the means of their trials' scores, as gavel.Stats would
	// give for a run of those cases alone. Runs where no case with the
	// tag ran are left out.
	TrendTag(ctx context.Context, suite, tag string, n int) ([]TrendPoint, error)

	// AddLabel records a person's label on a judgment of a trial, which
	// must be there: it becomes their current label on that judgment (one
	// per author, run, case, trial and judgment), and the one it
	// replaces, if any, is kept in the history (LabelHistory) and no
	// longer counted. A label saying what the current one says (category,
	// verdict, score and comment) changes nothing: the current one is
	// returned. A label without a time is given now. The trial's verdict
	// must have the labelled judgment, and the category must be on its
	// scale: the error of a label that is not wraps a
	// *gavel.LabelRefusal (see gavel.CheckLabel).
	AddLabel(ctx context.Context, l Label) (Label, error)
	// AddLabels is AddLabel for many labels at once, in one transaction:
	// every label is recorded, or none (an import). An error about one
	// label is a *LabelError, which says which.
	AddLabels(ctx context.Context, ls []Label) ([]Label, error)
	// DeleteLabel deletes a current label: it stays in the history,
	// marked deleted, and no label of its author on that judgment is
	// current any more. A label that is not current (unknown, replaced,
	// deleted) is ErrNotFound.
	DeleteLabel(ctx context.Context, id int64) error
	// Labels returns the current labels of a run's trials, oldest first.
	Labels(ctx context.Context, runID string) ([]Label, error)
	// LabelHistory returns every label ever given on a run's trials,
	// current, replaced and deleted, oldest first.
	LabelHistory(ctx context.Context, runID string) ([]Label, error)
	// LabelChecks returns the current labels on the judgments of the
	// trials f selects, each beside the labelled judgment's status, score
	// and category (see gavel.JudgedCategory), oldest first: what
	// gavel.Calibrate measures a judge with. A label on a judgment the
	// verdict does not have (a path it lacks) is left out; one off the
	// judgment's scale (recorded before AddLabel refused such labels) is
	// marked OffScale.
	LabelChecks(ctx context.Context, f LabelFilter) ([]gavel.LabelCheck, error)

	Close() error
}

// A Migrator is a Store whose schema can be examined and brought up to
// date explicitly (gavel migrate); stores migrate when they open anyway.
type Migrator interface {
	Version(ctx context.Context) (current, latest int, err error)
	Migrate(ctx context.Context) error
}

// ErrNotFound is returned, wrapped, for a run or a case that is not there.
var ErrNotFound = errors.New("not found")

// A CaseDef is a case's definition as a suite file holds it.
type CaseDef struct {
	Suite string
	ID    string
	Name  string
	Tags  []string
	// Definition is the case in the suite format (YAML), as written.
	Definition []byte
	// Source says where the definition lives: "cases.yaml:12" for a case
	// from a file, "" for one written in the database (the web app).
	Source string
}

// A CaseVersion is one saved version of a case.
type CaseVersion struct {
	CaseDef
	// Version counts the case's versions from 1.
	Version int
	// Key identifies this version in the store; trials point at it.
	Key     int64
	Created time.Time
}

// Status is a run's state.
type Status string

// The states of a run.
const (
	Running Status = "running"
	Passed  Status = "passed" // it ran every selected trial and met its threshold
	Failed  Status = "failed" // it ran every selected trial and missed it
	// Incomplete: it was stopped before every selected trial ran (SIGINT,
	// SIGTERM, a budget, fail-fast, a database that stopped taking
	// writes): RunInfo.Stopped and StopReason say what stopped it. Runs
	// stored as "interrupted" by Gavel before schema 4 read as incomplete.
	Incomplete Status = "incomplete"
	Errored    Status = "errored" // the agent or a provider was unreachable for the whole run
	// Abandoned is never stored: it is how a running run whose process is
	// gone is shown (a crash, kill -9, a lost machine). Its saved trials
	// are kept; gavel run --resume carries it on.
	Abandoned Status = "abandoned"
)

// Statuses are the states a run may be listed by, in the order a filter
// offers them.
var Statuses = []Status{Running, Passed, Failed, Incomplete, Errored, Abandoned}

// ParseStatus returns the status named s, one of Statuses, or none for
// an empty s. "interrupted", the name of incomplete runs before schema 4,
// is Incomplete.
func ParseStatus(s string) (Status, error) {
	switch st := Status(s); {
	case st == "interrupted":
		return Incomplete, nil
	case st == "" || slices.Contains(Statuses, st):
		return st, nil
	}
	return "", fmt.Errorf("%q: want running, passed, failed, incomplete, errored or abandoned", s)
}

// HeartbeatInterval is how often the process running a run calls
// Store.Heartbeat.
const HeartbeatInterval = 30 * time.Second

// StaleAfter is how long a running run may go unheard of (no heartbeat,
// no trial saved) before it is shown as abandoned, wherever it ran.
const StaleAfter = 10 * HeartbeatInterval

// RunInfo is what describes a run, without its trials.
type RunInfo struct {
	// ID is set by CreateRun.
	ID        string
	Suite     string
	SuiteFile string
	// Label is what the person who started the run called it (gavel run
	// --label "prompt v2", the web app's Start a run form): words for
	// people, not unique, "" when none was given. It leads the run's Name.
	// It is not the run label of shards (--run-label), which is a key.
	Label string
	// Who and what started the run: a person (or a CI actor), the
	// machine, and where the code came from (git, else the CI's
	// variables).
	StartedBy string
	Host      string
	GitCommit string
	GitBranch string
	// GitDirty says the tree the run ran from had changes git had not
	// committed (Gavel's own outputs aside): GitCommit is not all of it.
	GitDirty bool
	// Filters are the selection (--tag, --id, --changed-since), as given.
	Filters []string
	// Models are the model references by role.
	Models map[string]string
	// Settings are the run's settings (trials, concurrency, threshold,
	// budget), as name → value.
	Settings  map[string]string
	Threshold float64

	Status  Status
	Started time.Time
	Ended   time.Time // zero while running

	// PID and Machine say which process runs the run, on which machine
	// (ThisMachine: the host name and, on Linux, the process namespace),
	// so that a run whose process is gone is shown as Abandoned at once
	// on that machine. Zero and "" when unknown.
	PID     int
	Machine string
	// Heartbeat is when the run's process was last heard of: the run's
	// creation, its last trial saved, or its last Heartbeat.
	Heartbeat time.Time

	// Stopped and StopReason say what stopped an incomplete run and why
	// (gavel.Run's), set by FinishRun.
	Stopped    gavel.StopCause
	StopReason string

	// Continues is the id of the run this one carries on (gavel run
	// --resume or --retry-errors): the trials kept from it were copied
	// into this run, and that run is left as it was. "" for a fresh run.
	Continues string
	// Rejudges is the id of the run whose stored transcripts this run
	// judged again (gavel rejudge), without calling the agent: its trials
	// hold that run's transcripts and new verdicts, and that run is left
	// as it was. "" for a run that talked with its agent.
	Rejudges string

	// Stats are the run's numbers, set by FinishRun (pass rate, cases by
	// outcome, usage by role and model, per-criterion means).
	Stats gavel.Stats
	// SoFar counts what a run that has not finished (running or
	// abandoned) has saved so far: it has no Stats, and no pass rate,
	// yet. Zero for a finished run, and for the RunInfo CreateRun returns.
	SoFar Progress
}

// Progress is what a run still running has saved: its trials, and the
// cases they are trials of.
type Progress struct {
	Trials int `json:"trials"`
	Cases  int `json:"cases"`
}

// String is how lists show a run not finished instead of its cases:
// "3 (88 trials so far)".
func (p Progress) String() string {
	trials := "trials"
	if p.Trials == 1 {
		trials = "trial"
	}
	return fmt.Sprintf("%d (%d %s so far)", p.Cases, p.Trials, trials)
}

// A TrialRecord is a finished trial and the case version it ran.
type TrialRecord struct {
	// CaseKey is the CaseVersion.Key of the case's definition; 0 when
	// the case was not saved.
	CaseKey int64
	Trial   gavel.Trial
}

// RunEnd is how a run ended.
type RunEnd struct {
	Status Status
	Ended  time.Time
	// Run holds the case results: their outcomes and skip reasons are
	// stored (their trials were saved one by one), and the statistics
	// become the run's summary.
	Run *gavel.Run
}

// A StoredRun is a run read back.
type StoredRun struct {
	Info RunInfo
	// Run has the case results in suite order, each with a Case holding
	// what reports show (id, name, description, tags, source, input,
	// expectations), and its trials.
	Run *gavel.Run
}

// A StoredCase is one case of a run read back (Store.RunCase).
type StoredCase struct {
	// Info is the run's.
	Info RunInfo
	// Result is the case's result as StoredRun.Run holds it: its Case as
	// reports show it, its trials whole, its outcome.
	Result gavel.CaseResult
	// Prev and Next are the ids of the cases before and after it in the
	// run's order, "" at either end: to step through a run a case at a
	// time without reading it whole.
	Prev, Next string
}

// RunFilter selects runs; zero fields select everything.
type RunFilter struct {
	Suite  string
	Status Status
	Branch string
	// Limit caps how many runs are returned. Defaults to 50.
	Limit int
	// Before lists runs started before this time, for paging.
	Before time.Time
}

// A TrendPoint is one run of a suite's trend.
type TrendPoint struct {
	RunID   string
	Started time.Time
	// Label, GitBranch, GitCommit, GitDirty and StartedBy are the run's
	// (RunInfo's), to name it (Name).
	Label, GitBranch, GitCommit string
	GitDirty                    bool
	StartedBy                   string
	// Threshold is the pass rate the run had to reach, as it was stored
	// (RunInfo.Threshold): each run's own, since a suite's threshold
	// changes over its history.
	Threshold float64
	// PassRate is the run's (gavel.Stats.PassRate): nil when nothing was
	// judged in it (a run imported without verdicts), which is no 0%.
	PassRate *float64
	CostUSD  float64
	// CostUnpriced is true when a model without a price took part:
	// CostUSD is then a lower bound. CostUnreported is true when some of
	// what the run spent was never reported (judge.Usage.Unreported):
	// CostUSD is a lower bound then too.
	CostUnpriced, CostUnreported bool
	// Criteria are the run's per-criterion means, by name.
	Criteria map[string]float64
}

// Info is the run of the point, as far as the point knows it: its id,
// start, threshold and what names it.
func (p TrendPoint) Info() RunInfo {
	return RunInfo{ID: p.RunID, Started: p.Started, Threshold: p.Threshold, Label: p.Label,
		GitBranch: p.GitBranch, GitCommit: p.GitCommit, GitDirty: p.GitDirty, StartedBy: p.StartedBy}
}

// A Label is a person's word on a judgment: the category they put it in
// on its scale (pass or fail; win, tie or loss; 4 of 1..5), or whether
// it was correct or wrong, with perhaps their own score and a comment.
// Labels are kept for calibrating judges. A person has one current label
// per judgment; the labels it replaced are its history.
type Label struct {
	ID     int64
	RunID  string
	CaseID string
	Trial  int
	// Judgment names the judgment labelled: its path of names from the
	// verdict ("tiered/jury/helpfulness"), "" for the verdict itself.
	Judgment string
	// Category is the person's category of the judgment's scale
	// ("pass", "fail", "win", "tie", "4"). A label has a Category or a
	// Verdict.
	Category string
	// Verdict is "correct" or "wrong" (labels before categories); Score,
	// if set, is the person's own score, 0..1.
	Verdict string
	Score   *float64
	Comment string
	Author  string
	Created time.Time
	// Replaced is when the label stopped being current (it was replaced
	// or deleted); zero for a current label. Deleted says it was deleted.
	Replaced time.Time
	Deleted  bool
}

// A LabelError is AddLabels' error about one of its labels: the Index
// of the label in the batch, so that an import can say which line of its
// file it came from.
type LabelError struct {
	Index int
	Err   error
}

func (e *LabelError) Error() string { return e.Err.Error() }
func (e *LabelError) Unwrap() error { return e.Err }

// LabelFilter selects the labels of LabelChecks; zero fields select
// everything.
type LabelFilter struct {
	// Suite keeps the labels of that suite's runs.
	Suite string
	// RunsSince keeps the labels of runs started at or after it;
	// LabelsSince, the labels given at or after it.
	RunsSince, LabelsSince time.Time
	// Judgment keeps the labels of one judgment path ("" for every
	// judgment; "." for the verdicts alone).
	Judgment string
	// Prompt keeps the labels of judgments whose judge's prompt hash
	// (judge.Judgment.Prompt, of the labelled judgment or one of its
	// parts) starts with it.
	Prompt string
	// Queue keeps the labels of the trials of one annotation queue (see
	// Queues), by its id.
	Queue int64
}

// SettingImported is the setting (RunInfo.Settings) of a run gavel import
// stored: what it was imported from, "FILE (format)", several files
// separated by ", ".
const SettingImported = "imported"

// ImportedFrom says what an imported run was imported from ("chats.jsonl
// (openai)"); "" for a run Gavel ran.
func (r RunInfo) ImportedFrom() string { return r.Settings[SettingImported] }

// The settings (RunInfo.Settings) of a run's gate, as its suite said
// (gavel.GateConfig): what an INCONCLUSIVE verdict does, and the
// confidence level of its intervals. A run stored without them has the
// defaults.
const (
	SettingInconclusive = "inconclusive"
	SettingConfidence   = "confidence"
)

// SettingBaseline is the setting of a run gated on a baseline too (gavel
// run --baseline): what named the baseline, a run id, a run label or a
// git branch.
const SettingBaseline = "baseline"

// SettingQuarantineAfter is the setting of a run whose suite quarantines
// its unstable cases (gavel.FlakyConfig.QuarantineAfter).
const SettingQuarantineAfter = "quarantine_after"

// FlakyConfig is how the run's suite treats its unstable cases, from its
// settings.
func (r RunInfo) FlakyConfig() gavel.FlakyConfig {
	n, _ := strconv.Atoi(r.Settings[SettingQuarantineAfter])
	return gavel.FlakyConfig{QuarantineAfter: max(0, n)}
}

// GateConfig is the run's gate configuration, from its settings.
func (r RunInfo) GateConfig() gavel.GateConfig {
	c := gavel.GateConfig{Inconclusive: gavel.Inconclusive(r.Settings[SettingInconclusive])}
	c.Confidence, _ = strconv.ParseFloat(r.Settings[SettingConfidence], 64)
	return c
}

// Git is where a run ran, as much as is known: "branch@commit", the
// commit cut to 8 characters, and "+dirty" after it when the tree had
// changes not committed (GitDirty); "" when neither branch nor commit is
// known.
func (r RunInfo) Git() string {
	commit := r.GitCommit
	if len(commit) > 8 {
		commit = commit[:8]
	}
	g := strings.Trim(r.GitBranch+"@"+commit, "@")
	if g != "" && r.GitDirty {
		g += "+dirty"
	}
	return g
}

// Name is how a person tells the run from others: its label, where it
// ran (Git) and who started it, as many as are known, joined by " · ":
// "prompt v2 · main@4f2a9c1e · by ada". Without a label and git, the id
// leads: "20261121-101500-a1b2 · by ada", or the id alone.
func (r RunInfo) Name() string {
	var parts []string
	for _, p := range []string{r.Label, r.Git()} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		parts = append(parts, r.ID)
	}
	if r.StartedBy != "" {
		parts = append(parts, "by "+r.StartedBy)
	}
	return strings.Join(parts, " · ")
}

// NamedByID reports whether the run's Name starts with its id: nothing
// better is known of it, and a page need not show the id twice.
func (r RunInfo) NamedByID() bool { return r.Label == "" && r.Git() == "" }

// Caption names the run in comparisons: its id, and its Name when that
// says more: "20261121-101500-a1b2 (prompt v2 · main@4f2a9c1e · by ada)".
func (r RunInfo) Caption() string {
	if r.NamedByID() {
		return r.Name()
	}
	return r.ID + " (" + r.Name() + ")"
}

// Abandoned reports whether a run stored as running is abandoned at now:
// its process is gone (it ran on this machine and its PID is not alive),
// or it has not been heard of for StaleAfter (a process on another
// machine, or a PID reused by another program). Stores call it as they
// read runs; a run that is not running is never abandoned.
func (r RunInfo) Abandoned(now time.Time) bool {
	switch {
	case r.Status != Running:
		return false
	case now.Sub(r.Heartbeat) > StaleAfter:
		return true
	}
	return r.PID > 0 && r.Machine != "" && r.Machine == ThisMachine() && !processAlive(r.PID)
}
