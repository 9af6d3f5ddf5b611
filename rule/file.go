package rule

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"strconv"
	"strings"
	"syscall"

	"github.com/gavelhq/gavel/judge"
)

// excerptLen is how many runes of a file's content a reasoning quotes.
const excerptLen = 200

// FileExists passes when something exists at path: a file, a directory, or
// a symbolic link to one (a dangling link does not count). A relative path
// is resolved against the transcript's workspace.
//
// It is an error for path to be empty.
func FileExists(path string) (judge.Judge, error) {
	if err := checkFilePath("file_exists", path); err != nil {
		return nil, err
	}
	name := "file_exists " + strconv.Quote(path)
	return judge.Func(func(ctx context.Context, t *judge.Transcript) (judge.Judgment, error) {
		full, ok := t.WorkspacePath(path)
		if !ok {
			return verdict(name, false, noWorkspace), nil
		}
		info, err := os.Stat(full)
		switch {
		case notExist(err):
			return verdict(name, false, fmt.Sprintf("file %q does not exist (%s)", path, full)), nil
		case err != nil:
			return judge.Judgment{Name: name}, fmt.Errorf("check file %q: %w", path, err)
		case info.IsDir():
			return verdict(name, true, fmt.Sprintf("%q exists (a directory)", path)), nil
		}
		return verdict(name, true, fmt.Sprintf("file %q exists (%d bytes)", path, info.Size())), nil
	}), nil
}

// Match says how FileContent compares a file's content with the text it
// wants. (The constants carry a Match prefix because Equals, Contains and
// Regex are the package's text rules.)
type Match string

const (
	// MatchEquals wants the content to be the text, once white space
	// around both is trimmed.
	MatchEquals Match = "equals"
	// MatchContains wants the text somewhere in the content.
	MatchContains Match = "contains"
	// MatchRegex wants the content to match the text as a regular expression
	// (Go's RE2 syntax, https://golang.org/s/re2syntax), anywhere in it
	// unless anchored.
	MatchRegex Match = "regex"
)

// FileContent passes when the content of the file at path matches want as
// m says. A relative path is resolved against the transcript's workspace; a
// missing file fails.
//
// It is an error for path to be empty, for m to be unknown, for want to be
// empty with MatchContains or MatchRegex (it would match any file), or for
// want not to compile with MatchRegex.
func FileContent(path string, m Match, want string) (judge.Judge, error) {
	if err := checkFilePath("file_content", path); err != nil {
		return nil, err
	}
	var re *regexp.Regexp
	switch m {
	case MatchEquals:
	case MatchContains, MatchRegex:
		if want == "" {
			return nil, fmt.Errorf("file_content %q: empty text to match with %q: it would match any file", path, m)
		}
		if m == MatchRegex {
			var err error
			if re, err = regexp.Compile(want); err != nil {
				return nil, fmt.Errorf("file_content %q: invalid regex: %w", path, err)
			}
		}
	default:
		return nil, fmt.Errorf("file_content %q: unknown match %q: want %q, %q or %q", path, m, MatchEquals, MatchContains, MatchRegex)
	}
	name := "file_content " + strconv.Quote(path)
	return judge.Func(func(ctx context.Context, t *judge.Transcript) (judge.Judgment, error) {
		data, fail, err := readWorkspaceFile(t, path)
		if err != nil {
			return judge.Judgment{Name: name}, err
		}
		if fail != "" {
			return verdict(name, false, fail), nil
		}
		content := string(data)
		var passed bool
		var verb, what string // verb in the plural: "does not " + verb
		switch m {
		case MatchEquals:
			passed = strings.TrimSpace(content) == strings.TrimSpace(want)
			verb, what = "equal", excerpt(strings.TrimSpace(want), excerptLen)+" (white space around it trimmed)"
		case MatchContains:
			passed = strings.Contains(content, want)
			verb, what = "contain", excerpt(want, excerptLen)
		case MatchRegex:
			passed = re.MatchString(content)
			verb, what = "match", "/"+want+"/"
		}
		if passed {
			third := verb + "s"
			if verb == "match" {
				third = "matches"
			}
			return verdict(name, true, fmt.Sprintf("file %q %s %s", path, third, what)), nil
		}
		return verdict(name, false, fmt.Sprintf("file %q does not %s %s; it holds %s", path, verb, what, excerpt(content, excerptLen))), nil
	}), nil
}

