package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/report"
)

// reportsOf checks the flags of the reports to write: the format printed
// and the files. The JSON report is always written, to
// reports/latest.json unless --out names another JSON file.
func reportsOf(f *runFlags) (report.Format, []output, error) {
	format, err := report.ParseFormat(f.format)
	if err != nil {
		return "", nil, fmt.Errorf("--format: %w", err)
	}
	if f.minPassRate < 0 || f.minPassRate > 1 {
		return "", nil, fmt.Errorf("--min-pass-rate %v: want a pass rate from 0 to 1", f.minPassRate)
	}
	outs, err := outputs(f.outs)
	if err != nil {
		return "", nil, err
	}
	if !slices.ContainsFunc(outs, func(o output) bool { return o.format == report.JSON }) {
		outs = append(outs, output{defaultJSONReport, report.JSON}) // the run's full record, always kept
	}
	return format, outs, nil
}

// defaultJSONReport is where the JSON report goes unless --out names
// another JSON file.
const defaultJSONReport = "reports/latest.json"

// An output is a report file to write.
type output struct {
	path   string
	format report.Format
}

func outputs(paths []string) ([]output, error) {
	byExt := map[string]report.Format{".json": report.JSON, ".xml": report.JUnit, ".md": report.Markdown, ".html": report.HTML, ".txt": report.Text}
	var out []output
	for _, p := range paths {
		f, ok := byExt[strings.ToLower(filepath.Ext(p))]
		if !ok {
			return nil, fmt.Errorf("--out %s: the extension says no format: use .json, .xml (JUnit), .md, .html or .txt", p)
		}
		out = append(out, output{p, f})
	}
	return out, nil
}

// writeReport writes a report file whole or not at all: a temporary file
// renamed into place.
func writeReport(o output, run *gavel.Run, opts report.Options) error {
	if err := os.MkdirAll(filepath.Dir(o.path), 0o755); err != nil {
		return fmt.Errorf("report %s: %w", o.path, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(o.path), ".gavel-report-*")
	if err != nil {
		return fmt.Errorf("report %s: %w", o.path, err)
	}
	defer os.Remove(tmp.Name())
	if err := report.Write(tmp, o.format, run, opts); err != nil {
		tmp.Close()
		return fmt.Errorf("report %s: %w", o.path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("report %s: %w", o.path, err)
	}
	return os.Rename(tmp.Name(), o.path)
}
