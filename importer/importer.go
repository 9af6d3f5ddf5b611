package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/report"
)

// A Format is a kind of file Read understands.
type Format string

// The formats Read understands.
const (
	FormatOpenAI Format = "openai" // OpenAI chat-format conversations, JSON Lines
	FormatOTLP   Format = "otlp"   // OpenTelemetry GenAI spans, OTLP JSON
	FormatGavel  Format = "gavel"  // Gavel's JSON report
)

// Formats are the formats, in the order help lists them.
var Formats = []Format{FormatOpenAI, FormatOTLP, FormatGavel}

// ParseFormat returns the format named s ("" for none: Read then guesses
// it from each file's content).
func ParseFormat(s string) (Format, error) {
	for _, f := range Formats {
		if string(f) == s {
			return f, nil
		}
	}
	if s == "" {
		return "", nil
	}
	return "", fmt.Errorf("unknown format %q: want openai, otlp or gavel", s)
}

// A Case is one imported case: its conversations as trials, and what is
// known about it.
type Case struct {
	ID          string
	Name        string
	Description string
	Tags        []string
	// Metadata is the source's metadata of the conversation, values as
	// strings (other JSON values as their JSON), with where it came from:
	// "source" (file:line or file and trace) and, for spans, "trace_id".
	Metadata map[string]string
	// Source is where the case's first conversation was read: file:line
	// for a JSON Lines line, "file (trace ID)" for spans, the report's
	// case source for a Gavel report.
	Source   string
	Expected string
	// Critical is a Gavel report's mark of a critical case, and
	// Quarantined its reason for leaving the case out of the gate.
	Critical    bool
	Quarantined string
	// Trials hold the transcripts, numbered from 1. Their verdicts are
	// the source's (a Gavel report's, computed again from their
	// judgments), or NotJudged.
	Trials []gavel.Trial
	// Outcome is the case's outcome, for a Gavel report, computed from
	// its trials; "" for a case that nothing judged. SkipReason is the
	// report's, for a case it skipped.
	Outcome    gavel.Outcome
	SkipReason string
}

// Judged reports whether the case's trials carry the source's verdicts.
func (c *Case) Judged() bool { return c.Outcome != "" }

// Input is what the case asks: its first trial's goal.
func (c *Case) Input() string {
	if len(c.Trials) == 0 || c.Trials[0].Transcript == nil {
		return ""
	}
	return c.Trials[0].Transcript.Goal
}

// A Batch is everything one Read found.
type Batch struct {
	// Files are the files read, each with its format.
	Files []File
	// Suite, Threshold and Gate are a Gavel report's suite name,
	// threshold and gate configuration (the first report's); "", 0 and
	// the defaults for the other formats.
	Suite     string
	Threshold float64
	Gate      gavel.GateConfig
	// Stopped and StopReason say what stopped the run a Gavel report is
	// of, when it was incomplete (the first such report's).
	Stopped    gavel.StopCause
	StopReason string
	// Cases are the cases in the order the files gave them.
	Cases []Case
}

// A File is one file read, and its format.
type File struct {
	Path   string
	Format Format
}

func (f File) String() string { return fmt.Sprintf("%s (%s)", f.Path, f.Format) }

// Judged reports whether every case carries the source's verdicts: the
// batch came from Gavel reports only.
func (b *Batch) Judged() bool {
	for i := range b.Cases {
		if !b.Cases[i].Judged() {
			return false
		}
	}
	return len(b.Cases) > 0
}

// NotJudgedName is the name of the verdict an imported trial gets when
// its source had none.
const NotJudgedName = "not judged"

// NotJudged is the verdict of a trial imported without one: an ABSTAIN
// saying so, which gavel rejudge replaces with the suite's judges'.
func NotJudged(from string) judge.Judgment {
	j := judge.Abstained("imported from " + from + " without a verdict: gavel rejudge judges it")
	j.Name = NotJudgedName
	return j
}

// A Problem is one thing wrong with a file, at its place: a line (of a
// JSON Lines file, or of a JSON file where a value starts) and a JSON
// path, either or both.
type Problem struct {
	File    string
	Line    int    // from 1; 0 when unknown
	Path    string // a JSON path ("messages[2].tool_calls[0]"); "" for the whole line or file
	Message string
}

