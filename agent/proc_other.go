//go:build !unix

package agent

import "os/exec"

// setProcGroup is the fallback for systems without Unix process groups:
// when the context ends only the process itself is killed (the default of
// exec.CommandContext), not its children.
func setProcGroup(*exec.Cmd) {}

// killProcGroup has nothing to kill without process groups.
func killProcGroup(*exec.Cmd) {}
