package main

import (
	"runtime/debug"
	"strings"
)

// releaseVersion and releaseCommit are stamped into a release build by the
// linker (.goreleaser.yaml: -X main.releaseVersion=v1.2.3
// -X main.releaseCommit=<commit>); they are empty in any other build. The
// linker can set only a string that no code initializes, hence two
// variables apart from version.
var releaseVersion, releaseCommit string

// version is this gavel's version, as reports and `gavel version` give it:
// a release's stamped version and commit, or else what the build info Go
// records says (go install github.com/gavelhq/gavel/cmd/gavel@v1.2.3, or
// a build from a checkout).
var version = stampedVersion(releaseVersion, releaseCommit, debug.ReadBuildInfo)

// stampedVersion words a release's stamped version and commit, "v1.2.3
// (commit 4f2a9c1e0b7d)", or, when nothing was stamped, what Go recorded
// (buildVersion).
func stampedVersion(v, commit string, read func() (*debug.BuildInfo, bool)) string {
	if v == "" {
		return buildVersion(read)
	}
	if commit == "" {
		return v
	}
	return v + " (commit " + commit[:min(len(commit), 12)] + ")"
}

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
