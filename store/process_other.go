//go:build !unix

package store

// processAlive cannot tell on this system: it says alive, and a run whose
// process is gone is found by its stale heartbeat instead.
func processAlive(int) bool { return true }
