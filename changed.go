package gavel

import (
	"path"
	"strings"
)

// Affected returns the cases a change to the files changed touches, for
// running only what a pull request can have broken. changed are slash-
// separated paths relative to the suite file's directory, as Paths and
// SharedPaths are written. A case is affected when one of its Paths
// matches a changed file, or when it has no Paths (nothing says what it
// covers, so it always runs); every case is when a SharedPaths glob
// matches one.
//
// Globs are path.Match patterns in which "**" matches any number of
// directories: "agent/**" matches every file under agent/, and
// "**/*.go" every Go file.
func (s *Suite) Affected(changed []string) []*Case {
	if anyMatch(s.SharedPaths, changed) {
		return s.Cases
	}
	var out []*Case
	for _, c := range s.Cases {
		if len(c.Paths) == 0 || anyMatch(c.Paths, changed) {
			out = append(out, c)
		}
	}
	return out
}

// AffectedCase reports whether the files changed affect case c of s, as
// Affected selects it: a shared path of s changed, or c has no paths, or
// one of them matches a changed file. With a nil c, it reports whether a
// shared path changed (every case is affected).
func (s *Suite) AffectedCase(c *Case, changed []string) bool {
	if anyMatch(s.SharedPaths, changed) {
		return true
	}
	return c != nil && (len(c.Paths) == 0 || anyMatch(c.Paths, changed))
}

// anyMatch reports whether one of globs matches one of files.
func anyMatch(globs, files []string) bool {
	for _, g := range globs {
		for _, f := range files {
			if MatchPath(g, f) {
				return true
			}
		}
	}
	return false
}

// MatchPath reports whether the slash-separated path name matches glob,
// where "**" as a whole element matches zero or more elements and the
// other elements are path.Match patterns. A malformed glob matches
// nothing.
func MatchPath(glob, name string) bool {
	return matchElems(strings.Split(path.Clean(glob), "/"), strings.Split(path.Clean(name), "/"))
}

func matchElems(glob, name []string) bool {
	for len(glob) > 0 {
		if glob[0] == "**" {
			for skip := 0; skip <= len(name); skip++ {
				if matchElems(glob[1:], name[skip:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, err := path.Match(glob[0], name[0]); err != nil || !ok {
			return false
		}
		glob, name = glob[1:], name[1:]
	}
	return len(name) == 0
}
