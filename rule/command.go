package rule

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/gavelhq/gavel/internal/procgroup"
	"github.com/gavelhq/gavel/judge"
)

const (
	defaultCommandTimeout = time.Minute
	defaultOutputCap      = 1 << 20 // 1 MiB

	// commandWaitDelay is how long a command's output may stay open after
	// it exited or was killed (a background child holding it) before the
	// rule stops reading.
	commandWaitDelay = 2 * time.Second

	// A reasoning shows at most the last tailLines lines, and tailBytes
	// bytes, of each output stream.
	tailLines = 20
	tailBytes = 4 << 10
)

// Cmd configures Command.
type Cmd struct {
	// Args are the program and its arguments. The program runs directly,
	// not through a shell: for one, write Args: []string{"sh", "-c", "..."}.
	// A program name without a slash is looked up in PATH; one with a slash
	// is relative to Dir.
	Args []string
	// Dir is the directory the command runs in. A relative Dir is relative
	// to the transcript's workspace. Defaults to the workspace.
	Dir string
	// Env holds KEY=VALUE entries added to the environment the command
	// inherits; they win over inherited ones.
	Env []string
	// Timeout bounds the run; at the timeout the command and every process
	// it started are killed. Defaults to 1 minute.
	Timeout time.Duration
	// ExitCode is the exit code wanted. Defaults to 0.
	ExitCode int
	// Stdout, if set, is a regular expression (Go's RE2 syntax) that the
	// standard output must match, anywhere unless anchored.
	Stdout string
	// Stderr, if set, is a regular expression the standard error must
	// match.
	Stderr string
	// OutputCap is how many bytes of each stream are kept: the last ones,
	// since failures show at the end. The Stdout and Stderr expressions see
	// only what was kept, and the reasoning says how much was left out.
	// Defaults to 1 MiB.
	OutputCap int
}

// Command runs a program in the transcript's workspace and passes when it
// exits with the wanted code and its output matches the wanted
// expressions. The judgment has a check for the exit code and one for each
// expression.
//
// Judging is an error (an ERROR judgment through judge.Run) when the
// program cannot be started, for instance because it does not exist, and
// when it times out or the context ends; the error gives the tail of the
// output. A wrong exit code or an output that does not match fails, with
// the tail of the output in the reasoning. A transcript without a workspace
// fails, unless Dir is absolute.
//
// On Unix the command runs in a process group of its own, which is killed
// as a whole at the timeout and once the command exits, so that no child
// outlives the rule.
//
// It is an error for Args to be empty, for an Env entry not to be
// KEY=VALUE, for ExitCode, Timeout or OutputCap to be negative, or for
// Stdout or Stderr not to compile.
func Command(c Cmd) (judge.Judge, error) {
	if len(c.Args) == 0 || c.Args[0] == "" {
		return nil, errors.New("command: no program given in Args")
	}
	for _, e := range c.Env {
		if k, _, ok := strings.Cut(e, "="); !ok || k == "" {
			return nil, fmt.Errorf("command %s: env entry %q is not KEY=VALUE", commandLine(c.Args), e)
		}
	}
	switch {
	case c.ExitCode < 0:
		return nil, fmt.Errorf("command %s: negative exit code %d", commandLine(c.Args), c.ExitCode)
	case c.Timeout < 0:
		return nil, fmt.Errorf("command %s: negative timeout %v", commandLine(c.Args), c.Timeout)
	case c.OutputCap < 0:
		return nil, fmt.Errorf("command %s: negative output cap %d", commandLine(c.Args), c.OutputCap)
	}
	cmd := &command{
		name:      "command " + quoteName(commandLine(c.Args)),
		args:      c.Args,
		dir:       c.Dir,
		env:       c.Env,
		timeout:   c.Timeout,
		exitCode:  c.ExitCode,
		outputCap: c.OutputCap,
	}
	var err error
	if cmd.stdout, err = optionalRegex(c.Stdout); err != nil {
		return nil, fmt.Errorf("command %s: invalid stdout regex: %w", commandLine(c.Args), err)
	}
	if cmd.stderr, err = optionalRegex(c.Stderr); err != nil {
		return nil, fmt.Errorf("command %s: invalid stderr regex: %w", commandLine(c.Args), err)
	}
	return cmd, nil
}

// optionalRegex compiles pattern, or returns nil for an empty one.
func optionalRegex(pattern string) (*regexp.Regexp, error) {
	if pattern == "" {
		return nil, nil
	}
	return regexp.Compile(pattern)
}

// command is the judge Command returns; BuildSuccess uses it too.
type command struct {
	name           string
	args           []string
	dir            string // relative to the workspace; "" is the workspace
	env            []string
	timeout        time.Duration // 0: defaultCommandTimeout
	exitCode       int
	stdout, stderr *regexp.Regexp // nil: not checked
	outputCap      int            // 0: defaultOutputCap
}

