package dbstate

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/rule"
	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	_ "modernc.org/sqlite"             // registers the "sqlite" driver
)

const defaultTimeout = 30 * time.Second

// noWorkspace is the reasoning given for a relative SQLite path when the
// transcript names no workspace directory.
const noWorkspace = "the transcript names no workspace directory"

// Check configures New: a query and what it must return.
type Check struct {
	// DSN names the database. A postgres:// or postgresql:// URL is a
	// PostgreSQL database. A "file:" URI or a path is an SQLite database
	// file; a relative one is relative to the transcript's workspace, and
	// the file must exist (it is never created). Query parameters of the
	// modernc.org/sqlite driver, such as ?_pragma=busy_timeout(5000),
	// pass through. An SQLite database locked by a writer (the agent's
	// tools finishing a write) is waited for, 5 seconds unless the DSN
	// sets busy_timeout itself, within the check's timeout.
	//
	// The DSN may hold a password: judgments and errors never show it,
	// only the host (PostgreSQL) or the file (SQLite).
	DSN string
	// Query is the SQL run, with Args for its placeholders ($1, $2 for
	// PostgreSQL; ? for SQLite).
	Query string
	Args  []any

	// Exactly one of Scalar, RowCount and Rows says what the query must
	// return.

	// Scalar is a comparison (see rule.ParseComparison), such as ">= 2",
	// "= 'open'" or "!= 0": the query must return exactly one row of one
	// column, whose value satisfies it. A NULL satisfies no comparison.
	Scalar string
	// RowCount is a numeric comparison, such as ">= 2" or "= 0", that the
	// number of rows returned must satisfy.
	RowCount string
	// Rows are the rows the query must return, in order, each value as
	// text: as database/sql converts it to a string (so 2.0 is "2" and a
	// timestamp is in RFC 3339 format), and NULL as "NULL". An empty,
	// non-nil Rows wants no rows.
	Rows [][]string

	// Timeout bounds connecting and querying. Defaults to 30 seconds.
	Timeout time.Duration
}

// New returns a judge that passes when a query against a database returns
// what c wants. The
// database is opened for each judging and closed after; the judgment is
// named sql_scalar, sql_row_count or sql_rows.
//
// Judging is an error when the database cannot be reached, the SQLite file
// does not exist, the query fails or the timeout passes. A relative SQLite
// path with a transcript that names no workspace fails.
//
// It is an error for the DSN to be neither a PostgreSQL URL nor an SQLite
// file, for the query to be empty, for anything but exactly one of Scalar,
// RowCount and Rows to be set, for the comparison not to parse (RowCount
// must compare numbers), or for Timeout to be negative.
func New(c Check) (judge.Judge, error) {
	db, err := parseDSN(c.DSN)
	if err != nil {
		return nil, fmt.Errorf("sql: %w", err)
	}
	if strings.TrimSpace(c.Query) == "" {
		return nil, errors.New("sql: empty query")
	}
	if c.Timeout < 0 {
		return nil, fmt.Errorf("sql: negative timeout %v", c.Timeout)
	}
	r := &sqlRule{db: db, query: c.Query, args: c.Args, rows: c.Rows, timeout: c.Timeout}
	if r.timeout == 0 {
		r.timeout = defaultTimeout
	}
	set := 0
	for _, isSet := range []bool{c.Scalar != "", c.RowCount != "", c.Rows != nil} {
		if isSet {
			set++
		}
	}
	if set != 1 {
		return nil, fmt.Errorf("sql: set exactly one of Scalar, RowCount and Rows (%d are set)", set)
	}
	switch {
	case c.Scalar != "":
		r.name = "sql_scalar"
		if r.compare, err = rule.ParseComparison(c.Scalar); err != nil {
			return nil, fmt.Errorf("sql: Scalar: %w", err)
		}
	case c.RowCount != "":
		r.name = "sql_row_count"
		if r.compare, err = rule.ParseComparison(c.RowCount); err != nil {
			return nil, fmt.Errorf("sql: RowCount: %w", err)
		}
		if !r.compare.IsNumeric() {
			return nil, fmt.Errorf("sql: RowCount %q compares with a string; a row count compares with a number", c.RowCount)
		}
	default:
		r.name = "sql_rows"
	}
	return r, nil
}

// sqlRule is the judge New returns.
type sqlRule struct {
	name    string
	db      database
	query   string
	args    []any
	compare rule.Comparison // for sql_scalar and sql_row_count
	rows    [][]string      // for sql_rows
	timeout time.Duration
}

