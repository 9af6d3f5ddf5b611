//go:build unix

package mcp

import (
	"os/exec"
	"syscall"
)

// setProcessGroup makes cmd start in a process group of its own, so that
// closing a stdio server also ends the children of a wrapper (npx, a
// shell) that runs it.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// terminateProcessGroup asks cmd's process group to exit.
func terminateProcessGroup(cmd *exec.Cmd) {
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) // ESRCH: nothing left
}

// killProcessGroup kills what is left of cmd's process group.
func killProcessGroup(cmd *exec.Cmd) {
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // ESRCH: nothing left
}
