package rule

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/judge/judgetest"
	"github.com/google/go-cmp/cmp"
)

// needShell skips a test that runs POSIX shell commands where there is no
// sh.
func needShell(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh in PATH")
	}
}

func sh(script string) []string { return []string{"sh", "-c", script} }

func TestCommand(t *testing.T) {
	needShell(t)
	dir := t.TempDir()
	wsWrite(t, dir, "sub/marker.txt", "here")
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	run := func(c Cmd) func() (judge.Judge, error) {
		return func() (judge.Judge, error) { return Command(c) }
	}
	pass, fail, errored := judge.StatusPass, judge.StatusFail, judge.StatusError
	judgetest.RunCases(t, []judgetest.Case{
		{Name: "exit 0", Build: run(Cmd{Args: sh("exit 0")}), Transcript: wsIn(dir), WantStatus: pass, WantIn: []string{"exit code 0"}},
		{Name: "exit 2, want 0", Build: run(Cmd{Args: sh("echo out-text; echo boom >&2; exit 2")}), Transcript: wsIn(dir), WantStatus: fail,
			WantIn: []string{"exit code 2, want 0", "--- stderr:\nboom", "--- stdout:\nout-text"}},
		{Name: "exit 3 wanted", Build: run(Cmd{Args: sh("exit 3"), ExitCode: 3}), Transcript: wsIn(dir), WantStatus: pass, WantIn: []string{"exit code 3"}},
		{Name: "exit 0, want 1", Build: run(Cmd{Args: sh("true"), ExitCode: 1}), Transcript: wsIn(dir), WantStatus: fail, WantIn: []string{"exit code 0, want 1"}},
		{Name: "killed by a signal", Build: run(Cmd{Args: sh("kill -9 $$")}), Transcript: wsIn(dir), WantStatus: fail, WantIn: []string{"signal: killed, want exit code 0"}},
		{Name: "stdout matches", Build: run(Cmd{Args: sh("echo hello world"), Stdout: `hel+o\s+w`}), Transcript: wsIn(dir), WantStatus: pass,
			WantIn: []string{`exit code 0; stdout matches /hel+o\s+w/`}},
		{Name: "stdout does not match", Build: run(Cmd{Args: sh("echo hello"), Stdout: "^bye"}), Transcript: wsIn(dir), WantStatus: fail,
			WantIn: []string{"stdout does not match /^bye/", "--- stdout:\nhello"}, WantOut: []string{"exit code"}},
		{Name: "stderr matches", Build: run(Cmd{Args: sh("echo warning: careful >&2"), Stderr: "^warning:"}), Transcript: wsIn(dir), WantStatus: pass,
			WantIn: []string{"stderr matches /^warning:/"}},
		{Name: "stderr does not match", Build: run(Cmd{Args: sh("echo fine"), Stderr: "warning"}), Transcript: wsIn(dir), WantStatus: fail,
			WantIn: []string{"stderr does not match /warning/"}},
		{Name: "everything fails", Build: run(Cmd{Args: sh("echo a; exit 1"), Stdout: "b", Stderr: "c"}), Transcript: wsIn(dir), WantStatus: fail,
			WantIn: []string{"exit code 1, want 0; stdout does not match /b/; stderr does not match /c/"}},
		{Name: "env passed", Build: run(Cmd{Args: sh(`printf '%s' "$GAVEL_RULE_TEST"`), Env: []string{"GAVEL_RULE_TEST=a=b c"}, Stdout: `^a=b c$`}), Transcript: wsIn(dir), WantStatus: pass},
		{Name: "env wins over inherited", Build: run(Cmd{Args: sh(`printf '%s' "$HOME"`), Env: []string{"HOME=/gavel-home"}, Stdout: `^/gavel-home$`}), Transcript: wsIn(dir), WantStatus: pass},
		{Name: "runs in the workspace", Build: run(Cmd{Args: sh("pwd -P"), Stdout: "^" + regexp.QuoteMeta(real) + "\n$"}), Transcript: wsIn(dir), WantStatus: pass},
		{Name: "relative dir", Build: run(Cmd{Args: sh("pwd -P; cat marker.txt"), Dir: "sub", Stdout: "^" + regexp.QuoteMeta(filepath.Join(real, "sub")) + "\nhere$"}), Transcript: wsIn(dir), WantStatus: pass},
		{Name: "absolute dir without workspace", Build: run(Cmd{Args: []string{"cat", "marker.txt"}, Dir: filepath.Join(dir, "sub"), Stdout: "^here$"}), Transcript: nil, WantStatus: pass},
		{Name: "program relative to dir", Build: run(Cmd{Args: []string{"./tool.sh"}}), Transcript: wsIn(writeTool(t)), WantStatus: pass},
		{Name: "no workspace", Build: run(Cmd{Args: sh("true")}), Transcript: &judge.Transcript{}, WantStatus: fail, WantIn: []string{noWorkspace}},
		{Name: "missing dir", Build: run(Cmd{Args: sh("true"), Dir: "nope"}), Transcript: wsIn(dir), WantStatus: errored,
			WantIn: []string{`cannot run "sh": directory ` + filepath.Join(dir, "nope") + " does not exist"}},
		{Name: "dir is a file", Build: run(Cmd{Args: sh("true"), Dir: "sub/marker.txt"}), Transcript: wsIn(dir), WantStatus: errored, WantIn: []string{"is not a directory"}},
		{Name: "command not found", Build: run(Cmd{Args: []string{"gavel-no-such-command", "x"}}), Transcript: wsIn(dir), WantStatus: errored,
			WantIn: []string{`cannot run "gavel-no-such-command"`, "executable file not found"}},
		{Name: "relative program not found", Build: run(Cmd{Args: []string{"./gavel-missing.sh"}}), Transcript: wsIn(dir), WantStatus: errored,
			WantIn: []string{`cannot run "./gavel-missing.sh"`}},
	})
}

