//go:build !unix

package rule

import (
	"os"
	"os/exec"
)

// setProcessGroup is the fallback for systems without Unix process
// groups: when the context ends only the process itself is killed (the
// default of exec.CommandContext), not its children.
func setProcessGroup(cmd *exec.Cmd) {}

// killProcessGroup has nothing to kill without process groups.
func killProcessGroup(cmd *exec.Cmd) {}

// exitedByItself cannot tell a kill from an exit here (a killed process
// has an exit code too), so a process killed at its timeout counts as
// timed out.
func exitedByItself(state *os.ProcessState) bool { return false }