// Judge runs the command and judges its exit code and output.
func (c *command) Judge(ctx context.Context, t *judge.Transcript) (judge.Judgment, error) {
	dir, ok := t.WorkspacePath(c.dir)
	if !ok {
		return verdict(c.name, false, noWorkspace), nil
	}
	res, err := c.run(ctx, dir, nil)
	if err != nil {
		return judge.Judgment{Name: c.name}, err
	}

	exit := judge.Check{Name: "exit code", Passed: res.state.ExitCode() == c.exitCode}
	switch {
	case !res.state.Exited():
		exit.Message = fmt.Sprintf("%s, want exit code %d", res.state, c.exitCode)
	case exit.Passed:
		exit.Message = fmt.Sprintf("exit code %d", c.exitCode)
	default:
		exit.Message = fmt.Sprintf("exit code %d, want %d", res.state.ExitCode(), c.exitCode)
	}
	checks := []judge.Check{exit}
	for _, s := range []struct {
		stream string
		re     *regexp.Regexp
		out    *tailBuffer
	}{{"stdout", c.stdout, res.stdout}, {"stderr", c.stderr, res.stderr}} {
		if s.re == nil {
			continue
		}
		check := judge.Check{Name: s.stream, Passed: s.re.Match(s.out.Bytes())}
		if check.Passed {
			check.Message = fmt.Sprintf("%s matches /%s/", s.stream, s.re)
		} else {
			check.Message = fmt.Sprintf("%s does not match /%s/", s.stream, s.re)
		}
		checks = append(checks, check)
	}

	var failed, passed []string
	for _, ch := range checks {
		if ch.Passed {
			passed = append(passed, ch.Message)
		} else {
			failed = append(failed, ch.Message)
		}
	}
	if len(failed) == 0 {
		reasoning := strings.Join(passed, "; ")
		if notes := res.omitted(); notes != "" {
			reasoning += " (" + notes + ")"
		}
		return verdict(c.name, true, reasoning, checks...), nil
	}
	return verdict(c.name, false, strings.Join(failed, "; ")+res.tails(), checks...), nil
}

// procResult is what a finished command left: how it ended and the tails
// of its output.
type procResult struct {
	state          *os.ProcessState
	stdout, stderr *tailBuffer
}

// run runs the command in dir, with stdin as its standard input (none
// when nil), and waits for it to end. It returns an error when the command
// could not be started, did not end by itself before its timeout, or ctx
// ended.
func (c *command) run(ctx context.Context, dir string, stdin []byte) (procResult, error) {
	switch info, err := os.Stat(dir); {
	case notExist(err):
		return procResult{}, fmt.Errorf("cannot run %q: directory %s does not exist", c.args[0], dir)
	case err != nil:
		return procResult{}, fmt.Errorf("cannot run %q: %w", c.args[0], err)
	case !info.IsDir():
		return procResult{}, fmt.Errorf("cannot run %q: %s is not a directory", c.args[0], dir)
	}
	timeout := c.timeout
	if timeout == 0 {
		timeout = defaultCommandTimeout
	}
	capacity := c.outputCap
	if capacity == 0 {
		capacity = defaultOutputCap
	}
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	res := procResult{stdout: &tailBuffer{max: capacity}, stderr: &tailBuffer{max: capacity}}
	cmd := exec.CommandContext(runCtx, c.args[0], c.args[1:]...)
	cmd.Dir = dir
	if len(c.env) > 0 {
		cmd.Env = append(os.Environ(), c.env...)
	}
	cmd.Stdout, cmd.Stderr = res.stdout, res.stderr
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	cmd.WaitDelay = commandWaitDelay
	procgroup.Set(cmd)
	procgroup.KillOnCancel(cmd)
	var interrupted atomic.Bool
	kill := cmd.Cancel
	cmd.Cancel = func() error {
		err := kill()
		if err == nil {
			interrupted.Store(true)
		}
		return err
	}

	if err := cmd.Start(); err != nil {
		if ctx.Err() != nil {
			return procResult{}, fmt.Errorf("interrupted before it started: %w", ctx.Err())
		}
		return procResult{}, fmt.Errorf("cannot run %q: %w", c.args[0], err)
	}
	waitErr := cmd.Wait()
	procgroup.Kill(cmd)
	res.state = cmd.ProcessState

	if interrupted.Load() && !exitedByItself(res.state) {
		if err := ctx.Err(); err != nil {
			return procResult{}, fmt.Errorf("interrupted: %w%s", err, res.tails())
		}
		return procResult{}, fmt.Errorf("timed out after %v%s", timeout, res.tails())
	}
	var exitErr *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &exitErr) && !errors.Is(waitErr, exec.ErrWaitDelay) {
		return procResult{}, fmt.Errorf("run %q: %w%s", c.args[0], waitErr, res.tails())
	}
	return res, nil
}

