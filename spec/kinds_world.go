package spec

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/rule"
	"github.com/gavelhq/gavel/rule/dbstate"
)

// The deterministic kinds that look at the world after the conversation:
// tools called, files written, builds, commands and databases.

type expectedToolsRule struct {
	ExpectedTools []string `yaml:"expected_tools" doc:"Tools the agent must call, with any arguments. A failed call (MCP isError, or a result matching error_result) does not count."`
	ErrorResult   string   `yaml:"error_result" doc:"A regular expression: a call whose result it matches has failed (see tool_error_result)."`
}

func (c *expectedToolsRule) build(*builder) (judge.Judge, error) {
	o, err := failedCallOpts("error_result", c.ErrorResult)
	if err != nil {
		return nil, err
	}
	return rule.ExpectedToolsWith(c.ExpectedTools, o)
}

type forbiddenToolsRule struct {
	ForbiddenTools []string `yaml:"forbidden_tools" doc:"Tools the agent must not call. A failed call (MCP isError, or a result matching error_result) is not counted: the tool did nothing."`
	ErrorResult    string   `yaml:"error_result" doc:"A regular expression: a call whose result it matches has failed (see tool_error_result)."`
}

func (c *forbiddenToolsRule) build(*builder) (judge.Judge, error) {
	o, err := failedCallOpts("error_result", c.ErrorResult)
	if err != nil {
		return nil, err
	}
	return rule.ForbiddenToolsWith(c.ForbiddenTools, o)
}

type maxToolCallsRule struct {
	MaxToolCalls *int     `yaml:"max_tool_calls" minimum:"0" doc:"The most tool calls the agent may make."`
	Tools        []string `yaml:"tools" doc:"Count only calls to these tools. Defaults to every tool."`
}

func (c *maxToolCallsRule) build(*builder) (judge.Judge, error) {
	return rule.MaxToolCalls(*c.MaxToolCalls, c.Tools...)
}

func (c *maxToolCallsRule) words() string {
	if len(c.Tools) == 0 {
		return fmt.Sprintf("at most %d tool calls", *c.MaxToolCalls)
	}
	return fmt.Sprintf("at most %d calls of %s", *c.MaxToolCalls, strings.Join(c.Tools, ", "))
}

type fileExistsRule struct {
	FileExists string `yaml:"file_exists" doc:"A file that must exist, relative to the agent's workspace."`
}

func (c *fileExistsRule) build(*builder) (judge.Judge, error) { return rule.FileExists(c.FileExists) }

type fileContentRule struct {
	FileContent fileContent `yaml:"file_content" doc:"A file of the agent's workspace and what its content must be."`
}

type fileContent struct {
	Path     string `yaml:"path" doc:"The file, relative to the agent's workspace."`
	Contains string `yaml:"contains" doc:"A text the content contains."`
	Equals   string `yaml:"equals" doc:"The content, exactly, once white space around it is trimmed."`
	Regex    string `yaml:"regex" doc:"A regular expression the content matches."`
}

func (c *fileContentRule) build(*builder) (judge.Judge, error) {
	f := c.FileContent
	var set []string
	var match rule.Match
	var want string
	for _, m := range []struct {
		match rule.Match
		want  string
	}{{rule.MatchContains, f.Contains}, {rule.MatchEquals, f.Equals}, {rule.MatchRegex, f.Regex}} {
		if m.want != "" {
			set = append(set, string(m.match))
			match, want = m.match, m.want
		}
	}
	if len(set) != 1 {
		return nil, fmt.Errorf("file_content: give one of contains, equals and regex (this gives %d)", len(set))
	}
	return rule.FileContent(f.Path, match, want)
}

func (c *fileContentRule) words() string {
	f := c.FileContent
	return fmt.Sprintf("file %s %s", f.Path, oneLine(cmp.Or(f.Contains, f.Equals, f.Regex)))
}

type fileJSONRule struct {
	FileJSON fileJSON `yaml:"file_json" doc:"A JSON file of the agent's workspace and a value in it."`
}

type fileJSON struct {
	Path   string `yaml:"path" doc:"The file, relative to the agent's workspace."`
	At     string `yaml:"at" doc:"A JSON path to the value: $.items[0].name. Defaults to $, the whole document."`
	Equals any    `yaml:"equals" doc:"The value it must equal, as YAML or JSON."`
}

func (c *fileJSONRule) build(*builder) (judge.Judge, error) {
	f := c.FileJSON
	want, err := json.Marshal(f.Equals)
	if err != nil {
		return nil, fmt.Errorf("file_json: equals: %w", err)
	}
	return rule.FileJSON(f.Path, cmp.Or(f.At, "$"), want)
}

