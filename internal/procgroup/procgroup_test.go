//go:build unix

package procgroup_test

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gavelhq/gavel/internal/procgroup"
)

// alive reports whether pid is a running process (a zombie counts as
// gone: it is dead and waits for its parent to reap it).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	return err != nil || !strings.Contains(string(data), ") Z ")
}

func waitGone(t *testing.T, pid int) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if !alive(pid) {
			return
		}
	}
	t.Errorf("process %d still runs", pid)
}

// startShellWithChild starts sh, which starts a background sleep and
// prints its pid.
func startShellWithChild(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	procgroup.Set(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 32)
	n, _ := out.Read(buf)
	child, err := strconv.Atoi(strings.TrimSpace(string(buf[:n])))
	if err != nil {
		t.Fatalf("reading the child's pid: %v (%q)", err, buf[:n])
	}
	return child
}

const script = "sleep 30 & echo $!; wait"

func TestKillOnCancelKillsTheWholeGroup(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, "sh", "-c", script)
	procgroup.KillOnCancel(cmd)
	child := startShellWithChild(t, cmd)
	cancel()
	cmd.Wait()
	waitGone(t, child)
}

func TestKillAndTerminate(t *testing.T) {
	for name, stop := range map[string]func(*exec.Cmd){"kill": procgroup.Kill, "terminate": procgroup.Terminate} {
		t.Run(name, func(t *testing.T) {
			cmd := exec.Command("sh", "-c", script)
			child := startShellWithChild(t, cmd)
			stop(cmd)
			cmd.Wait()
			waitGone(t, child)
		})
	}
}