// omitted says how much of each stream was left out by the output cap, or
// returns "".
func (r procResult) omitted() string {
	var notes []string
	for _, s := range []struct {
		stream string
		out    *tailBuffer
	}{{"stdout", r.stdout}, {"stderr", r.stderr}} {
		if d := s.out.Dropped(); d > 0 {
			notes = append(notes, fmt.Sprintf("first %d bytes of %s omitted, the last %d kept", d, s.stream, len(s.out.Bytes())))
		}
	}
	return strings.Join(notes, "; ")
}

// tails formats the end of stderr and of stdout for a reasoning: a block
// for each stream that printed anything, each starting on a new line.
func (r procResult) tails() string {
	return streamTail("stderr", r.stderr) + streamTail("stdout", r.stdout)
}

// streamTail formats the last lines of one stream, saying what it leaves
// out, or returns "" when the stream is empty.
func streamTail(stream string, b *tailBuffer) string {
	if b == nil || b.Written() == 0 {
		return ""
	}
	var notes []string
	if d := b.Dropped(); d > 0 {
		notes = append(notes, fmt.Sprintf("first %d bytes of %s omitted", d, stream))
	}
	text := strings.TrimRight(string(b.Bytes()), "\n")
	if lines := strings.Split(text, "\n"); len(lines) > tailLines {
		notes = append(notes, fmt.Sprintf("last %d of %d lines shown", tailLines, len(lines)))
		text = strings.Join(lines[len(lines)-tailLines:], "\n")
	}
	cut := b.Dropped() > 0
	if len(text) > tailBytes {
		notes = append(notes, fmt.Sprintf("last %d bytes shown", tailBytes))
		text, cut = text[len(text)-tailBytes:], true
	}
	if cut {
		// The cut may have split a character: drop its leftover bytes.
		for i := 0; i < utf8.UTFMax-1 && text != "" && !utf8.RuneStart(text[0]); i++ {
			text = text[1:]
		}
		text = strings.TrimLeft(text, "\n")
	}
	header := "\n--- " + stream
	if len(notes) > 0 {
		header += " (" + strings.Join(notes, "; ") + ")"
	}
	return header + ":\n" + text
}

// A tailBuffer keeps the last max bytes written to it and counts the
// bytes it dropped to make room. It is a ring, so that writing costs the
// same whatever the amount of output.
type tailBuffer struct {
	max     int
	data    []byte // grows up to max, then is reused as a ring
	start   int    // where the oldest byte is, once data is full
	written int64
}

// Write keeps the end of p. It never fails.
func (b *tailBuffer) Write(p []byte) (int, error) {
	n := len(p)
	b.written += int64(n)
	if b.max <= 0 {
		return n, nil
	}
	if len(p) > b.max {
		p = p[len(p)-b.max:]
	}
	if room := b.max - len(b.data); room > 0 {
		k := min(room, len(p))
		b.data = append(b.data, p[:k]...)
		p = p[k:]
	}
	for len(p) > 0 {
		k := copy(b.data[b.start:], p)
		b.start = (b.start + k) % b.max
		p = p[k:]
	}
	return n, nil
}

// Bytes returns the bytes kept, oldest first.
func (b *tailBuffer) Bytes() []byte {
	if b.start == 0 {
		return b.data
	}
	out := make([]byte, 0, len(b.data))
	return append(append(out, b.data[b.start:]...), b.data[:b.start]...)
}

// Written returns how many bytes were written in all.
func (b *tailBuffer) Written() int64 { return b.written }

// Dropped returns how many of the first bytes written were dropped.
func (b *tailBuffer) Dropped() int64 { return b.written - int64(len(b.data)) }

// commandLine writes args as a shell would read them, quoting the
// arguments that need it.
func commandLine(args []string) string {
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = shellQuote(a)
	}
	return strings.Join(quoted, " ")
}

// plainWord is an argument a shell reads as it is.
var plainWord = regexp.MustCompile(`^[A-Za-z0-9_./:=,+@%^-]+$`)

// shellQuote quotes s for a POSIX shell if it needs quoting.
func shellQuote(s string) string {
	if plainWord.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// maxNameLen bounds the command line shown in a judgment's name.
const maxNameLen = 80

// quoteName quotes a command line for a judgment name, cut to maxNameLen
// runes.
func quoteName(s string) string {
	if r := []rune(s); len(r) > maxNameLen {
		s = string(r[:maxNameLen]) + "…"
	}
	return fmt.Sprintf("%q", s)
}
