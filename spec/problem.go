package spec

import (
	"fmt"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// A Problem is one mistake in a suite, where it was written.
type Problem struct {
	File         string
	Line, Column int // from 1; 0 when unknown
	Message      string
}

func (p Problem) String() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		fmt.Fprintf(&b, ":%d", p.Line)
		if p.Column > 0 {
			fmt.Fprintf(&b, ":%d", p.Column)
		}
	}
	return b.String() + ": " + p.Message
}

// Problems are every mistake found in a suite, in file and line order. It
// is the error Load and Build return when the suite is wrong, so that a
// user fixes everything in one go.
type Problems []Problem

func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// sorted returns ps in file and line order, each once, or nil when there
// are none. Problems at one place keep the order they were found in.
func (ps Problems) sorted() error {
	if len(ps) == 0 {
		return nil
	}
	sort.SliceStable(ps, func(i, j int) bool {
		if ps[i].File != ps[j].File {
			return ps[i].File < ps[j].File
		}
		if ps[i].Line != ps[j].Line {
			return ps[i].Line < ps[j].Line
		}
		return ps[i].Column < ps[j].Column
	})
	var once Problems
	seen := map[Problem]bool{}
	for _, p := range ps {
		if !seen[p] {
			seen[p] = true
			once = append(once, p)
		}
	}
	return once
}

// yamlLine finds the "line N: " that yaml's errors start with.
// Gavel's own decoding errors may add a column: "line N:C: ".
var yamlLine = regexp.MustCompile(`^(?:yaml: )?line (\d+)(?::(\d+))?: (.*)$`)

// yamlProblems turns a yaml error into problems, adding offset to its
// line numbers (for a JSON Lines record, the line it is on, minus one).
func yamlProblems(file string, offset int, err error) Problems {
	var out Problems
	for _, msg := range strings.Split(strings.TrimPrefix(err.Error(), "yaml: unmarshal errors:\n"), "\n") {
		msg = strings.TrimSpace(msg)
		if msg == "" {
			continue
		}
		p := Problem{File: file, Message: msg}
		if m := yamlLine.FindStringSubmatch(msg); m != nil {
			n, _ := strconv.Atoi(m[1])
			p.Line, p.Message = n+offset, m[3]
			p.Column, _ = strconv.Atoi(m[2])
			if strings.HasPrefix(p.Message, "did not find expected ") {
				// A parser's error: yaml.v3 counts its line from 0.
				p.Line++
			}
			if p.Message == "did not find expected ',' or '}'" || p.Message == "did not find expected ',' or ']'" {
				p.Message += `: a value inside { } or [ ] that holds ": ", "?", "#" or "," needs quotes`
				if p.Column == 0 {
					p.Column = unquotedFlowValue(lineOf(file, p.Line))
				}
			}
		}
		out = append(out, p)
	}
	return out
}

// lineOf returns line n (from 1) of file, or "" when it cannot be read.
func lineOf(file string, n int) string {
	data, err := os.ReadFile(file)
	if err != nil || n < 1 {
		return ""
	}
	lines := strings.Split(string(data), "\n")
	if n > len(lines) {
		return ""
	}
	return lines[n-1]
}

// unquotedFlowValue returns the column (from 1) where a value of a flow
// mapping on line starts that holds what a plain value inside { } cannot
// ("?", ": " or " #"), or 0 when it finds none: the value to quote.
func unquotedFlowValue(line string) int {
	depth := 0
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
		case c == ':' && depth > 0 && i+1 < len(line) && line[i+1] == ' ':
			start := i + 1
			for start < len(line) && line[start] == ' ' {
				start++
			}
			if start == len(line) || strings.IndexByte(`"'{[`, line[start]) >= 0 {
				continue
			}
			end := start
			for end < len(line) && strings.IndexByte(",}]", line[end]) < 0 {
				end++
			}
			if v := line[start:end]; strings.ContainsAny(v, "?") || strings.Contains(v, ": ") || strings.Contains(v, " #") {
				return start + 1
			}
			i = end - 1
		}
	}
	return 0
}
