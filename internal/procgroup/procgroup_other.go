//go:build !unix

package procgroup

import "os/exec"

// Set does nothing without process groups.
func Set(cmd *exec.Cmd) {}

// KillOnCancel leaves exec.CommandContext's default: the process alone is
// killed.
func KillOnCancel(cmd *exec.Cmd) {}

// Terminate kills the process: there is no SIGTERM here.
func Terminate(cmd *exec.Cmd) { Kill(cmd) }

// Kill kills the process; its children are beyond reach.
func Kill(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
