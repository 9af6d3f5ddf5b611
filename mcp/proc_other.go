//go:build !unix

package mcp

import "os/exec"

// setProcessGroup is the fallback for systems without Unix process
// groups: closing a server ends the process itself, not its children.
func setProcessGroup(cmd *exec.Cmd) {}

// terminateProcessGroup kills the process: there is no SIGTERM here.
func terminateProcessGroup(cmd *exec.Cmd) { _ = cmd.Process.Kill() }

// killProcessGroup kills the process; its children are beyond reach.
func killProcessGroup(cmd *exec.Cmd) { _ = cmd.Process.Kill() }
