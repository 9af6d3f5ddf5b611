//go:build unix

package eval

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
)

// locks keeps the lock files open: a lock lasts as long as its file.
var locks []*os.File

// lockDir takes the worker lock of dir (.gavel/worker.lock, flock) for
// the life of the process, and reports whether another process holds it:
// then it is taken later, by no one here.
func lockDir(dir string) (shared bool, err error) {
	if err := os.MkdirAll(filepath.Join(dir, ".gavel"), 0o755); err != nil {
		return false, err
	}
	f, err := os.OpenFile(filepath.Join(dir, ".gavel", "worker.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return false, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return true, nil
		}
		return false, err
	}
	locks = append(locks, f)
	return false, nil
}
