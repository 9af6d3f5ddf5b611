//go:build !unix

package main

import "os"

// peakRSS is unknown here: the system gives no rusage.
func peakRSS(*os.ProcessState) int64 { return 0 }
