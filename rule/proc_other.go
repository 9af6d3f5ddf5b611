//go:build !unix

package rule

import "os"

// exitedByItself cannot tell a kill from an exit here (a killed process
// has an exit code too), so a process killed at its timeout counts as
// timed out.
func exitedByItself(state *os.ProcessState) bool { return false }
