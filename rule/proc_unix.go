//go:build unix

package rule

import "os"

// exitedByItself reports whether the process exited on its own rather
// than by a signal, so an exit that races a timeout counts as an exit.
func exitedByItself(state *os.ProcessState) bool {
	return state != nil && state.Exited()
}
