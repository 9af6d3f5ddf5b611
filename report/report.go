package report

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/gavelhq/gavel"
)

// Format names a kind of report.
type Format string

// The formats Write knows.
const (
	Text     Format = "text"     // a table and failure details, for a terminal
	JSON     Format = "json"     // everything, versioned; see docs/report-json.md
	JUnit    Format = "junit"    // JUnit XML, for CI test reporters
	Markdown Format = "markdown" // a summary for $GITHUB_STEP_SUMMARY or a PR comment
	HTML     Format = "html"     // one self-contained page with every transcript
)

// writers maps each format to the function that writes it, in the order
// ParseFormat's error lists them. A writer writes to a buffer, which never
// fails, and returns the errors of encoding only.
var writers = []struct {
	format Format
	write  func(b *bytes.Buffer, run *gavel.Run, opts Options) error
}{
	{Text, writeText},
	{JSON, writeJSON},
	{JUnit, writeJUnit},
	{Markdown, writeMarkdown},
	{HTML, writeHTML},
}

// Options change what a report shows.
type Options struct {
	// Verbose makes the text and Markdown reports detail every case that
	// ran, passed ones too: every trial instead of the first that did not
	// pass, the whole conversation instead of the reply cut short, and
	// every judgment with its reasoning instead of the failures. The JSON,
	// JUnit and HTML reports always show everything. Defaults to false.
	Verbose bool

	// Brief makes the text report its summary alone: the run's numbers,
	// its verdict against the threshold, and the cases that did not pass,
	// by id; no table, no detail (gavel run --quiet). Other formats
	// ignore it. Defaults to false.
	Brief bool

	// Version is Gavel's version, written in the headers of the JSON,
	// JUnit and HTML reports so that a report says what wrote it.
	// Defaults to empty: no version is written.
	Version string

	// Shard, when set, says that the run is one shard of a run (gavel run
	// --shard): the text and Markdown reports give it no verdict of its
	// own, and the JSON report carries it as "shard". Defaults to nil: a
	// whole run.
	Shard *Shard
}

// ParseFormat returns the format named s (in any case), or an error that
// lists the valid names.
func ParseFormat(s string) (Format, error) {
	name := strings.ToLower(strings.TrimSpace(s))
	for _, w := range writers {
		if string(w.format) == name {
			return w.format, nil
		}
	}
	return "", unknownFormat(s)
}

// unknownFormat says that s names no format, and which names do.
func unknownFormat(s string) error {
	names := make([]string, len(writers))
	for i, w := range writers {
		names[i] = string(w.format)
	}
	return fmt.Errorf("unknown report format %q: want one of %s", s, strings.Join(names, ", "))
}

// Write writes run to w as a report in format f. The report is built in
// memory first, so w receives either the whole report or nothing.
//
// A run without a suite (run.Suite nil) is reported as suite "suite" with
// a threshold of 1.
func Write(w io.Writer, f Format, run *gavel.Run, opts Options) error {
	if run == nil {
		return errors.New("write report: no run")
	}
	for _, wr := range writers {
		if wr.format != f {
			continue
		}
		var buf bytes.Buffer
		if err := wr.write(&buf, run, opts); err != nil {
			return fmt.Errorf("write %s report: %w", f, err)
		}
		if _, err := w.Write(buf.Bytes()); err != nil {
			return fmt.Errorf("write %s report: %w", f, err)
		}
		return nil
	}
	return fmt.Errorf("write report: %w", unknownFormat(string(f)))
}

// Stream writes run to w as a report in format f as Write does, but as it
// renders it, for a file put in place once it is whole: a JSON report, a
// case at a time, so that a run of many cases is never held twice in
// memory (the other formats are written as Write writes them). On an
// error, w may have received part of the report.
func Stream(w io.Writer, f Format, run *gavel.Run, opts Options) error {
	if f != JSON || run == nil {
		return Write(w, f, run, opts)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := streamJSON(bw, run, opts); err != nil {
		return fmt.Errorf("write %s report: %w", f, err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write %s report: %w", f, err)
	}
	return nil
}
