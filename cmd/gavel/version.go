package main

import (
	"runtime/debug"
	"strings"
)

// version is this gavel's version, as reports and `gavel version` give it.
// A release build may set it with -ldflags "-X main.version=v1.2.3";
// otherwise it comes from the build info Go records: the module's version
// (go install github.com/gavelhq/gavel/cmd/gavel@v1.2.3) and the commit
// of a build from a checkout, marked "+dirty" when the tree had changes.
var version = buildVersion(debug.ReadBuildInfo)

// buildVersion words what info says of this build: "v1.2.3",
// "v1.2.3 (commit 4f2a9c1e0b7d)", "(devel) (commit 4f2a9c1e0b7d+dirty)",
// or "dev" when Go recorded nothing.
func buildVersion(read func() (*debug.BuildInfo, bool)) string {
	info, ok := read()
	if !ok {
		return "dev"
	}
	v := info.Main.Version
	var commit, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			commit = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if len(commit) > 12 {
		commit = commit[:12]
	}
	if commit != "" && modified == "true" {
		commit += "+dirty"
	}
	switch {
	case commit == "" && v == "":
		return "dev"
	case commit == "":
		return v
	case v == "" || v == "(devel)":
		return "(devel) (commit " + commit + ")"
	case strings.Contains(v, commit[:min(len(commit), 12)]):
		return v // a pseudo-version names its commit already
	}
	return v + " (commit " + commit + ")"
}
