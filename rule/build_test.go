package rule

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/judge/judgetest"
	"github.com/google/go-cmp/cmp"
)

func TestDetectBuild(t *testing.T) {
	const withBuild = `{"name": "app", "scripts": {"build": "tsc", "test": "jest"}}`
	tests := []struct {
		name    string
		files   []string // created empty, except package.json
		pkg     string   // package.json's content, if any
		want    []string
		wantErr string
	}{
		{name: "go", files: []string{"go.mod"}, want: []string{"go", "build", "./..."}},
		{name: "Makefile", files: []string{"Makefile"}, want: []string{"make"}},
		{name: "makefile", files: []string{"makefile"}, want: []string{"make"}},
		{name: "GNUmakefile", files: []string{"GNUmakefile"}, want: []string{"make"}},
		{name: "maven wrapper", files: []string{"mvnw"}, want: []string{"./mvnw", "-q", "-B", "compile"}},
		{name: "maven", files: []string{"pom.xml"}, want: []string{"mvn", "-q", "-B", "compile"}},
		{name: "gradle wrapper", files: []string{"gradlew"}, want: []string{"./gradlew", "assemble"}},
		{name: "gradle", files: []string{"build.gradle"}, want: []string{"gradle", "assemble"}},
		{name: "gradle kotlin", files: []string{"build.gradle.kts"}, want: []string{"gradle", "assemble"}},
		{name: "npm", pkg: withBuild, want: []string{"npm", "run", "build"}},

		{name: "go before make", files: []string{"Makefile", "go.mod", "pom.xml"}, want: []string{"go", "build", "./..."}},
		{name: "make before maven", files: []string{"pom.xml", "GNUmakefile"}, want: []string{"make"}},
		{name: "maven wrapper before maven", files: []string{"pom.xml", "mvnw"}, want: []string{"./mvnw", "-q", "-B", "compile"}},
		{name: "maven before gradle", files: []string{"gradlew", "pom.xml"}, want: []string{"mvn", "-q", "-B", "compile"}},
		{name: "gradle wrapper before gradle", files: []string{"build.gradle", "gradlew"}, want: []string{"./gradlew", "assemble"}},
		{name: "gradle before npm", files: []string{"build.gradle.kts"}, pkg: withBuild, want: []string{"gradle", "assemble"}},
		{name: "a directory is not a project file", files: []string{"go.mod/", "Makefile"}, want: []string{"make"}},

		{name: "npm without a build script", pkg: `{"scripts": {"test": "jest"}}`, wantErr: `package.json has no "build" script`},
		{name: "npm without scripts", pkg: `{}`, wantErr: `package.json has no "build" script`},
		{name: "npm with bad JSON", pkg: `{"scripts": `, wantErr: "package.json is not valid"},
		{name: "nothing", files: []string{"README.md"}, wantErr: "looked for go.mod, Makefile, makefile, GNUmakefile, mvnw, pom.xml, gradlew, build.gradle, build.gradle.kts, package.json"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range tc.files {
				if strings.HasSuffix(f, "/") {
					if err := os.Mkdir(filepath.Join(dir, f), 0o755); err != nil {
						t.Fatal(err)
					}
					continue
				}
				wsWrite(t, dir, f, "")
			}
			if tc.pkg != "" {
				wsWrite(t, dir, "package.json", tc.pkg)
			}
			got, err := DetectBuild(dir)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("DetectBuild = %q, %v; want an error containing %q", got, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("DetectBuild: %v", err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("DetectBuild (-want +got):\n%s", diff)
			}
		})
	}
}

func TestBuildSuccess(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go in PATH")
	}
	// No network: the modules have no dependencies and name an old go
	// version, and the local toolchain builds them.
	t.Setenv("GOTOOLCHAIN", "local")
	t.Setenv("GOFLAGS", "-mod=mod")
	const goMod = "module example.com/tiny\n\ngo 1.21\n"
	good := t.TempDir()
	wsWrite(t, good, "go.mod", goMod)
	wsWrite(t, good, "main.go", "package main\n\nfunc main() { println(\"hi\") }\n")
	broken := t.TempDir()
	wsWrite(t, broken, "go.mod", goMod)
	wsWrite(t, broken, "main.go", "package main\n\nfunc main() { notDefined() }\n")

	j, err := BuildSuccess(Build{Timeout: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		dir        string
		wantStatus judge.Status
		wantIn     []string
	}{
		{"builds", good, judge.StatusPass, []string{"exit code 0"}},
		{"compile error", broken, judge.StatusFail, []string{"exit code 1, want 0", "--- stderr:", "main.go:3:", "undefined: notDefined"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := judgetest.Run(t, j, wsIn(tc.dir))
			judgetest.Check(t, got, tc.wantStatus, tc.wantIn, nil)
			if want := "build (go build ./...)"; got.Name != want {
				t.Errorf("name = %q, want %q", got.Name, want)
			}
		})
	}
}

func TestBuildSuccessMake(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make in PATH")
	}
	good := t.TempDir()
	wsWrite(t, good, "Makefile", "all:\n\t@echo built > out.txt\n")
	broken := t.TempDir()
	wsWrite(t, broken, "Makefile", "all:\n\t@echo the linker failed >&2; exit 3\n")

	j, err := BuildSuccess(Build{})
	if err != nil {
		t.Fatal(err)
	}
	got := judgetest.Run(t, j, wsIn(good))
	judgetest.Check(t, got, judge.StatusPass, []string{"exit code 0"}, nil)
	if got.Name != "build (make)" {
		t.Errorf("name = %q, want %q", got.Name, "build (make)")
	}
	if _, err := os.Stat(filepath.Join(good, "out.txt")); err != nil {
		t.Errorf("make did not run in the workspace: %v", err)
	}

	got = judgetest.Run(t, j, wsIn(broken))
	judgetest.Check(t, got, judge.StatusFail, []string{"exit code 2, want 0", "the linker failed"}, nil)
}

func TestBuildSuccessCannotBuild(t *testing.T) {
	j, err := BuildSuccess(Build{})
	if err != nil {
		t.Fatal(err)
	}
	noScript := t.TempDir()
	wsWrite(t, noScript, "package.json", `{"scripts": {}}`)
	tests := []struct {
		name       string
		transcript *judge.Transcript
		wantStatus judge.Status
		wantIn     string
	}{
		{"nothing to build", wsIn(t.TempDir()), judge.StatusError, "no build found in"},
		{"no build script", wsIn(noScript), judge.StatusError, `package.json has no "build" script`},
		{"no workspace", &judge.Transcript{}, judge.StatusFail, noWorkspace},
		{"nil transcript", nil, judge.StatusFail, noWorkspace},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := judgetest.Run(t, j, tc.transcript)
			judgetest.Check(t, got, tc.wantStatus, []string{tc.wantIn}, nil)
			if got.Name != "build" {
				t.Errorf("name = %q, want build", got.Name)
			}
		})
	}
}

func TestBuildSuccessBuildErrors(t *testing.T) {
	judgetest.RunBuildErrorCases(t, []judgetest.BuildErrorCase{
		{Name: "negative timeout", Build: func() (judge.Judge, error) { return BuildSuccess(Build{Timeout: -time.Minute}) }, WantErr: "build: negative timeout -1m0s"},
		{Name: "negative output cap", Build: func() (judge.Judge, error) { return BuildSuccess(Build{OutputCap: -2}) }, WantErr: "build: negative output cap -2"},
	})
}
