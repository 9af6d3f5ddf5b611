// Package doccheck reads the documentation as its tests check it: the
// fenced code blocks of Markdown files, the gavel commands in a shell
// block, and the relative links and the headings they point at.
//
// The tests that use it live beside what they check against: the YAML
// blocks are validated by the suite loader (docs_test.go at the module's
// root), the commands parsed by the real CLI (cmd/gavel/docs_test.go).
package doccheck

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// Files returns the Markdown files a newcomer reads, relative to the
// module's root: README.md, every page of docs/ and docs/decisions/,
// and web/*.md.
func Files(root string) ([]string, error) {
	files := []string{"README.md"}
	for _, glob := range []string{"docs/*.md", "docs/decisions/*.md", "web/*.md"} {
		more, err := filepath.Glob(filepath.Join(root, glob))
		if err != nil {
			return nil, err
		}
		for _, m := range more {
			rel, err := filepath.Rel(root, m)
			if err != nil {
				return nil, err
			}
			files = append(files, filepath.ToSlash(rel))
		}
	}
	return files, nil
}

// A Block is a fenced code block.
type Block struct {
	// File and Line say where it starts (the line of its opening fence).
	File string
	Line int
	// Lang is the first word of the fence's info string ("yaml", "sh").
	Lang string
	// Mark is what an HTML comment on the line just before the fence
	// says, "<!-- doc: fragment of a case -->" giving "fragment of a
	// case": how a test should read the block ("" when there is none).
	Mark string
	Text string
}

// Where returns "file:line".
func (b Block) Where() string { return fmt.Sprintf("%s:%d", b.File, b.Line) }

var (
	fence = regexp.MustCompile("(?ms)^```([^\n]*)\n(.*?)^```[ \t]*$")
	mark  = regexp.MustCompile(`<!--\s*doc:\s*(.*?)\s*-->\s*$`)
)

// Blocks returns the fenced code blocks of the Markdown file at
// root/file, in order.
func Blocks(root, file string) ([]Block, error) {
	data, err := os.ReadFile(filepath.Join(root, file))
	if err != nil {
		return nil, err
	}
	text := string(data)
	var blocks []Block
	for _, m := range fence.FindAllStringSubmatchIndex(text, -1) {
		b := Block{
			File: file,
			Line: strings.Count(text[:m[0]], "\n") + 1,
			Text: text[m[4]:m[5]],
		}
		if f := strings.Fields(text[m[2]:m[3]]); len(f) > 0 {
			b.Lang = f[0]
		}
		before := strings.TrimRight(text[:m[0]], "\n")
		if mm := mark.FindStringSubmatch(before[strings.LastIndex(before, "\n")+1:]); mm != nil {
			b.Mark = mm[1]
		}
		blocks = append(blocks, b)
	}
	return blocks, nil
}

// A Command is one gavel command of a shell script.
type Command struct {
	// Line is the line of the script it starts on, from 1.
	Line int
	// Args are its arguments after the program: ["run", "--tag", "x"].
	Args []string
}

// gavelPrograms are the ways a script runs gavel: the installed command,
// or go run of its package.
var gavelPrograms = [][]string{
	{"gavel"},
	{"go", "run", "./cmd/gavel"},
	{"go", "run", "github.com/gavelhq/gavel/cmd/gavel"},
	{"go", "run", "github.com/gavelhq/gavel/cmd/gavel@latest"},
}

// Commands returns the gavel commands of a shell script: each simple
// command (split at ;, &, &&, ||, | and newlines; a backslash-newline
// continues a line; # starts a comment) whose program, after any
// VAR=value assignments, is gavel or go run of its package. Words are
// split as a shell splits them, quotes removed; nothing is expanded.
func Commands(script string) []Command {
	var cmds []Command
	for _, c := range simpleCommands(script) {
		words := c.Args
		for len(words) > 0 && isAssignment(words[0]) {
			words = words[1:]
		}
		for _, prog := range gavelPrograms {
			if len(words) >= len(prog) && slices.Equal(words[:len(prog)], prog) {
				cmds = append(cmds, Command{Line: c.Line, Args: words[len(prog):]})
				break
			}
		}
	}
	return cmds
}

// Words splits a line into words as a shell would, quotes removed and
// nothing expanded: the action's args input is split so.
func Words(line string) []string {
	var words []string
	for _, c := range simpleCommands(line) {
		words = append(words, c.Args...)
	}
	return words
}

func isAssignment(word string) bool {
	name, _, ok := strings.Cut(word, "=")
	if !ok || name == "" {
		return false
	}
	for i, r := range name {
		if r != '_' && !unicode.IsLetter(r) && (i == 0 || !unicode.IsDigit(r)) {
			return false
		}
	}
	return true
}

