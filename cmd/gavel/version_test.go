package main

import (
	"os/exec"
	"runtime/debug"
	"strings"
	"testing"
)

func TestBuildVersion(t *testing.T) {
	info := func(v string, settings ...string) func() (*debug.BuildInfo, bool) {
		return func() (*debug.BuildInfo, bool) {
			b := &debug.BuildInfo{Main: debug.Module{Path: "github.com/gavelhq/gavel", Version: v}}
			for i := 0; i+1 < len(settings); i += 2 {
				b.Settings = append(b.Settings, debug.BuildSetting{Key: settings[i], Value: settings[i+1]})
			}
			return b, true
		}
	}
	for _, tc := range []struct {
		read func() (*debug.BuildInfo, bool)
		want string
	}{
		{info("v1.2.3"), "v1.2.3"}, // go install ...@v1.2.3
		{info("v0.0.0-20261125120000-4f2a9c1e0b7d"), "v0.0.0-20261125120000-4f2a9c1e0b7d"},                                               // @latest of an untagged commit: the version names it
		{info("(devel)", "vcs.revision", "4f2a9c1e0b7d1234567890abcdef", "vcs.modified", "false"), "(devel) (commit 4f2a9c1e0b7d)"},      // a build in a checkout
		{info("(devel)", "vcs.revision", "4f2a9c1e0b7d1234567890abcdef", "vcs.modified", "true"), "(devel) (commit 4f2a9c1e0b7d+dirty)"}, // with changes
		{info("v1.2.4-0.20261125120000-4f2a9c1e0b7d+dirty", "vcs.revision", "4f2a9c1e0b7d1234", "vcs.modified", "true"), "v1.2.4-0.20261125120000-4f2a9c1e0b7d+dirty"},
		{func() (*debug.BuildInfo, bool) { return nil, false }, "dev"},
	} {
		if got := buildVersion(tc.read); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}

// A gavel built from this checkout says its commit, from the build info,
// not "dev".
func TestVersionOfABuild(t *testing.T) {
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skip("not a git checkout")
	}
	out, err := exec.Command(gavelBinary(t), "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	// Go writes the commit into the version (v0.0.0-DATE-COMMIT+dirty), or
	// Gavel adds it.
	if commit := strings.TrimSpace(string(head))[:12]; !strings.HasPrefix(string(out), "gavel ") || !strings.Contains(string(out), commit) || strings.Contains(string(out), "dev\n") {
		t.Errorf("gavel version: %q, want the commit %s", out, commit)
	}
}

// A release says the version and commit its build stamped (.goreleaser.yaml),
// whatever Go recorded; a build with nothing stamped says what Go recorded.
func TestStampedVersion(t *testing.T) {
	recorded := func() (*debug.BuildInfo, bool) {
		return &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261125120000-4f2a9c1e0b7d"}}, true
	}
	for _, tc := range []struct {
		version, commit, want string
	}{
		{"v1.2.3", "4f2a9c1e0b7d1234567890abcdef12345678", "v1.2.3 (commit 4f2a9c1e0b7d)"},
		{"v1.2.4-snapshot", "4f2a9c1", "v1.2.4-snapshot (commit 4f2a9c1)"},
		{"v1.2.3", "", "v1.2.3"},
		{"", "", "v0.0.0-20261125120000-4f2a9c1e0b7d"},
		{"", "4f2a9c1e0b7d", "v0.0.0-20261125120000-4f2a9c1e0b7d"}, // a commit alone is no release
	} {
		if got := stampedVersion(tc.version, tc.commit, recorded); got != tc.want {
			t.Errorf("stampedVersion(%q, %q) = %q, want %q", tc.version, tc.commit, got, tc.want)
		}
	}
}
