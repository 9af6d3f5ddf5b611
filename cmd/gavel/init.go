package main

import (
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	flag "github.com/spf13/pflag"

	"github.com/gavelhq/gavel/spec"
)

const initHelp = `Usage: gavel init [DIR]

Writes a starter suite into DIR (default "."), next to your agent: a
gavel.yaml with two cases, the scripted models that let it run offline,
and the JSON Schema your editor uses to complete the suite's fields. A
.gitignore keeps Gavel's outputs (.gavel/, reports/) out of git: written,
or added to when DIR has one. Nothing else is overwritten: if one of the
files exists, nothing is written.

Example:
  gavel init evals && gavel run evals
`

// starter is the suite gavel init writes.
//
//go:embed starter
var starter embed.FS

func initCommand(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("init", flag.ContinueOnError)
	flags.SetOutput(stderr)
	flags.Usage = func() { fmt.Fprint(stderr, initHelp) }
	if err := flags.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitPassed
		}
		return exitUsage
	}
	if flags.NArg() > 1 {
		fmt.Fprint(stderr, "gavel init: give one directory at most\n\n", initHelp)
		return exitUsage
	}
	dir := "."
	if flags.NArg() == 1 {
		dir = flags.Arg(0)
	}
	files, err := starterFiles()
	if err != nil {
		fmt.Fprintln(stderr, "gavel init:", err)
		return exitUnknown
	}
	var existing []string
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			existing = append(existing, filepath.Join(dir, name))
		}
	}
	if len(existing) > 0 {
		fmt.Fprintf(stderr, "gavel init: nothing written: %s would be overwritten (remove them, or init another directory)\n", strings.Join(existing, ", "))
		return exitUsage
	}
	for name, data := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			fmt.Fprintln(stderr, "gavel init:", err)
			return exitInfra
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			fmt.Fprintln(stderr, "gavel init:", err)
			return exitInfra
		}
	}
	if err := ignoreOutputs(dir); err != nil {
		fmt.Fprintln(stderr, "gavel init:", err)
		return exitInfra
	}
	fmt.Fprintf(stdout, "Wrote a starter suite to %s. Run it with:\n  gavel run %s\n", filepath.Join(dir, "gavel.yaml"), dir)
	return exitPassed
}

// ignoredOutputs are the lines of a .gitignore that keep Gavel's own
// outputs out of git (and so out of --changed-since): the results
// database and the cache, and the reports.
var ignoredOutputs = []string{".gavel/", "reports/"}

// ignoreOutputs adds the lines of ignoredOutputs that dir's .gitignore
// lacks, making the file if there is none.
func ignoreOutputs(dir string) error {
	path := filepath.Join(dir, ".gitignore")
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	have := strings.Fields(string(data))
	var add strings.Builder
	for _, line := range ignoredOutputs {
		if !slices.Contains(have, line) && !slices.Contains(have, strings.TrimSuffix(line, "/")) {
			add.WriteString(line + "\n")
		}
	}
	if add.Len() == 0 {
		return nil
	}
	if len(data) > 0 && !strings.HasSuffix(string(data), "\n") {
		data = append(data, '\n')
	}
	if len(data) == 0 {
		data = []byte("# Gavel's own outputs: the results database, the model cache, and the reports.\n")
	}
	return os.WriteFile(path, append(data, add.String()...), 0o644)
}

// starterFiles are the files gavel init writes, by path in the directory.
func starterFiles() (map[string][]byte, error) {
	files := map[string][]byte{"gavel.schema.json": spec.Schema()}
	err := fs.WalkDir(starter, "starter", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := starter.ReadFile(path)
		files[strings.TrimPrefix(path, "starter/")] = data
		return err
	})
	return files, err
}
