package rule

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
)

// The modes of a program judge (ProgramConfig.Mode).
const (
	// ProgramOnce runs the program once per judgment: the trial as JSON
	// on its stdin, the judgment as JSON on its stdout.
	ProgramOnce = "once"
	// ProgramPersistent runs one long-lived process that judges trial
	// after trial, speaking JSON Lines: a trial per line on its stdin, a
	// judgment per line on its stdout, matched by id.
	ProgramPersistent = "persistent"
)

// ProgramInputVersion is the version of the JSON a program judge reads
// (docs/program-judges.md). It changes when a field changes meaning or
// goes; new fields are added without changing it.
const ProgramInputVersion = 1

const (
	// defaultProgramTimeout bounds one judgment of a program judge.
	defaultProgramTimeout = time.Minute
	// maxProgramAnswer bounds the answer a program judge writes: once
	// mode's stdout, or a line of persistent mode's.
	maxProgramAnswer = 16 << 20
	// programStopGrace is how long a persistent process has to exit once
	// its stdin is closed before its process group is killed.
	programStopGrace = 5 * time.Second
)

// ProgramConfig configures NewProgram.
type ProgramConfig struct {
	// Args are the program and its arguments, run directly, not through a
	// shell. A name without a slash is looked up in PATH; a relative path
	// with one is relative to Dir.
	Args []string
	// Dir is the directory the program runs in; the trial's workspace,
	// when there is one, is in its input. Defaults to Gavel's own.
	Dir string
	// Env holds KEY=VALUE entries added to the environment the program
	// inherits; they win over inherited ones.
	Env []string
	// Mode is ProgramOnce (a process per judgment) or ProgramPersistent
	// (one process judging every trial, in JSON Lines). Defaults to
	// ProgramOnce.
	Mode string
	// Timeout bounds each judgment: in once mode the process, killed at
	// the timeout; in persistent mode the wait for an answer, after which
	// the process is killed and the next judgment starts another.
	// Defaults to 1 minute.
	Timeout time.Duration
	// Threshold, when set, is the least score that passes, 0..1: the
	// program may answer a score alone, and a status it gives must agree
	// with its score. Without it the program answers a status, and a
	// score it gives is recorded.
	Threshold *float64
	// Round is the round of the case the judge judges, counting from 1,
	// for the program's input; 0 when it judges the whole conversation.
	Round int
}

// A Program is a judge written in any language: a program that reads a
// trial as JSON on its stdin and answers a judgment as JSON on its stdout
// (docs/program-judges.md has both, and judges in Python and
// JavaScript).
//
// In once mode each judgment runs the program afresh, in persistent mode
// one process (started at the first judgment, restarted after it dies)
// answers every judgment, one JSON object per line each way, matched by
// an "id", several at once when trials are judged in parallel; With
// makes judges of other rounds and thresholds that ask the same process.
// Close stops it.
//
// An answer is trusted only when it is whole and consistent: stdout that
// is not one JSON object, a field Gavel does not know, neither status nor
// score, a score that is not a number in 0..1, a status that disagrees
// with the score and the threshold, a score alone without a threshold to
// read it by, a check without a name, more output after the answer, an
// exit with a failure status, a timeout: each is an error (an ERROR
// judgment through judge.Run) naming the program and quoting what it
// wrote, never a verdict. A program that answers the status "error" says
// it could not judge, and is an ERROR with its reasoning.
type Program struct {
	name      string // program "python3 judges/x.py"
	threshold *float64
	round     int
	once      *command       // once mode
	server    *programServer // persistent mode
}