// Judge opens the database, runs the query and judges what it returned.
func (r *sqlRule) Judge(ctx context.Context, t *judge.Transcript) (judge.Judgment, error) {
	dsn, fail, err := r.db.resolve(t)
	if err != nil {
		return judge.Judgment{Name: r.name}, err
	}
	if fail != "" {
		return verdict(r.name, false, fail), nil
	}
	res, err := r.run(ctx, dsn)
	if err != nil {
		return judge.Judgment{Name: r.name}, errors.New(r.db.redact(err.Error()))
	}
	return r.judge(res), nil
}

// queryResult is what a query returned: its columns, how many rows, and
// the first rows as text (nil for NULL).
type queryResult struct {
	columns []string
	count   int
	rows    [][]*string
}

// run connects, runs the query and reads its result, keeping the first
// rows that judging needs.
func (r *sqlRule) run(ctx context.Context, dsn string) (queryResult, error) {
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	// timedOut says when an error came from the timeout or the context.
	timedOut := func(what string, err error) error {
		switch {
		case parent.Err() != nil:
			return fmt.Errorf("%s: interrupted: %v", what, err)
		case ctx.Err() != nil:
			return fmt.Errorf("%s: timed out after %v: %v", what, r.timeout, err)
		}
		return fmt.Errorf("%s: %v", what, err)
	}

	db, err := sql.Open(r.db.driver, dsn)
	if err != nil {
		return queryResult{}, fmt.Errorf("open %s: %v", r.db.where, err)
	}
	defer db.Close()
	if err := db.PingContext(ctx); err != nil {
		return queryResult{}, timedOut("cannot reach "+r.db.where, err)
	}
	rows, err := db.QueryContext(ctx, r.query, r.args...)
	if err != nil {
		return queryResult{}, timedOut("query failed", err)
	}
	defer rows.Close()
	var res queryResult
	if res.columns, err = rows.Columns(); err != nil {
		return queryResult{}, timedOut("query failed", err)
	}
	keep := 0 // rows to keep as text
	switch r.name {
	case "sql_scalar":
		keep = 1
	case "sql_rows":
		keep = len(r.rows) + 1
	}
	values := make([]sql.NullString, len(res.columns))
	dest := make([]any, len(values))
	for i := range values {
		dest[i] = &values[i]
	}
	for rows.Next() {
		res.count++
		if res.count > keep {
			continue
		}
		if err := rows.Scan(dest...); err != nil {
			return queryResult{}, timedOut(fmt.Sprintf("read row %d", res.count), err)
		}
		row := make([]*string, len(values))
		for i, v := range values {
			if v.Valid {
				row[i] = &v.String
			}
		}
		res.rows = append(res.rows, row)
	}
	if err := rows.Err(); err != nil {
		return queryResult{}, timedOut("query failed", err)
	}
	return res, nil
}

// judge judges a query's result.
func (r *sqlRule) judge(res queryResult) judge.Judgment {
	switch r.name {
	case "sql_row_count":
		got := fmt.Sprintf("query returned %s", plural(res.count, "row"))
		ok, _ := r.compare.Holds(strconv.Itoa(res.count))
		if !ok {
			return verdict(r.name, false, fmt.Sprintf("%s, want %s", got, r.compare))
		}
		return verdict(r.name, true, fmt.Sprintf("%s (%s)", got, r.compare))
	case "sql_scalar":
		switch {
		case len(res.columns) != 1:
			return verdict(r.name, false, fmt.Sprintf("query returned %s, want 1 column for a scalar %s", plural(len(res.columns), "column"), r.compare))
		case res.count != 1:
			return verdict(r.name, false, fmt.Sprintf("query returned %s, want 1 row for a scalar %s", plural(res.count, "row"), r.compare))
		}
		v := res.rows[0][0]
		if v == nil {
			return verdict(r.name, false, fmt.Sprintf("scalar is NULL, want %s", r.compare))
		}
		shown := sqlText(v)
		if r.compare.IsNumeric() {
			shown = strings.TrimSpace(*v)
		}
		ok, err := r.compare.Holds(*v)
		switch {
		case err != nil:
			return verdict(r.name, false, fmt.Sprintf("scalar %s, want %s", err, r.compare))
		case !ok:
			return verdict(r.name, false, fmt.Sprintf("scalar is %s, want %s", shown, r.compare))
		}
		return verdict(r.name, true, fmt.Sprintf("scalar is %s (%s)", shown, r.compare))
	}
	return r.judgeRows(res)
}

