//go:build unix

package procgroup

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// Set makes cmd start in a process group of its own. Call it before
// cmd.Start.
func Set(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// KillOnCancel makes the end of cmd's context kill cmd's whole group
// rather than cmd alone. cmd must have been made with exec.CommandContext
// (Start refuses a Cancel without a context) and be Set.
func KillOnCancel(cmd *exec.Cmd) {
	cmd.Cancel = func() error {
		err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		if errors.Is(err, syscall.ESRCH) {
			return os.ErrProcessDone
		}
		return err
	}
}

// Terminate asks what is left of cmd's group to exit (SIGTERM).
func Terminate(cmd *exec.Cmd) { signal(cmd, syscall.SIGTERM) }

// Kill kills what is left of cmd's group (SIGKILL): after cmd exited, the
// background children that would otherwise outlive it.
func Kill(cmd *exec.Cmd) { signal(cmd, syscall.SIGKILL) }

func signal(cmd *exec.Cmd, sig syscall.Signal) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, sig) // ESRCH: nothing left
	}
}
