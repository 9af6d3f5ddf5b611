package dbstate

import "github.com/gavelhq/gavel/judge"

// inWorkspace returns a transcript whose workspace is dir.
func inWorkspace(dir string) *judge.Transcript { return &judge.Transcript{Workspace: dir} }