func (p Problem) Error() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		fmt.Fprintf(&b, ":%d", p.Line)
	}
	b.WriteString(": ")
	if p.Path != "" {
		b.WriteString(p.Path + ": ")
	}
	b.WriteString(p.Message)
	return b.String()
}

// Problems are every problem found, in file order. Read returns them as
// its error.
type Problems []Problem

// maxProblems caps how many problems one file reports: a file of another
// format would otherwise give one a line.
const maxProblems = 20

func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.Error()
	}
	return strings.Join(lines, "\n")
}

// Read reads files into one batch, each in format, or in the format its
// content shows when format is "". Any problem in any file is returned
// (as Problems, or another error for a file that cannot be read) and no
// batch: an import is all or nothing.
func Read(files []string, format Format) (*Batch, error) {
	if len(files) == 0 {
		return nil, errors.New("no file to import")
	}
	b := &Batch{}
	var problems Problems
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
		f := format
		if f == "" {
			if f, err = Detect(path, data); err != nil {
				return nil, err
			}
		}
		var cases []Case
		var ps Problems
		switch f {
		case FormatOpenAI:
			cases, ps = readOpenAI(path, data)
		case FormatOTLP:
			cases, ps = readOTLP(path, data)
		case FormatGavel:
			var head report.JSONReport
			head, cases, ps = readGavel(path, data)
			if b.Suite == "" {
				b.Suite, b.Threshold, b.Gate = head.Suite.Name, head.Suite.Threshold, head.Suite.Gate
			}
			if b.Stopped == "" {
				b.Stopped, b.StopReason = head.Stopped, head.StopReason
			}
		default:
			return nil, fmt.Errorf("%s: unknown format %q", path, f)
		}
		if len(ps) > maxProblems {
			ps = append(ps[:maxProblems], Problem{File: path, Message: fmt.Sprintf("and %d more problems", len(ps)-maxProblems)})
		}
		problems = append(problems, ps...)
		if len(ps) == 0 && len(cases) == 0 {
			problems = append(problems, Problem{File: path, Message: fmt.Sprintf("no conversation found in this %s file", f)})
		}
		b.Files = append(b.Files, File{Path: path, Format: f})
		problems = append(problems, b.add(cases)...)
	}
	if len(problems) > 0 {
		return nil, problems
	}
	return b, nil
}

// add adds a file's cases: a case id met again adds trials to the case
// (conversations of one case from several lines, traces or files), but a
// Gavel report's case is whole and may not be met twice.
func (b *Batch) add(cases []Case) Problems {
	var problems Problems
	for _, c := range cases {
		i := slices.IndexFunc(b.Cases, func(o Case) bool { return o.ID == c.ID })
		if i < 0 {
			b.Cases = append(b.Cases, c)
			continue
		}
		old := &b.Cases[i]
		if old.Judged() || c.Judged() {
			problems = append(problems, Problem{File: fileOf(c.Source), Message: fmt.Sprintf(
				"case %s is imported twice (%s and %s): a Gavel report's case comes whole, once", c.ID, old.Source, c.Source)})
			continue
		}
		for _, t := range c.Trials {
			t.N = len(old.Trials) + 1
			if t.Transcript != nil {
				t.Transcript.Trial = t.N
			}
			old.Trials = append(old.Trials, t)
		}
	}
	return problems
}

// fileOf is the file of a source "file:line" or "file (trace ...)".
func fileOf(source string) string {
	if i := strings.LastIndex(source, ":"); i > 0 && !strings.Contains(source[i:], " ") {
		return source[:i]
	}
	file, _, _ := strings.Cut(source, " (")
	return file
}

