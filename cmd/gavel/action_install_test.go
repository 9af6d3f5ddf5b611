package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// runActionStep runs the script of the action's step id with env, as
// GitHub would, and returns the outputs it wrote to GITHUB_OUTPUT and what
// it printed.
func runActionStep(t *testing.T, id string, env ...string) (map[string]string, string) {
	t.Helper()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("needs bash")
	}
	outputs := filepath.Join(t.TempDir(), "output")
	cmd := exec.Command("bash", "-c", actionScript(t, id))
	cmd.Env = append(os.Environ(), append([]string{"GITHUB_OUTPUT=" + outputs}, env...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the action's %s step: %v\n%s", id, err, out)
	}
	data, _ := os.ReadFile(outputs)
	got := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			got[k] = v
		}
	}
	return got, string(out)
}

// The action installs a release unless it is given, or pinned to, a
// commit: by default its own release, and a release of a tag is cached.
func TestActionPicksTheGavelToInstall(t *testing.T) {
	const commit = "4f2a9c1e0b7d1234567890abcdef1234567890ab"
	for _, tc := range []struct {
		version, actionRef string
		want               map[string]string
	}{
		{"", "v1.2.3", map[string]string{"how": "release", "version": "v1.2.3", "dir": "TOOLS/gavel/v1.2.3/X64", "cache-key": "gavel-v1.2.3-Linux-X64"}},
		{"", "main", map[string]string{"how": "release", "version": "latest", "dir": "TEMP/gavel-latest"}},
		{"", "v1", map[string]string{"how": "release", "version": "latest", "dir": "TEMP/gavel-latest"}},
		{"", "", map[string]string{"how": "release", "version": "latest", "dir": "TEMP/gavel-latest"}},
		{"", commit, map[string]string{"how": "go", "version": commit}},
		{"v2.0.0-rc.1", "v1.2.3", map[string]string{"how": "release", "version": "v2.0.0-rc.1", "dir": "TOOLS/gavel/v2.0.0-rc.1/X64", "cache-key": "gavel-v2.0.0-rc.1-Linux-X64"}},
		{"latest", "v1.2.3", map[string]string{"how": "release", "version": "latest", "dir": "TEMP/gavel-latest"}},
		{"4f2a9c1", "v1.2.3", map[string]string{"how": "go", "version": "4f2a9c1"}},
		{"main", "", map[string]string{"how": "go", "version": "main"}},
	} {
		got, _ := runActionStep(t, "pick", "GAVEL_VERSION="+tc.version, "GAVEL_ACTION_REF="+tc.actionRef,
			"RUNNER_OS=Linux", "RUNNER_ARCH=X64", "RUNNER_TOOL_CACHE=TOOLS", "RUNNER_TEMP=TEMP")
		if len(got) != len(tc.want) {
			t.Errorf("version %q, action ref %q: outputs %v, want %v", tc.version, tc.actionRef, got, tc.want)
			continue
		}
		for k, v := range tc.want {
			if got[k] != v {
				t.Errorf("version %q, action ref %q: outputs %v, want %v", tc.version, tc.actionRef, got, tc.want)
				break
			}
		}
	}
}

// The action's install step installs the release it picked from the
// snapshot served on loopback, puts it on the job's PATH, and the second
// time finds it cached and downloads nothing.
func TestActionInstallsARelease(t *testing.T) {
	s := releaseSnapshot(t)
	var hits atomic.Int64
	base := releaseServer(t, s, nil, &hits)
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	tools, temp := t.TempDir(), t.TempDir()
	picked, _ := runActionStep(t, "pick", "GAVEL_VERSION="+s.tag, "GAVEL_ACTION_REF=",
		"RUNNER_OS=Linux", "RUNNER_ARCH=X64", "RUNNER_TOOL_CACHE="+tools, "RUNNER_TEMP="+temp)
	if picked["how"] != "release" || picked["dir"] == "" {
		t.Fatalf("the action picked %v, want the release %s", picked, s.tag)
	}
	githubPath := filepath.Join(t.TempDir(), "path")
	install := func() string {
		_, out := runActionStep(t, "install", "GAVEL_HOW="+picked["how"], "GAVEL_VERSION="+picked["version"],
			"GAVEL_DIR="+picked["dir"], "GITHUB_ACTION_PATH="+root, "GITHUB_PATH="+githubPath,
			"GAVEL_INSTALL_BASE_URL="+base)
		return out
	}

	out := install()
	if want := "gavel " + s.tag + " (commit " + s.commit[:12] + ")"; !strings.Contains(out, want) {
		t.Errorf("the install step printed:\n%s\nwant %q", out, want)
	}
	if data, _ := os.ReadFile(githubPath); strings.TrimSpace(string(data)) != picked["dir"] {
		t.Errorf("GITHUB_PATH has %q, want %s", data, picked["dir"])
	}
	if hits.Load() == 0 {
		t.Error("the install step downloaded nothing")
	}

	hits.Store(0)
	if out := install(); !strings.Contains(out, "cached") || hits.Load() != 0 {
		t.Errorf("installed again with %d downloads, saying:\n%s\nwant it cached", hits.Load(), out)
	}
}
