package eval

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gavelhq/gavel/spec"
)

// starter is the suite Init writes.
//
//go:embed starter
var starter embed.FS

// Init writes a starter suite into dir (gavel init): a gavel.yaml with
// two cases, the scripted models that let it run offline, the JSON
// Schema of suite files, and a .gitignore that keeps Gavel's outputs out
// of git (written, or added to). Nothing else is overwritten: if one of
// the files exists, nothing is written and the error is an *ExistsError.
func Init(dir string) error {
	files, err := starterFiles()
	if err != nil {
		return err
	}
	var existing []string
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			existing = append(existing, filepath.Join(dir, name))
		}
	}
	if len(existing) > 0 {
		return &ExistsError{Paths: existing}
	}
	for name, data := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return err
		}
	}
	return ignoreOutputs(dir)
}

// An ExistsError is Init's refusal to overwrite files.
type ExistsError struct{ Paths []string }

func (e *ExistsError) Error() string {
	return fmt.Sprintf("nothing written: %s would be overwritten (remove them, or init another directory)", strings.Join(e.Paths, ", "))
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