// FileJSON passes when the file at path holds JSON and the value at
// jsonPath in it equals want. Values compare as JSON: numbers by value (1
// equals 1.0), objects by their keys whatever the order, arrays in order.
//
// jsonPath is "$" (the whole document) followed by steps: ".key",
// `["key with spaces"]` or "[0]" (an array index), as in
// "$.items[0].name"; the leading "$" may be left out. A step that cannot be
// taken (a missing key, an index past the end, a key into an array) fails,
// saying which.
//
// It is an error for path to be empty, for jsonPath not to parse, or for
// want not to be one JSON value.
func FileJSON(path, jsonPath string, want json.RawMessage) (judge.Judge, error) {
	if err := checkFilePath("file_json", path); err != nil {
		return nil, err
	}
	steps, err := parseValuePath(jsonPath)
	if err != nil {
		return nil, fmt.Errorf("file_json %q: %w", path, err)
	}
	wantValue, err := decodeJSON(want)
	if err != nil {
		return nil, fmt.Errorf("file_json %q: the wanted value is not JSON: %w", path, err)
	}
	wantText := renderJSON(wantValue, excerptLen)
	name := fmt.Sprintf("file_json %q %s", path, steps)
	return judge.Func(func(ctx context.Context, t *judge.Transcript) (judge.Judgment, error) {
		data, fail, err := readWorkspaceFile(t, path)
		if err != nil {
			return judge.Judgment{Name: name}, err
		}
		if fail != "" {
			return verdict(name, false, fail), nil
		}
		doc, err := decodeJSON(data)
		if err != nil {
			return verdict(name, false, fmt.Sprintf("file %q is not JSON: %v; it holds %s", path, err, excerpt(string(data), excerptLen))), nil
		}
		got, err := steps.lookup(doc)
		if err != nil {
			return verdict(name, false, fmt.Sprintf("file %q: %v", path, err)), nil
		}
		if !jsonEqual(got, wantValue) {
			return verdict(name, false, fmt.Sprintf("file %q: %s is %s, want %s", path, steps, renderJSON(got, excerptLen), wantText)), nil
		}
		return verdict(name, true, fmt.Sprintf("file %q: %s is %s", path, steps, wantText)), nil
	}), nil
}

// checkFilePath reports an empty path when a file rule is built.
func checkFilePath(rule, path string) error {
	if strings.TrimSpace(path) == "" {
		return fmt.Errorf("%s: empty path", rule)
	}
	return nil
}

// readWorkspaceFile reads the file at path, resolved against the
// transcript's workspace. When that gives a reason to fail (no workspace,
// no such file, a directory), it returns the reason in fail; err is for
// what prevents judging, such as a file that cannot be read.
func readWorkspaceFile(t *judge.Transcript, path string) (data []byte, fail string, err error) {
	full, ok := t.WorkspacePath(path)
	if !ok {
		return nil, noWorkspace, nil
	}
	info, err := os.Stat(full)
	switch {
	case notExist(err):
		return nil, fmt.Sprintf("file %q does not exist (%s)", path, full), nil
	case err != nil:
		return nil, "", fmt.Errorf("read file %q: %w", path, err)
	case info.IsDir():
		return nil, fmt.Sprintf("%q is a directory, not a file", path), nil
	}
	data, err = os.ReadFile(full)
	if err != nil {
		return nil, "", fmt.Errorf("read file %q: %w", path, err)
	}
	return data, "", nil
}

// notExist reports whether err says that there is nothing at a path,
// including when a parent in the path is a file rather than a directory.
func notExist(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}
