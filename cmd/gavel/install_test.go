package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
)

// The tests of install.sh and of the action's install step install from a
// snapshot release: GoReleaser's dist/ (goreleaser release --snapshot,
// .ci/run), named by GAVEL_RELEASE_DIST and served on loopback as GitHub
// serves a release. Without it they skip, unless
// GAVEL_REQUIRE_INTEGRATION=1.

// snapshot is a snapshot release: its dist/ directory and its tag.
type snapshot struct {
	dist, tag, commit string
}

// releaseSnapshot returns the snapshot GAVEL_RELEASE_DIST names.
func releaseSnapshot(t *testing.T) snapshot {
	t.Helper()
	for _, tool := range []string{"sh", "curl", "tar", "unzip"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skip("needs " + tool)
		}
	}
	dist := os.Getenv("GAVEL_RELEASE_DIST")
	if dist == "" {
		if os.Getenv("GAVEL_REQUIRE_INTEGRATION") == "1" {
			t.Fatal("GAVEL_RELEASE_DIST names no snapshot release, and GAVEL_REQUIRE_INTEGRATION=1 requires the install tests: run goreleaser release --snapshot --clean and set GAVEL_RELEASE_DIST=$PWD/dist (.ci/run does)")
		}
		t.Skip("GAVEL_RELEASE_DIST names no snapshot release (goreleaser release --snapshot --clean)")
	}
	data, err := os.ReadFile(filepath.Join(dist, "metadata.json"))
	if err != nil {
		t.Fatalf("GAVEL_RELEASE_DIST=%s is not GoReleaser's dist/: %v", dist, err)
	}
	var meta struct{ Version, Commit string }
	if err := json.Unmarshal(data, &meta); err != nil {
		t.Fatalf("%s/metadata.json: %v", dist, err)
	}
	return snapshot{dist: dist, tag: "v" + meta.Version, commit: meta.Commit}
}

// releaseServer serves s on loopback as GitHub serves a release:
// BASE/download/TAG/FILE and BASE/latest/download/FILE, FILE a file of
// dist/ or of replace, which stands in for it. It returns BASE, and counts
// the requests in hits.
func releaseServer(t *testing.T, s snapshot, replace map[string][]byte, hits *atomic.Int64) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		dir, file := path.Split(r.URL.Path)
		if dir != "/releases/download/"+s.tag+"/" && dir != "/releases/latest/download/" {
			http.NotFound(w, r)
			return
		}
		if data, ok := replace[file]; ok {
			w.Write(data)
			return
		}
		http.ServeFile(w, r, filepath.Join(s.dist, file))
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/releases"
}

// installScript runs install.sh with env and args; it returns what it
// printed and whether it succeeded.
func installScript(t *testing.T, env []string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("sh", append([]string{filepath.Join("..", "..", "install.sh")}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// install.sh installs each target's archive from the snapshot, picking
// this machine's when not told, and the gavel it installs here says the
// snapshot's version and commit.
func TestInstallScript(t *testing.T) {
	s := releaseSnapshot(t)
	var hits atomic.Int64
	base := releaseServer(t, s, nil, &hits)
	for _, target := range []struct{ os, arch, binary string }{
		{"linux", "amd64", "gavel"}, {"linux", "arm64", "gavel"},
		{"darwin", "amd64", "gavel"}, {"darwin", "arm64", "gavel"},
		{"windows", "amd64", "gavel.exe"}, {"windows", "arm64", "gavel.exe"},
	} {
		dir := t.TempDir()
		out, err := installScript(t, []string{"GAVEL_INSTALL_BASE_URL=" + base, "GAVEL_INSTALL_DIR=" + dir,
			"GAVEL_INSTALL_OS=" + target.os, "GAVEL_INSTALL_ARCH=" + target.arch}, s.tag)
		if err != nil {
			t.Errorf("%s/%s: %v\n%s", target.os, target.arch, err, out)
			continue
		}
		if info, err := os.Stat(filepath.Join(dir, target.binary)); err != nil || info.Size() == 0 || info.Mode()&0o111 == 0 {
			t.Errorf("%s/%s: no executable %s in %s (%v):\n%s", target.os, target.arch, target.binary, dir, err, out)
		}
	}

	// This machine's archive, picked by install.sh, from latest: the
	// version and commit GoReleaser stamped.
	dir := t.TempDir()
	out, err := installScript(t, []string{"GAVEL_INSTALL_BASE_URL=" + base, "GAVEL_INSTALL_DIR=" + dir, "GAVEL_VERSION=latest"})
	if err != nil {
		t.Fatalf("install.sh: %v\n%s", err, out)
	}
	if want := "(latest, " + runtime.GOOS + "/" + runtime.GOARCH + ")"; !strings.Contains(out, want) {
		t.Errorf("install.sh says %q, want it to say %q", out, want)
	}
	version, err := exec.Command(filepath.Join(dir, "gavel"), "version").Output()
	if want := "gavel " + s.tag + " (commit " + s.commit[:12] + ")\n"; err != nil || string(version) != want {
		t.Errorf("the installed gavel version: %q (%v), want %q", version, err, want)
	}
}

// install.sh installs nothing from an archive whose checksum is not the
// release's, nor a version that is not a release, and says why.
func TestInstallScriptRefuses(t *testing.T) {
	s := releaseSnapshot(t)
	checksums, err := os.ReadFile(filepath.Join(s.dist, "checksums.txt"))
	if err != nil {
		t.Fatal(err)
	}
	// Every archive's checksum with its first hex digit changed.
	var damaged bytes.Buffer
	for _, line := range strings.SplitAfter(string(checksums), "\n") {
		if line == "" {
			continue
		}
		first := "0"
		if line[0] == '0' {
			first = "1"
		}
		damaged.WriteString(first + line[1:])
	}
	var hits atomic.Int64
	good := releaseServer(t, s, nil, &hits)
	bad := releaseServer(t, s, map[string][]byte{"checksums.txt": damaged.Bytes()}, &hits)
	for _, tc := range []struct {
		name, base, version, want string
	}{
		{"a checksum that is not the release's", bad, s.tag, "but checksums.txt says"},
		{"a version that is not a release", good, "main", `"main" is not a release`},
		{"a release that does not exist", good, "v9.9.9", "is v9.9.9 a release of gavel?"},
	} {
		dir := filepath.Join(t.TempDir(), "bin")
		out, err := installScript(t, []string{"GAVEL_INSTALL_BASE_URL=" + tc.base, "GAVEL_INSTALL_DIR=" + dir}, tc.version)
		if err == nil || !strings.Contains(out, tc.want) {
			t.Errorf("%s: install.sh: %v, said:\n%s\nwant a failure saying %q", tc.name, err, out, tc.want)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("%s: install.sh made %s", tc.name, dir)
		}
	}
}
