package eval

import (
	"bytes"
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/report"
)

// reportsOf checks the flags of the reports to write: the format printed
// and the files. The JSON report is always written, to
// reports/latest.json unless --out names another JSON file.
func reportsOf(f *Options) (report.Format, []output, error) {
	format, err := report.ParseFormat(cmp.Or(f.Format, string(report.Text)))
	if err != nil {
		return "", nil, fmt.Errorf("--format: %w", err)
	}
	if f.MinPassRate < 0 || f.MinPassRate > 1 {
		return "", nil, fmt.Errorf("--min-pass-rate %v: want a pass rate from 0 to 1", f.MinPassRate)
	}
	outs, err := outputs(f.Outs)
	if err != nil {
		return "", nil, err
	}
	if !slices.ContainsFunc(outs, func(o output) bool { return o.format == report.JSON }) {
		outs = append(outs, output{path: DefaultJSONReport, format: report.JSON}) // the run's full record, always kept
	}
	return format, withStepSummary(outs), nil
}

// withStepSummary adds, in GitHub Actions, the Markdown report to the
// step summary (the file $GITHUB_STEP_SUMMARY names), unless --out
// writes it already; the step summary is added to, after what earlier
// steps wrote.
func withStepSummary(outs []output) []output {
	summary := os.Getenv("GITHUB_STEP_SUMMARY")
	if os.Getenv("GITHUB_ACTIONS") != "true" || summary == "" {
		return outs
	}
	for i, o := range outs {
		if o.path == summary {
			outs[i].append = true
			return outs
		}
	}
	return append(outs, output{path: summary, format: report.Markdown, append: true})
}

// DefaultJSONReport is where the JSON report goes unless --out names
// another JSON file.
const DefaultJSONReport = "reports/latest.json"

// An output is a report file to write: replaced whole, or added to
// (append).
type output struct {
	path   string
	format report.Format
	append bool
}

// The formats by file extension, and by the short names --out takes
// besides the formats' own (markdown=FILE or md=FILE).
var (
	formatsByExt  = map[string]report.Format{".json": report.JSON, ".xml": report.JUnit, ".md": report.Markdown, ".html": report.HTML, ".txt": report.Text}
	formatAliases = map[string]report.Format{"md": report.Markdown, "xml": report.JUnit, "txt": report.Text}
)

// outputs reads --out's values: FORMAT=FILE, or a FILE whose extension
// says its format.
func outputs(args []string) ([]output, error) {
	var out []output
	for _, arg := range args {
		o, err := parseOutput(arg)
		if err != nil {
			return nil, fmt.Errorf("--out %s: %w", arg, err)
		}
		out = append(out, o)
	}
	return out, nil
}

func parseOutput(arg string) (output, error) {
	name, path, explicit := strings.Cut(arg, "=")
	if explicit {
		if f, ok := formatAliases[strings.ToLower(name)]; ok {
			return output{path: path, format: f}, nil
		}
		if f, err := report.ParseFormat(name); err == nil {
			return output{path: path, format: f}, nil
		}
	}
	if f, ok := formatsByExt[strings.ToLower(filepath.Ext(arg))]; ok {
		return output{path: arg, format: f}, nil
	}
	if explicit && !strings.ContainsAny(name, `/\.`) {
		_, err := report.ParseFormat(name)
		return output{}, err
	}
	return output{}, fmt.Errorf("the name says no format: give it as FORMAT=FILE (markdown=%s), or use .json, .xml (JUnit), .md, .html or .txt", arg)
}

// writeReports starts writing the report files outs of run, one after
// the other, in a goroutine of their own: a large run's files are written
// while the store records its end. It returns what waits for them and
// returns their errors, in order.
func writeReports(outs []output, run *gavel.Run, opts report.Options) (wait func() []error) {
	done := make(chan []error, 1)
	go func() {
		var errs []error
		for _, o := range outs {
			if err := writeReport(o, run, opts); err != nil {
				errs = append(errs, err)
			}
		}
		done <- errs
	}()
	return sync.OnceValue(func() []error { return <-done })
}

// WriteReportFile writes run's report in format to the file at path,
// whole or not at all, as the session writes its report files.
func WriteReportFile(path string, format report.Format, run *gavel.Run, opts report.Options) error {
	return writeReport(output{path: path, format: format}, run, opts)
}

// writeReport writes a report file whole or not at all: a temporary file
// renamed into place, or, for a file added to, the report built first
// and written in one go.
func writeReport(o output, run *gavel.Run, opts report.Options) error {
	if o.append {
		var b bytes.Buffer
		if err := report.Write(&b, o.format, run, opts); err != nil {
			return fmt.Errorf("report %s: %w", o.path, err)
		}
		f, err := os.OpenFile(o.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			return fmt.Errorf("report %s: %w", o.path, err)
		}
		if _, err := f.Write(b.Bytes()); err != nil {
			f.Close()
			return fmt.Errorf("report %s: %w", o.path, err)
		}
		return f.Close()
	}
	if err := os.MkdirAll(filepath.Dir(o.path), 0o755); err != nil {
		return fmt.Errorf("report %s: %w", o.path, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(o.path), ".gavel-report-*")
	if err != nil {
		return fmt.Errorf("report %s: %w", o.path, err)
	}
	defer os.Remove(tmp.Name())
	// Written as it renders: the file is put in place once whole.
	if err := report.Stream(tmp, o.format, run, opts); err != nil {
		tmp.Close()
		return fmt.Errorf("report %s: %w", o.path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("report %s: %w", o.path, err)
	}
	return os.Rename(tmp.Name(), o.path)
}

// writes reports whether a file (an absolute path) is a report that
// gavel run writes, by default or as --out names, so that --changed-since
// does not count it as a change.
func (f *Options) writes() func(path string) bool {
	paths := append([]string{DefaultJSONReport}, f.Outs...)
	own := map[string]bool{}
	for _, p := range paths {
		if o, err := parseOutput(p); err == nil {
			p = o.path
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			continue
		}
		if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil { // as git's paths are
			abs = filepath.Join(dir, filepath.Base(abs))
		}
		own[abs] = true
	}
	return func(path string) bool { return own[path] }
}
