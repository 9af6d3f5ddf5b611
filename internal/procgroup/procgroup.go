// Package procgroup runs a command in a process group of its own, so that
// the command and every process it starts (the children of a shell, of
// npx, of an agent) can be signalled as one and none outlives Gavel.
//
// On systems without Unix process groups the functions act on the process
// alone: its children are beyond reach there.
package procgroup