// Detect tells a file's format from its content: a JSON object with
// resourceSpans is OTLP, one with schema_version and cases a Gavel
// report, one with messages (or a list) an OpenAI chat line. It says
// what it saw when it cannot tell.
func Detect(path string, data []byte) (Format, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return "", fmt.Errorf("%s: the file is empty", path)
	}
	if trimmed[0] == '[' {
		return FormatOpenAI, nil
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	var first map[string]json.RawMessage
	if err := dec.Decode(&first); err != nil {
		return "", fmt.Errorf("%s: cannot tell the format: the file does not start with a JSON object or list (%v); give --format openai, otlp or gavel", path, err)
	}
	switch {
	case first["resourceSpans"] != nil || first["resource_spans"] != nil:
		return FormatOTLP, nil
	case first["schema_version"] != nil && first["cases"] != nil:
		return FormatGavel, nil
	case first["messages"] != nil:
		return FormatOpenAI, nil
	}
	keys := make([]string, 0, len(first))
	for k := range first {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return "", fmt.Errorf("%s: cannot tell the format: the first JSON object has %s, and none of messages (openai), resourceSpans (otlp), schema_version and cases (gavel); give --format openai, otlp or gavel",
		path, strings.Join(keys, ", "))
}

// stem is a file's name without its directory and extension, for case
// ids made of it.
func stem(path string) string {
	base := filepath.Base(path)
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// lineAt returns the line of data at a byte offset, from 1.
func lineAt(data []byte, offset int64) int {
	offset = min(max(offset, 0), int64(len(data)))
	return bytes.Count(data[:offset], []byte("\n")) + 1
}

// jsonProblem turns a JSON decoding error into the message a person
// fixes it by, and the line it is at when it says an offset.
func jsonProblem(data []byte, base int64, err error) (line int, msg string) {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return lineAt(data, base+syntax.Offset), "not valid JSON: " + syntax.Error()
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			field = "the value"
		}
		return lineAt(data, base+typ.Offset), fmt.Sprintf("%s is a JSON %s, want a %s", field, typ.Value, typ.Type)
	}
	return 0, err.Error()
}

// metaString is a metadata value as a string: a string as it is, any
// other JSON value as its JSON.
func metaString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(bytes.TrimSpace(raw))
}

// caseIDFrom returns the case id metadata gives: case_id, else id.
func caseIDFrom(meta map[string]string) string {
	if id := strings.TrimSpace(meta["case_id"]); id != "" {
		return id
	}
	return strings.TrimSpace(meta["id"])
}

// finish fills in what every imported transcript has: its goal (the
// first user turn), its status, its usage (the sum of its turns' when it
// has none of its own; an agent turn without usage spent what nobody
// recorded: see unreported) and its case and trial.
func finish(t *judge.Transcript, caseID string) {
	t.CaseID, t.Trial = caseID, 1
	for _, turn := range t.Turns {
		if turn.Role == judge.RoleUser {
			t.Goal = turn.Content
			break
		}
	}
	if t.Status == "" {
		t.Status = judge.ExecSuccess
	}
	for i, turn := range t.Turns {
		if turn.Role == judge.RoleAgent {
			t.Turns[i].Usage = unreported(turn.Usage)
		}
	}
	if t.Usage == (judge.Usage{}) {
		for _, turn := range t.Turns {
			t.Usage = t.Usage.Add(turn.Usage)
		}
	}
}

// unreported marks usage that says nothing as unreported: a reply, or a
// conversation, that the source recorded without tokens or cost spent
// what nobody recorded, which is not 0 (reports show it as unknown).
// Sources that record usage record what a reply cost, never a reply of
// no tokens.
func unreported(u judge.Usage) judge.Usage {
	if u == (judge.Usage{}) {
		u.Unreported = true
	}
	return u
}

// unpriced marks usage that counts tokens but no money as unpriced: the
// sources say what was spent in tokens, not in dollars, so a cost of 0
// would be a lie (reports show the cost as a lower bound).
func unpriced(u judge.Usage) judge.Usage {
	if u.Tokens() > 0 && u.CostUSD == 0 {
		u.Unpriced = true
	}
	return u
}

// trialOf is the one trial of an imported conversation, not judged.
func trialOf(t *judge.Transcript, from string) gavel.Trial {
	t.Usage = unpriced(unreported(t.Usage))
	for i := range t.Turns {
		t.Turns[i].Usage = unpriced(t.Turns[i].Usage)
	}
	return gavel.Trial{
		CaseID:     t.CaseID,
		N:          1,
		Transcript: t,
		Verdict:    NotJudged(from),
		Usage:      gavel.RoleUsage{Agent: t.Usage},
		Duration:   t.Duration,
	}
}