// judgeRows compares the rows returned with the rows wanted and reports the
// first difference.
func (r *sqlRule) judgeRows(res queryResult) judge.Judgment {
	for i, want := range r.rows {
		if i >= len(res.rows) {
			return verdict(r.name, false, fmt.Sprintf("query returned %s, want %d: row %d %s is missing", plural(res.count, "row"), len(r.rows), i+1, wantRowText(want)))
		}
		got := res.rows[i]
		if len(got) != len(want) {
			return verdict(r.name, false, fmt.Sprintf("row %d has %s, want %d: got %s", i+1, plural(len(got), "column"), len(want), rowText(got)))
		}
		for j := range want {
			if g := sqlValue(got[j]); g != want[j] {
				return verdict(r.name, false, fmt.Sprintf("row %d, column %d (%s): got %s, want %s", i+1, j+1, res.columns[j], sqlText(got[j]), wantText(want[j])))
			}
		}
	}
	if res.count != len(r.rows) {
		return verdict(r.name, false, fmt.Sprintf("query returned %s, want %d: the first extra row is %s", plural(res.count, "row"), len(r.rows), rowText(res.rows[len(r.rows)])))
	}
	return verdict(r.name, true, fmt.Sprintf("query returned the %s wanted", plural(len(r.rows), "row")))
}

// excerptLen is how many runes of a value a reasoning quotes.
const excerptLen = 200

// quoteSQL writes s as a single-quoted SQL string literal, the way the
// comparisons of Check are written.
func quoteSQL(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// sqlValue returns a value as Rows writes it: its text, or "NULL".
func sqlValue(v *string) string {
	if v == nil {
		return "NULL"
	}
	return *v
}

// sqlText quotes a value for a reasoning: NULL, or a quoted string cut to
// excerptLen runes.
func sqlText(v *string) string {
	if v == nil {
		return "NULL"
	}
	s := *v
	if r := []rune(s); len(r) > excerptLen {
		return quoteSQL(string(r[:excerptLen])) + "…"
	}
	return quoteSQL(s)
}

// wantText quotes a wanted value for a reasoning, where "NULL" means NULL.
func wantText(s string) string {
	if s == "NULL" {
		return "NULL"
	}
	return sqlText(&s)
}

// rowText writes a row returned for a reasoning, as in ('a', NULL).
func rowText(row []*string) string {
	s := make([]string, len(row))
	for i, v := range row {
		s[i] = sqlText(v)
	}
	return "(" + strings.Join(s, ", ") + ")"
}

// wantRowText writes a wanted row for a reasoning.
func wantRowText(row []string) string {
	s := make([]string, len(row))
	for i, v := range row {
		s[i] = wantText(v)
	}
	return "(" + strings.Join(s, ", ") + ")"
}

// plural writes n and a noun, as in "1 row" and "2 rows".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// A database is a parsed DSN: which driver opens it, how to name it in
// reasonings, and, for SQLite, the file to resolve against the workspace.
type database struct {
	driver  string // "pgx" or "sqlite"
	dsn     string // for PostgreSQL, and for an in-memory SQLite database
	where   string // "the database at db.example.com:5432", `database file "app.db"`
	secrets []string

	// SQLite files: the path as written, the query string after it, and
	// whether it was a "file:" URI.
	path   string
	params string
	uri    bool
}

// urlScheme is the scheme at the start of a URL-like DSN.
var urlScheme = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9+.-]+):`)

// parseDSN parses a DSN for SQL.
func parseDSN(dsn string) (database, error) {
	if strings.TrimSpace(dsn) == "" {
		return database{}, errors.New("empty DSN")
	}
	scheme := ""
	if m := urlScheme.FindStringSubmatch(dsn); m != nil {
		scheme = strings.ToLower(m[1])
	}
	switch scheme {
	case "postgres", "postgresql":
		return parsePostgres(dsn)
	case "file":
		return parseSQLite(dsn, true)
	case "":
		return parseSQLite(dsn, false)
	}
	return database{}, fmt.Errorf("unsupported DSN scheme %q: want postgres://, postgresql://, a file: URI or the path of an SQLite file", scheme)
}

// urlPassword finds the password in a URL that url.Parse may refuse.
var urlPassword = regexp.MustCompile(`^[^:]+://[^:/@]*:([^@]*)@`)