func (c *fileJSONRule) words() string {
	want, _ := json.Marshal(c.FileJSON.Equals)
	return fmt.Sprintf("file %s %s = %s", c.FileJSON.Path, cmp.Or(c.FileJSON.At, "$"), want)
}

type buildRule struct {
	Build buildSettings `yaml:"build" doc:"The project in the agent's workspace builds: Gavel finds its build (go.mod, package.json, Cargo.toml, a Makefile, ...) and wants it to succeed. Give {} for the defaults."`
}

type buildSettings struct {
	Timeout string `yaml:"timeout" doc:"How long the build may take. Defaults to 10m."`
}

func (c *buildRule) build(b *builder) (judge.Judge, error) {
	var cfg rule.Build
	if c.Build.Timeout != "" {
		d, err := parseDuration("build.timeout", c.Build.Timeout)
		if err != nil {
			return nil, err
		}
		cfg.Timeout = d
	}
	return rule.BuildSuccess(cfg)
}

func (c *buildRule) words() string { return "the workspace builds" }

type commandCheck struct {
	Command  []string `yaml:"command" doc:"A command, run without a shell ([sh, -c, '...'] for one); it must exit with exit_code. ${VAR} and ${VAR:-default} read the environment."`
	Dir      string   `yaml:"dir" doc:"Where it runs: workspace (the agent's workspace), or a directory relative to the suite. Defaults to the suite's directory."`
	Env      []string `yaml:"env" doc:"Extra environment, NAME=value."`
	Timeout  string   `yaml:"timeout" doc:"How long it may run. Defaults to 1m."`
	ExitCode int      `yaml:"exit_code" doc:"The exit code wanted. Defaults to 0."`
	Stdout   string   `yaml:"stdout" doc:"A regular expression the standard output must match."`
	Stderr   string   `yaml:"stderr" doc:"A regular expression the standard error must match."`
}

func (c *commandCheck) build(b *builder) (judge.Judge, error) {
	cmd, err := c.cmd(b, "command")
	if err != nil {
		return nil, err
	}
	return rule.Command(cmd)
}

// cmd is the command c describes, field naming it in messages.
func (c *commandCheck) cmd(b *builder, field string) (rule.Cmd, error) {
	cmd := rule.Cmd{Args: b.expandAll(field, c.Command, secretValue), Env: c.Env, ExitCode: c.ExitCode, Stdout: c.Stdout, Stderr: c.Stderr}
	switch c.Dir {
	case "":
		cmd.Dir = b.l.Dir
	case "workspace":
	default:
		cmd.Dir = b.abs(c.Dir)
	}
	if c.Timeout != "" {
		d, err := parseDuration(field+".timeout", c.Timeout)
		if err != nil {
			return rule.Cmd{}, err
		}
		cmd.Timeout = d
	}
	return cmd, nil
}

func (c *commandCheck) words() string { return "command " + strings.Join(c.Command, " ") + " succeeds" }

type sqlCheck struct {
	SQL sqlQuery `yaml:"sql" doc:"A query whose result is compared: exactly one of scalar, row_count and rows."`
}

type sqlQuery struct {
	DSN      string     `yaml:"dsn" doc:"postgres://… or an SQLite file, relative to the suite. ${VAR} and ${VAR:-default} read the environment."`
	Query    string     `yaml:"query" doc:"The query."`
	Scalar   string     `yaml:"scalar" doc:"A comparison of the first column of the first row: = 'shipped', >= 2."`
	RowCount string     `yaml:"row_count" doc:"A comparison of the number of rows: = 0."`
	Rows     [][]string `yaml:"rows" doc:"The rows expected, as text."`
}

func (c *sqlCheck) build(b *builder) (judge.Judge, error) {
	q := c.SQL
	if q.Query == "" {
		return nil, errors.New("sql: no query")
	}
	return dbstate.New(dbstate.Check{DSN: b.dsn("sql.dsn", q.DSN), Query: q.Query, Scalar: q.Scalar, RowCount: q.RowCount, Rows: q.Rows})
}

func (c *sqlCheck) words() string {
	return fmt.Sprintf("database: %s %s", oneLine(c.SQL.Query), cmp.Or(c.SQL.Scalar, c.SQL.RowCount))
}

