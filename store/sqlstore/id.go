package sqlstore

import (
	"crypto/rand"
	"encoding/hex"
	"time"
)

// runID returns a new run ID: the run's start in UTC to the second and
// six random hex digits, "20261121-034512-a1b2c3". IDs sort by start
// (to the second), and are safe in a URL, a file name and a shell.
func runID(started time.Time) string {
	var b [3]byte
	rand.Read(b[:])
	return started.UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b[:])
}
