package main

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
)

// profileEnv names a file to which gavel writes a CPU profile of the
// whole command, for `go tool pprof` (bench/README.md says how it is
// used). It is for developers of Gavel, and unset by default.
const profileEnv = "GAVEL_CPUPROFILE"

// startProfile starts the CPU profile profileEnv asks for, if any, and
// returns what stops it. A profile that cannot start is said on stderr
// and the command runs without it.
func startProfile(stderr io.Writer) (stop func()) {
	path := os.Getenv(profileEnv)
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintf(stderr, "gavel: %s: %v\n", profileEnv, err)
		if f != nil {
			f.Close()
		}
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}