var (
	_ = register[expectedToolsRule](kind{name: "expected_tools", group: "Tool calls", library: []string{"rule.ExpectedTools", "rule.ExpectedToolsWith"},
		doc:     "The agent calls every one of these tools at least once, successfully, with any arguments. A case's expected_tools: field is the same, with the case's tool_error_result as error_result.",
		example: "expected_tools: [lookup_order]"})
	_ = register[forbiddenToolsRule](kind{name: "forbidden_tools", group: "Tool calls", library: []string{"rule.ForbiddenTools", "rule.ForbiddenToolsWith"},
		doc:     "The agent calls none of these tools, failed calls aside. A case's forbidden_tools: field is the same, with the case's tool_error_result as error_result.",
		example: "forbidden_tools: [issue_refund]"})
	_ = register[maxToolCallsRule](kind{name: "max_tool_calls", group: "Tool calls", library: []string{"rule.MaxToolCalls"},
		doc:     "The agent makes at most so many tool calls, of every tool or of the ones named.",
		example: "max_tool_calls: 2\ntools: [search]"})

	_ = register[fileExistsRule](kind{name: "file_exists", group: "Files and the world", runsLocally: true, library: []string{"rule.FileExists"},
		doc:     "A file exists in the agent's workspace.",
		example: "file_exists: out/report.md"})
	_ = register[fileContentRule](kind{name: "file_content", group: "Files and the world", runsLocally: true, library: []string{"rule.FileContent"},
		doc:     "A file of the agent's workspace contains a text, equals it, or matches a regular expression.",
		example: "file_content: {path: README.md, contains: Usage}"})
	_ = register[fileJSONRule](kind{name: "file_json", group: "Files and the world", runsLocally: true, library: []string{"rule.FileJSON"},
		doc:     "A value in a JSON file of the agent's workspace equals what is given (numbers compared as numbers).",
		example: "file_json: {path: package.json, at: $.name, equals: my-app}"})
	_ = register[buildRule](kind{name: "build", group: "Files and the world", runsLocally: true, library: []string{"rule.BuildSuccess"},
		doc:     "The project in the agent's workspace builds (seed 001's coding agents).",
		example: "build: {timeout: 5m}"})
	_ = register[commandCheck](kind{name: "command", group: "Files and the world", runsLocally: true, library: []string{"rule.Command"},
		doc:     "A command exits with the code wanted, its output matching what is given.",
		example: "command: [sh, -c, 'test -s out.txt']\ndir: workspace"})
	_ = register[sqlCheck](kind{name: "sql", group: "Files and the world", runsLocally: true, library: []string{"dbstate.New"},
		doc:     "A query against SQLite or PostgreSQL returns what is expected: the database state the agent left.",
		example: "sql:\n  dsn: orders.db\n  query: SELECT status FROM orders WHERE id = 'A-1001'\n  scalar: = 'cancelled'"})
)

type toolCallsJudge struct {
	ToolCalls ToolCallsSpec `yaml:"tool_calls" doc:"The calls the agent must make and must not make, matched argument by argument; a case's expected_tool_calls: and forbidden_tool_calls: are the same."`
}

func (c *toolCallsJudge) build(*builder) (judge.Judge, error) {
	if c.ToolCalls.Calls == nil && len(c.ToolCalls.Forbidden) == 0 {
		return nil, errors.New("tool_calls: give calls (an empty list for none at all), forbidden, or both")
	}
	js, err := c.ToolCalls.Judges()
	if err != nil {
		return nil, err
	}
	return allOf(js), nil
}

func (c *toolCallsJudge) words() string {
	s := c.ToolCalls
	return strings.Join(toolCallWords(ToolCallExpectations{ExpectedToolCalls: s.Calls, ForbiddenToolCalls: s.Forbidden, ToolCallOrder: s.Order, ToolCallF1: s.F1}), "; ")
}

var _ = register[toolCallsJudge](kind{name: "tool_calls", group: "Tool calls", library: []string{"rule.ToolCalls", "rule.ToolCallF1", "rule.ToolCallF1With", "rule.ForbiddenCalls"},
	doc:     "The agent's tool calls match the calls expected, argument by argument (a value, or a matcher: $any_of, $regex, $approx, $optional, $normalize, ...), in order or not, with counts; calls that failed are set apart; forbidden calls may be limited to certain arguments; f1 gives partial credit.",
	example: "tool_calls:\n  calls:\n    - name: search_flights\n      args: {from: PAR, to: {$any_of: [NYC, JFK]}, date: 2024-05-20}\n    - {name: book_flight, min: 1, max: 1}\n  forbidden:\n    - {name: cancel_reservation, args: {reservation_id: ABC123}}\n  order: subset"})