// parsePostgres checks a PostgreSQL URL now, so that a malformed one is a
// build error, and names its host for reasonings.
func parsePostgres(dsn string) (database, error) {
	db := database{driver: "pgx", dsn: dsn, where: "the database", secrets: []string{dsn}}
	if u, err := url.Parse(dsn); err == nil && u.User != nil {
		if pw, ok := u.User.Password(); ok {
			db.secrets = append(db.secrets, pw, url.QueryEscape(pw), url.PathEscape(pw))
		}
	}
	if m := urlPassword.FindStringSubmatch(dsn); m != nil {
		db.secrets = append(db.secrets, m[1]) // a password url.Parse could not read
	}
	cfg, err := pgconn.ParseConfig(dsn)
	if err != nil {
		return database{}, fmt.Errorf("invalid PostgreSQL DSN: %s", db.redact(err.Error()))
	}
	if cfg.Password != "" {
		db.secrets = append(db.secrets, cfg.Password)
	}
	if cfg.Host != "" {
		host := cfg.Host
		if !strings.HasPrefix(host, "/") {
			host = net.JoinHostPort(host, strconv.Itoa(int(cfg.Port)))
		}
		db.where = "the database at " + host
	}
	return db, nil
}

// parseSQLite parses the path of an SQLite file, or a "file:" URI.
func parseSQLite(dsn string, uri bool) (database, error) {
	db := database{driver: "sqlite", dsn: dsn, uri: uri}
	rest := dsn
	if uri {
		rest = dsn[len("file:"):]
		if i := strings.IndexByte(rest, '#'); i >= 0 {
			rest = rest[:i]
		}
	}
	path, params, _ := strings.Cut(rest, "?")
	if uri {
		if strings.HasPrefix(path, "//") {
			authority, p, _ := strings.Cut(path[2:], "/")
			if authority != "" && authority != "localhost" {
				return database{}, fmt.Errorf("SQLite URI %q: host %q: only a local file can be opened", dsn, authority)
			}
			path = "/" + p
		}
		var err error
		if path, err = url.PathUnescape(path); err != nil {
			return database{}, fmt.Errorf("SQLite URI %q: %w", dsn, err)
		}
	} else if path == "" {
		return database{}, fmt.Errorf("SQLite DSN %q: empty path", dsn)
	}
	q, err := url.ParseQuery(params)
	if err != nil {
		return database{}, fmt.Errorf("SQLite DSN %q: bad parameters: %w", dsn, err)
	}
	if path == "" || path == ":memory:" || q.Get("mode") == "memory" {
		db.where = "the in-memory SQLite database"
		return db, nil
	}
	db.path, db.params = path, params
	db.where = fmt.Sprintf("database file %q", path)
	return db, nil
}

// resolve returns the DSN to open for transcript t. For an SQLite file it
// resolves the path against the workspace and checks that the file exists,
// so that opening it never creates one; fail is the reason to fail when a
// relative path has no workspace.
func (db database) resolve(t *judge.Transcript) (dsn, fail string, err error) {
	if db.path == "" {
		return db.dsn, "", nil
	}
	full, ok := t.WorkspacePath(db.path)
	if !ok {
		return "", noWorkspace, nil
	}
	switch info, err := os.Stat(full); {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		return "", "", fmt.Errorf("%s does not exist (%s)", db.where, full)
	case err != nil:
		return "", "", fmt.Errorf("cannot open %s: %w", db.where, err)
	case info.IsDir():
		return "", "", fmt.Errorf("cannot open %s: %s is a directory", db.where, full)
	}
	if db.uri {
		full = "file:" + strings.NewReplacer("%", "%25", "?", "%3F", "#", "%23").Replace(full)
	}
	// A database the agent's tools are writing may be locked for a
	// moment: wait for it (within the check's timeout) rather than fail,
	// unless the DSN says how long itself.
	params := db.params
	if !strings.Contains(params, "busy_timeout") {
		params = strings.TrimPrefix(params+"&_pragma=busy_timeout(5000)", "&")
	}
	return full + "?" + params, "", nil
}

// redact replaces the DSN and every password in s with xxxxx.
func (db database) redact(s string) string {
	for _, secret := range db.secrets {
		if secret != "" {
			s = strings.ReplaceAll(s, secret, "xxxxx")
		}
	}
	return s
}

// verdict returns a PASS or FAIL judgment named name.
func verdict(name string, passed bool, reasoning string) judge.Judgment {
	j := judge.Verdict(passed, reasoning)
	j.Name = name
	return j
}
