//go:build unix

package agent

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// setProcGroup makes cmd start in a process group of its own and kill the
// whole group when its context ends, so that the children an agent
// started die with it.
func setProcGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		if errors.Is(err, syscall.ESRCH) {
			return os.ErrProcessDone
		}
		return err
	}
}

// killProcGroup kills what is left of cmd's process group once cmd has
// exited: children that would otherwise outlive Gavel.
func killProcGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // ESRCH: nothing left
	}
}