// writeTool writes an executable script tool.sh in a new directory and
// returns the directory.
func writeTool(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	path := wsWrite(t, dir, "tool.sh", "#!/bin/sh\necho tool ran\n")
	if err := os.Chmod(path, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestCommandName(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"go", "test", "./..."}, `command "go test ./..."`},
		{[]string{"sh", "-c", "echo started; sleep 30"}, `command "sh -c 'echo started; sleep 30'"`},
		{[]string{"echo", "it's"}, `command "echo 'it'\\''s'"`},
		{[]string{"echo", ""}, `command "echo ''"`},
		{[]string{"echo", strings.Repeat("x", 100)}, `command "echo ` + strings.Repeat("x", 75) + `…"`},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			j, err := Command(Cmd{Args: tc.args})
			if err != nil {
				t.Fatal(err)
			}
			if got := j.(*command).name; got != tc.want {
				t.Errorf("name = %s, want %s", got, tc.want)
			}
		})
	}
}

func TestCommandChecks(t *testing.T) {
	needShell(t)
	j, err := Command(Cmd{Args: sh("echo ok; exit 4"), Stdout: "ok", Stderr: "warn"})
	if err != nil {
		t.Fatal(err)
	}
	got := judgetest.Run(t, j, wsIn(t.TempDir()))
	want := []judge.Check{
		{Name: "exit code", Passed: false, Message: "exit code 4, want 0"},
		{Name: "stdout", Passed: true, Message: "stdout matches /ok/"},
		{Name: "stderr", Passed: false, Message: "stderr does not match /warn/"},
	}
	if diff := cmp.Diff(want, got.Checks); diff != "" {
		t.Errorf("checks (-want +got):\n%s", diff)
	}
	if got.Name != `command "sh -c 'echo ok; exit 4'"` {
		t.Errorf("name = %s", got.Name)
	}
}

