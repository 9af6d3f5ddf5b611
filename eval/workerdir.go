package eval

import (
	"fmt"
	"io"
	"path/filepath"
	"sync"
)

// Workers of one machine that share a suite's directory share what its
// runs leave there: the files its MCP servers and setup steps write (a
// database a server resets when it starts, a workspace). Trials of one
// run on two such workers can then see each other's changes, and be
// judged otherwise than one process judges them. A worker marks the
// directories of the suites it loads (a lock in their .gavel/, held for
// its life) and warns when another worker holds one.

// suiteDirs are the suite directories this worker holds; a directory's
// lock is taken once per process.
var suiteDirs = struct {
	sync.Mutex
	held map[string]bool
}{held: map[string]bool{}}

// warnSharedDir takes the lock of the directory of the suite at path and
// writes a warning to w when another worker holds it.
func warnSharedDir(path string, w io.Writer) {
	dir, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return
	}
	suiteDirs.Lock()
	defer suiteDirs.Unlock()
	if suiteDirs.held[dir] {
		return
	}
	shared, err := lockDir(dir)
	if err != nil {
		fmt.Fprintf(w, "gavel worker: %s: cannot tell whether another worker shares it: %v\n", dir, err)
		return
	}
	suiteDirs.held[dir] = true
	if shared {
		fmt.Fprintf(w, "gavel worker: warning: another gavel worker runs suites from %s: the workers share the files its runs write there "+
			"(a database an MCP server resets, a workspace), so a suite that writes files there may be judged otherwise than in one process; "+
			"give each worker a checkout of its own\n", dir)
	}
}
