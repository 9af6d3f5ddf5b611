package postgres

import "time"

// SetConnectTimeout sets how long Open waits for the server, and returns
// a function that restores it.
func SetConnectTimeout(d time.Duration) (restore func()) {
	old := connectTimeout
	connectTimeout = d
	return func() { connectTimeout = old }
}
