//go:build unix

package rule

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// setProcessGroup makes cmd start in a process group of its own and kill
// the whole group when its context ends, so that the children of a shell
// die with it.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		if errors.Is(err, syscall.ESRCH) {
			return os.ErrProcessDone
		}
		return err
	}
}

// killProcessGroup kills what is left of cmd's process group after cmd
// exited: background children that would otherwise outlive the rule.
func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // ESRCH: nothing left
	}
}

// exitedByItself reports whether the process exited on its own rather
// than by a signal, so an exit that races a timeout counts as an exit.
func exitedByItself(state *os.ProcessState) bool {
	return state != nil && state.Exited()
}