// NewProgram returns the judge c describes. It starts nothing. It is an
// error for Args to be empty, for an Env entry not to be KEY=VALUE, for
// Mode to be unknown, for Timeout to be negative, for Threshold to lie
// outside 0..1, or for Round to be negative.
func NewProgram(c ProgramConfig) (*Program, error) {
	if len(c.Args) == 0 || c.Args[0] == "" {
		return nil, errors.New("program: no program given")
	}
	p := &Program{name: "program " + quoteName(commandLine(c.Args))}
	for _, e := range c.Env {
		if k, _, ok := strings.Cut(e, "="); !ok || k == "" {
			return nil, fmt.Errorf("%s: env entry %q is not KEY=VALUE", p.name, e)
		}
	}
	if c.Timeout < 0 {
		return nil, fmt.Errorf("%s: negative timeout %v", p.name, c.Timeout)
	}
	if err := p.set(c.Round, c.Threshold); err != nil {
		return nil, err
	}
	timeout := c.Timeout
	if timeout == 0 {
		timeout = defaultProgramTimeout
	}
	args, env := slices.Clone(c.Args), slices.Clone(c.Env)
	switch c.Mode {
	case "", ProgramOnce:
		p.once = &command{name: p.name, args: args, dir: c.Dir, env: env, timeout: timeout, outputCap: maxProgramAnswer}
	case ProgramPersistent:
		p.server = &programServer{name: p.name, args: args, dir: c.Dir, env: env, timeout: timeout}
	default:
		return nil, fmt.Errorf("%s: unknown mode %q, want %q or %q", p.name, c.Mode, ProgramOnce, ProgramPersistent)
	}
	return p, nil
}

// With returns a judge that runs the same program as p, and in
// persistent mode asks the same process, but judges round (0: the whole
// conversation) and reads the score by threshold (nil: none): the items
// of a suite that name one persistent program share its process. Closing
// either closes both. It is an error for round to be negative or for
// threshold to lie outside 0..1.
func (p *Program) With(round int, threshold *float64) (*Program, error) {
	q := &Program{name: p.name, once: p.once, server: p.server}
	if err := q.set(round, threshold); err != nil {
		return nil, err
	}
	return q, nil
}

// set sets the round judged and the threshold, after checking them.
func (p *Program) set(round int, threshold *float64) error {
	switch {
	case round < 0:
		return fmt.Errorf("%s: negative round %d", p.name, round)
	case threshold != nil && !(*threshold >= 0 && *threshold <= 1): // NaN too
		return fmt.Errorf("%s: threshold %v is not a score, 0..1", p.name, *threshold)
	}
	p.round, p.threshold = round, nil
	if threshold != nil {
		t := *threshold
		p.threshold = &t
	}
	return nil
}

// String names the judge by its command line.
func (p *Program) String() string { return p.name }

// Judge hands the trial to the program and reads its judgment.
func (p *Program) Judge(ctx context.Context, t *judge.Transcript) (judge.Judgment, error) {
	fail := func(err error) (judge.Judgment, error) {
		return judge.Judgment{Name: p.name}, fmt.Errorf("%s: %w", p.name, err)
	}
	in := programInputOf(ctx, t, p.round)
	if p.server != nil {
		answer, err := p.server.ask(ctx, in)
		if err != nil {
			return fail(err)
		}
		j, err := p.read(answer, true)
		if err != nil {
			return fail(fmt.Errorf("%w: %q", err, llm.BodyExcerpt(answer)))
		}
		return j, nil
	}
	line, err := in.marshal()
	if err != nil {
		return fail(err)
	}
	dir := p.once.dir
	if dir == "" {
		dir = "."
	}
	res, err := p.once.run(ctx, dir, line)
	if err != nil {
		return fail(err)
	}
	out := res.stdout.Bytes()
	switch {
	case !res.state.Success():
		return fail(fmt.Errorf("the program failed (%s): a judge exits with status 0 once it has answered%s", res.state, res.tails()))
	case res.stdout.Dropped() > 0:
		return fail(fmt.Errorf("the answer is longer than %d MiB, the most an answer may be%s", maxProgramAnswer>>20, streamTail("stderr", res.stderr)))
	}
	j, err := p.read(out, false)
	if err != nil {
		return fail(fmt.Errorf("%w: %q%s", err, llm.BodyExcerpt(out), streamTail("stderr", res.stderr)))
	}
	return j, nil
}

// Close stops the persistent process, if one runs; judgments still
// waiting are errors. Judging after Close is an error. It returns an error
// when the process exited with a failure status once its stdin was
// closed.
func (p *Program) Close() error {
	if p.server == nil {
		return nil
	}
	return p.server.close()
}