func TestCommandTimeout(t *testing.T) {
	needShell(t)
	tests := []struct {
		name   string
		script string
	}{
		{"sleep in the foreground", "echo started; sleep 30"},
		// The sleep holds the output open while the shell waits for it:
		// only killing the whole process group ends the run.
		{"sleep in the background", "sleep 30 & echo $! > sleep.pid; echo started; wait"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			j, err := Command(Cmd{Args: sh(tc.script), Timeout: 200 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			// The deadline only guards against a hang: the run must end
			// long before the sleep would.
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			got := judge.Run(ctx, j, wsIn(dir))
			if ctx.Err() != nil {
				t.Fatal("the command outlived its timeout")
			}
			judgetest.Check(t, got, judge.StatusError, []string{"timed out after 200ms", "--- stdout:\nstarted"}, nil)
			if want := "command " + quoteName(commandLine(sh(tc.script))); got.Name != want {
				t.Errorf("name = %s, want %s", got.Name, want)
			}

			// The background sleep must be dead too.
			data, err := os.ReadFile(filepath.Join(dir, "sleep.pid"))
			if os.IsNotExist(err) || runtime.GOOS != "linux" {
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
			if err != nil {
				t.Fatal(err)
			}
			for !processGone(pid) {
				if ctx.Err() != nil {
					t.Fatalf("the background sleep %d is still running", pid)
				}
				time.Sleep(10 * time.Millisecond)
			}
		})
	}
}

// processGone reports whether the process pid has ended (a zombie waiting
// to be reaped has ended), reading Linux's /proc.
func processGone(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	// The state follows the command name, which is in parentheses.
	if i := bytes.LastIndexByte(data, ')'); i >= 0 && i+2 < len(data) {
		return data[i+2] == 'Z' || data[i+2] == 'X'
	}
	return false
}

func TestCommandKillsLeftovers(t *testing.T) {
	needShell(t)
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	dir := t.TempDir()
	// The shell exits at once, leaving a background sleep that holds no
	// output open: the rule kills it with the process group.
	j, err := Command(Cmd{Args: sh("sleep 30 >/dev/null 2>&1 & echo $! > sleep.pid")})
	if err != nil {
		t.Fatal(err)
	}
	got := judgetest.Run(t, j, wsIn(dir))
	judgetest.Check(t, got, judge.StatusPass, []string{"exit code 0"}, nil)
	data, err := os.ReadFile(filepath.Join(dir, "sleep.pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for !processGone(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("the background sleep %d is still running", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestCommandCancelled(t *testing.T) {
	needShell(t)
	j, err := Command(Cmd{Args: sh("echo started; sleep 30")})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got := judge.Run(ctx, j, wsIn(t.TempDir()))
	judgetest.Check(t, got, judge.StatusError, []string{"interrupted", "context canceled"}, nil)
}

func TestCommandOutputCap(t *testing.T) {
	needShell(t)
	dir := t.TempDir()
	run := func(c Cmd) func() (judge.Judge, error) {
		return func() (judge.Judge, error) { return Command(c) }
	}
	const out = "printf 0123456789abcdefghij"
	pass, fail := judge.StatusPass, judge.StatusFail
	judgetest.RunCases(t, []judgetest.Case{
		{Name: "tail kept", Build: run(Cmd{Args: sh(out), OutputCap: 10, Stdout: "^abcdefghij$"}), Transcript: wsIn(dir), WantStatus: pass,
			WantIn: []string{"first 10 bytes of stdout omitted, the last 10 kept"}},
		{Name: "head dropped", Build: run(Cmd{Args: sh(out), OutputCap: 10, Stdout: "0123"}), Transcript: wsIn(dir), WantStatus: fail,
			WantIn: []string{"stdout does not match /0123/", "--- stdout (first 10 bytes of stdout omitted):\nabcdefghij"}, WantOut: []string{"0123456789"}},
		{Name: "stderr dropped", Build: run(Cmd{Args: sh(out + " >&2; exit 1"), OutputCap: 4}), Transcript: wsIn(dir), WantStatus: fail,
			WantIn: []string{"exit code 1, want 0", "--- stderr (first 16 bytes of stderr omitted):\nghij"}},
		{Name: "under the cap", Build: run(Cmd{Args: sh(out), OutputCap: 20}), Transcript: wsIn(dir), WantStatus: pass, WantOut: []string{"omitted"}},
		{Name: "last lines", Build: run(Cmd{Args: sh("i=1; while [ $i -le 100 ]; do echo line$i; i=$((i+1)); done; exit 1")}), Transcript: wsIn(dir), WantStatus: fail,
			WantIn: []string{"--- stdout (last 20 of 100 lines shown):\nline81\n", "line100"}, WantOut: []string{"line80\n"}},
		{Name: "long line", Build: run(Cmd{Args: sh("head -c 10000 /dev/zero | tr '\\0' x; exit 1")}), Transcript: wsIn(dir), WantStatus: fail,
			WantIn: []string{fmt.Sprintf("--- stdout (last %d bytes shown):\n%s", tailBytes, strings.Repeat("x", tailBytes))}},
	})
}

func TestCommandBuildErrors(t *testing.T) {
	build := func(c Cmd) func() (judge.Judge, error) {
		return func() (judge.Judge, error) { return Command(c) }
	}
	judgetest.RunBuildErrorCases(t, []judgetest.BuildErrorCase{
		{Name: "nil args", Build: build(Cmd{}), WantErr: "command: no program given in Args"},
		{Name: "empty args", Build: build(Cmd{Args: []string{}}), WantErr: "no program given"},
		{Name: "empty program", Build: build(Cmd{Args: []string{"", "x"}}), WantErr: "no program given"},
		{Name: "env without =", Build: build(Cmd{Args: []string{"true"}, Env: []string{"FOO"}}), WantErr: `env entry "FOO" is not KEY=VALUE`},
		{Name: "env without key", Build: build(Cmd{Args: []string{"true"}, Env: []string{"=x"}}), WantErr: `env entry "=x" is not KEY=VALUE`},
		{Name: "negative exit code", Build: build(Cmd{Args: []string{"true"}, ExitCode: -1}), WantErr: "negative exit code -1"},
		{Name: "negative timeout", Build: build(Cmd{Args: []string{"true"}, Timeout: -time.Second}), WantErr: "negative timeout -1s"},
		{Name: "negative output cap", Build: build(Cmd{Args: []string{"true"}, OutputCap: -1}), WantErr: "negative output cap -1"},
		{Name: "bad stdout regex", Build: build(Cmd{Args: []string{"true"}, Stdout: "("}), WantErr: "invalid stdout regex"},
		{Name: "bad stderr regex", Build: build(Cmd{Args: []string{"true"}, Stderr: "a{2,1}"}), WantErr: "invalid stderr regex"},
	})
}

func TestCommandTailBuffer(t *testing.T) {
	tests := []struct {
		name        string
		max         int
		writes      []string
		want        string
		wantDropped int64
	}{
		{"empty", 4, nil, "", 0},
		{"under", 4, []string{"ab"}, "ab", 0},
		{"exactly full", 4, []string{"ab", "cd"}, "abcd", 0},
		{"one over", 4, []string{"abcd", "e"}, "bcde", 1},
		{"write larger than max", 3, []string{"abcdefgh"}, "fgh", 5},
		{"fill then large", 3, []string{"ab", "cdefg"}, "efg", 4},
		{"wraps twice", 3, []string{"ab", "cd", "ef", "gh"}, "fgh", 5},
		{"empty writes", 2, []string{"", "a", "", "bc", ""}, "bc", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := &tailBuffer{max: tc.max}
			for _, w := range tc.writes {
				if n, err := b.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write(%q) = %d, %v; want %d, nil", w, n, err, len(w))
				}
			}
			if got := string(b.Bytes()); got != tc.want || b.Dropped() != tc.wantDropped {
				t.Errorf("got %q with %d dropped, want %q with %d dropped", got, b.Dropped(), tc.want, tc.wantDropped)
			}
		})
	}

	t.Run("random writes", func(t *testing.T) {
		r := rand.New(rand.NewPCG(1, 2))
		for round := range 200 {
			limit := 1 + r.IntN(50)
			b := &tailBuffer{max: limit}
			var all []byte
			for range r.IntN(30) {
				w := make([]byte, r.IntN(2*limit))
				for i := range w {
					w[i] = byte('a' + r.IntN(26))
				}
				b.Write(w)
				all = append(all, w...)
			}
			want := all[max(0, len(all)-limit):]
			if got := b.Bytes(); !bytes.Equal(got, want) || b.Dropped() != int64(len(all)-len(want)) {
				t.Fatalf("round %d (max %d): got %q with %d dropped, want %q with %d dropped", round, limit, got, b.Dropped(), want, len(all)-len(want))
			}
		}
	})
}
