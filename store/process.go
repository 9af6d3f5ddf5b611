package store

import (
	"os"
	"strings"
	"sync"
)

// ThisMachine names the machine this process runs on, for RunInfo.Machine:
// its host name and, on Linux, its PID namespace, so that two containers
// that share a host name (and a database) never take each other's PIDs
// for their own.
var ThisMachine = sync.OnceValue(func() string {
	host, _ := os.Hostname()
	if ns, err := os.Readlink("/proc/self/ns/pid"); err == nil {
		return host + " " + strings.TrimSpace(ns)
	}
	return host
})
