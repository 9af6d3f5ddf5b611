package rule

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gavelhq/gavel/judge"
)

const defaultBuildTimeout = 10 * time.Minute

// Build configures BuildSuccess.
type Build struct {
	// Timeout bounds the build. Defaults to 10 minutes.
	Timeout time.Duration
	// OutputCap is how many bytes of each output stream are kept (the
	// last ones). Defaults to 1 MiB.
	OutputCap int
}

// BuildSuccess passes when the project in the transcript's workspace
// builds: it finds the build with DetectBuild, runs it in the workspace the
// way Command does, and wants exit code 0. The judgment is named for the
// build that ran, as in "build (go build ./...)"; a failing build shows the
// tail of its output.
//
// Judging is an error when no build is found, when the build cannot be
// started or times out; a transcript without a workspace fails.
//
// It is an error for Timeout or OutputCap to be negative.
func BuildSuccess(b Build) (judge.Judge, error) {
	switch {
	case b.Timeout < 0:
		return nil, fmt.Errorf("build: negative timeout %v", b.Timeout)
	case b.OutputCap < 0:
		return nil, fmt.Errorf("build: negative output cap %d", b.OutputCap)
	}
	timeout := b.Timeout
	if timeout == 0 {
		timeout = defaultBuildTimeout
	}
	return judge.Func(func(ctx context.Context, t *judge.Transcript) (judge.Judgment, error) {
		dir, ok := t.WorkspacePath("")
		if !ok {
			return verdict("build", false, noWorkspace), nil
		}
		args, err := DetectBuild(dir)
		if err != nil {
			return judge.Judgment{Name: "build"}, err
		}
		c := &command{
			name:      "build (" + commandLine(args) + ")",
			args:      args,
			timeout:   timeout,
			outputCap: b.OutputCap,
		}
		return c.Judge(ctx, t)
	}), nil
}

// buildFiles are the files DetectBuild looks for, in order, with the build
// each one means. package.json is handled apart.
var buildFiles = []struct {
	file string
	args []string
}{
	{"go.mod", []string{"go", "build", "./..."}},
	{"Makefile", []string{"make"}},
	{"makefile", []string{"make"}},
	{"GNUmakefile", []string{"make"}},
	{"mvnw", []string{"./mvnw", "-q", "-B", "compile"}},
	{"pom.xml", []string{"mvn", "-q", "-B", "compile"}},
	{"gradlew", []string{"./gradlew", "assemble"}},
	{"build.gradle", []string{"gradle", "assemble"}},
	{"build.gradle.kts", []string{"gradle", "assemble"}},
}

// DetectBuild returns the command that builds the project in dir. It looks
// for these files in dir, in this order, and takes the first it finds:
//
//	go.mod                           go build ./...
//	Makefile, makefile, GNUmakefile  make
//	mvnw                             ./mvnw -q -B compile
//	pom.xml                          mvn -q -B compile
//	gradlew                          ./gradlew assemble
//	build.gradle, build.gradle.kts   gradle assemble
//	package.json                     npm run build
//
// package.json counts only with a "build" script; without one it is an
// error. Finding none of the files is an error that lists them.
func DetectBuild(dir string) ([]string, error) {
	for _, b := range buildFiles {
		ok, err := isFile(filepath.Join(dir, b.file))
		if err != nil {
			return nil, fmt.Errorf("detect build: %w", err)
		}
		if ok {
			return append([]string(nil), b.args...), nil
		}
	}
	pkg := filepath.Join(dir, "package.json")
	ok, err := isFile(pkg)
	if err != nil {
		return nil, fmt.Errorf("detect build: %w", err)
	}
	if !ok {
		looked := make([]string, 0, len(buildFiles)+1)
		for _, b := range buildFiles {
			looked = append(looked, b.file)
		}
		looked = append(looked, "package.json")
		return nil, fmt.Errorf("no build found in %s: looked for %s", dir, strings.Join(looked, ", "))
	}
	data, err := os.ReadFile(pkg)
	if err != nil {
		return nil, fmt.Errorf("detect build: %w", err)
	}
	var manifest struct {
		Scripts map[string]json.RawMessage `json:"scripts"`
	}
	if err := json.Unmarshal(data, &manifest); err != nil {
		return nil, fmt.Errorf("detect build: package.json is not valid: %w", err)
	}
	if _, ok := manifest.Scripts["build"]; !ok {
		return nil, errors.New(`package.json has no "build" script`)
	}
	return []string{"npm", "run", "build"}, nil
}

// isFile reports whether path names something other than a directory.
func isFile(path string) (bool, error) {
	info, err := os.Stat(path)
	if notExist(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return !info.IsDir(), nil
}
