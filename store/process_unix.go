//go:build unix

package store

import (
	"errors"
	"syscall"
)

// processAlive reports whether a process with this PID exists on this
// machine (signal 0 checks without sending anything).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