// simpleCommands splits a script into its simple commands, each with the
// line it starts on.
func simpleCommands(script string) []Command {
	var (
		cmds    []Command
		words   []string
		word    strings.Builder
		inWord  bool
		skip    bool // the word being read is a redirection's target
		line    = 1
		start   = 1
		quote   rune
		rs      = []rune(script)
		endWord = func() {
			if inWord && !skip {
				words = append(words, word.String())
			}
			if inWord {
				word.Reset()
				inWord, skip = false, false
			}
		}
		endCommand = func() {
			endWord()
			if len(words) > 0 {
				cmds = append(cmds, Command{Line: start, Args: words})
			}
			words = nil
		}
	)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if r == '\n' {
			line++
		}
		switch {
		case quote == '\'':
			if r == '\'' {
				quote = 0
			} else {
				word.WriteRune(r)
			}
		case quote == '"':
			switch {
			case r == '"':
				quote = 0
			case r == '\\' && i+1 < len(rs) && strings.ContainsRune(`"\$`+"`", rs[i+1]):
				i++
				word.WriteRune(rs[i])
			default:
				word.WriteRune(r)
			}
		case r == '\\' && i+1 < len(rs):
			i++
			if rs[i] == '\n' {
				line++ // a continued line
				continue
			}
			word.WriteRune(rs[i])
			inWord = true
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == '#' && !inWord:
			for i+1 < len(rs) && rs[i+1] != '\n' {
				i++
			}
		case r == '\n' || r == ';' || r == '&' || r == '|' || r == '(' || r == ')':
			if r == '(' && inWord && strings.HasSuffix(word.String(), "$") {
				word.WriteRune(r) // $(...) stays in its word
				depth := 1
				for i+1 < len(rs) && depth > 0 {
					i++
					if rs[i] == '(' {
						depth++
					} else if rs[i] == ')' {
						depth--
					}
					word.WriteRune(rs[i])
				}
				continue
			}
			endCommand()
		case r == '>' || r == '<':
			if inWord && strings.Trim(word.String(), "0123456789") == "" {
				word.Reset() // 2> names a descriptor
				inWord = false
			}
			endWord()
			for i+1 < len(rs) && (rs[i+1] == '>' || rs[i+1] == '&') {
				i++
			}
			skip = true
		case r == ' ' || r == '\t':
			endWord()
		default:
			if !inWord && len(words) == 0 {
				start = line
			}
			word.WriteRune(r)
			inWord = true
		}
	}
	endCommand()
	return cmds
}

// A Link is a relative link of a Markdown file.
type Link struct {
	// File and Line say where it is written.
	File string
	Line int
	// Target is the link as written; Path the file it names, relative to
	// the module's root (the file itself for "#anchor"), and Anchor what
	// follows #.
	Target, Path, Anchor string
}

var link = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// Links returns the relative links of the Markdown file at root/file,
// outside code blocks and code spans.
func Links(root, file string) ([]Link, error) {
	data, err := os.ReadFile(filepath.Join(root, file))
	if err != nil {
		return nil, err
	}
	var links []Link
	for i, text := range proseLines(string(data)) {
		for _, m := range link.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, anchor, _ := strings.Cut(target, "#")
			l := Link{File: file, Line: i + 1, Target: target, Anchor: anchor, Path: file}
			if path != "" {
				l.Path = filepath.ToSlash(filepath.Join(filepath.Dir(file), path))
			}
			links = append(links, l)
		}
	}
	return links, nil
}

// A Span is a code span of prose: `gavel run --tag policy`.
type Span struct {
	File string
	Line int
	// Text is what is between the backticks.
	Text string
}

// Spans returns the code spans of the Markdown file at root/file, outside
// code blocks. A span broken over two lines is not found.
func Spans(root, file string) ([]Span, error) {
	data, err := os.ReadFile(filepath.Join(root, file))
	if err != nil {
		return nil, err
	}
	var spans []Span
	inCode := false
	for i, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "```") {
			inCode = !inCode
			continue
		}
		if inCode {
			continue
		}
		for _, m := range codeSpan.FindAllString(l, -1) {
			spans = append(spans, Span{File: file, Line: i + 1, Text: strings.Trim(m, "`")})
		}
	}
	return spans, nil
}

// proseLines returns the lines of a Markdown text with code blocks and
// code spans blanked, so that what they show is not read as links or
// headings.
func proseLines(text string) []string {
	lines := strings.Split(text, "\n")
	inCode := false
	for i, l := range lines {
		if strings.HasPrefix(l, "```") {
			inCode = !inCode
			lines[i] = ""
			continue
		}
		if inCode {
			lines[i] = ""
			continue
		}
		lines[i] = codeSpan.ReplaceAllString(l, "``")
	}
	return lines
}

var codeSpan = regexp.MustCompile("`[^`]*`")

// Anchors returns the anchors of the headings of the Markdown file at
// root/file, as GitHub makes them (see Slug).
func Anchors(root, file string) (map[string]bool, error) {
	data, err := os.ReadFile(filepath.Join(root, file))
	if err != nil {
		return nil, err
	}
	anchors := map[string]bool{}
	seen := map[string]int{}
	inCode := false
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "```") {
			inCode = !inCode
		}
		if inCode || !strings.HasPrefix(l, "#") {
			continue
		}
		heading := strings.TrimSpace(strings.TrimLeft(l, "#"))
		slug := Slug(heading)
		if n := seen[slug]; n > 0 {
			anchors[fmt.Sprintf("%s-%d", slug, n)] = true
		} else {
			anchors[slug] = true
		}
		seen[slug]++
	}
	return anchors, nil
}

// Slug returns the anchor GitHub gives a heading: lower case, letters,
// digits, spaces turned to hyphens, hyphens and underscores kept, the
// rest dropped.
func Slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteRune('-')
		}
	}
	return b.String()
}
