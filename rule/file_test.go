package rule

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/judge/judgetest"
)

func TestFileExists(t *testing.T) {
	dir := t.TempDir()
	abs := wsWrite(t, dir, "out.json", "{}")
	wsWrite(t, dir, "sub/inner.txt", "x")
	exists := func(path string) func() (judge.Judge, error) {
		return func() (judge.Judge, error) { return FileExists(path) }
	}
	pass, fail := judge.StatusPass, judge.StatusFail
	judgetest.RunCases(t, []judgetest.Case{
		{Name: "present", Build: exists("out.json"), Transcript: wsIn(dir), WantStatus: pass, WantIn: []string{`file "out.json" exists (2 bytes)`}},
		{Name: "nested", Build: exists("sub/inner.txt"), Transcript: wsIn(dir), WantStatus: pass, WantIn: []string{`"sub/inner.txt" exists`}},
		{Name: "directory", Build: exists("sub"), Transcript: wsIn(dir), WantStatus: pass, WantIn: []string{`"sub" exists (a directory)`}},
		{Name: "missing", Build: exists("nope.json"), Transcript: wsIn(dir), WantStatus: fail, WantIn: []string{`file "nope.json" does not exist`, filepath.Join(dir, "nope.json")}},
		{Name: "below a file", Build: exists("out.json/x"), Transcript: wsIn(dir), WantStatus: fail, WantIn: []string{"does not exist"}},
		{Name: "absolute without workspace", Build: exists(abs), Transcript: &judge.Transcript{}, WantStatus: pass, WantIn: []string{"exists"}},
		{Name: "relative without workspace", Build: exists("out.json"), Transcript: &judge.Transcript{}, WantStatus: fail, WantIn: []string{noWorkspace}},
		{Name: "nil transcript", Build: exists("out.json"), Transcript: nil, WantStatus: fail, WantIn: []string{noWorkspace}},
	})

	j, err := FileExists("out.json")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := judgetest.Run(t, j, wsIn(dir)).Name, `file_exists "out.json"`; got != want {
		t.Errorf("name = %q, want %q", got, want)
	}
}

func TestFileContent(t *testing.T) {
	dir := t.TempDir()
	wsWrite(t, dir, "report.txt", "\n  Total: 42 items\nStatus: done  \n\n")
	wsWrite(t, dir, "sub/x.txt", "x")
	content := func(path string, m Match, want string) func() (judge.Judge, error) {
		return func() (judge.Judge, error) { return FileContent(path, m, want) }
	}
	pass, fail := judge.StatusPass, judge.StatusFail
	judgetest.RunCases(t, []judgetest.Case{
		{Name: "equals after trimming", Build: content("report.txt", MatchEquals, "Total: 42 items\nStatus: done\n"), Transcript: wsIn(dir), WantStatus: pass,
			WantIn: []string{`file "report.txt" equals "Total: 42 items\nStatus: done"`}},
		{Name: "equals differs", Build: content("report.txt", MatchEquals, "Total: 42 items"), Transcript: wsIn(dir), WantStatus: fail,
			WantIn: []string{`file "report.txt" does not equal "Total: 42 items"`, `it holds "\n  Total: 42 items\nStatus: done  \n\n"`}},
		{Name: "equals empty file", Build: content("empty.txt", MatchEquals, ""), Transcript: wsIn(dir), WantStatus: fail, WantIn: []string{"does not exist"}},
		{Name: "contains", Build: content("report.txt", MatchContains, "42 items"), Transcript: wsIn(dir), WantStatus: pass, WantIn: []string{`file "report.txt" contains "42 items"`}},
		{Name: "contains misses", Build: content("report.txt", MatchContains, "43 items"), Transcript: wsIn(dir), WantStatus: fail,
			WantIn: []string{`does not contain "43 items"`, `it holds "\n  Total: 42 items`}},
		{Name: "regex", Build: content("report.txt", MatchRegex, `(?m)^Status: (done|ok)\s*$`), Transcript: wsIn(dir), WantStatus: pass, WantIn: []string{"matches /(?m)^Status: (done|ok)"}},
		{Name: "regex misses", Build: content("report.txt", MatchRegex, `Total: \d{3}`), Transcript: wsIn(dir), WantStatus: fail,
			WantIn: []string{`does not match /Total: \d{3}/`, "Total: 42"}},
		{Name: "missing file", Build: content("nope.txt", MatchContains, "x"), Transcript: wsIn(dir), WantStatus: fail, WantIn: []string{`file "nope.txt" does not exist`}},
		{Name: "directory", Build: content("sub", MatchContains, "x"), Transcript: wsIn(dir), WantStatus: fail, WantIn: []string{`"sub" is a directory, not a file`}},
		{Name: "no workspace", Build: content("report.txt", MatchContains, "x"), Transcript: nil, WantStatus: fail, WantIn: []string{noWorkspace}},
	})
}

func TestFileContentExcerpt(t *testing.T) {
	dir := t.TempDir()
	wsWrite(t, dir, "big.txt", strings.Repeat("a", 10000))
	j, err := FileContent("big.txt", MatchContains, "b")
	if err != nil {
		t.Fatal(err)
	}
	got := judgetest.Run(t, j, wsIn(dir))
	if want := `"` + strings.Repeat("a", excerptLen) + `"…`; !strings.Contains(got.Reasoning, want) {
		t.Errorf("reasoning = %q, want an excerpt of %d runes then …", got.Reasoning, excerptLen)
	}
}

func TestFileJSON(t *testing.T) {
	dir := t.TempDir()
	wsWrite(t, dir, "out/report.json", `{
		"total": 4,
		"ratio": 0.5,
		"items": [{"name": "a b", "price": 1.0, "tags": ["x", "y"]}],
		"key with spaces": true,
		"none": null,
		"nested": {"b": 2, "a": [1, 2]}
	}`)
	wsWrite(t, dir, "broken.json", `{"total": 4`)
	wsWrite(t, dir, "two.json", `{} {}`)
	at := func(path, jsonPath, want string) func() (judge.Judge, error) {
		return func() (judge.Judge, error) { return FileJSON(path, jsonPath, json.RawMessage(want)) }
	}
	const report = "out/report.json"
	pass, fail := judge.StatusPass, judge.StatusFail
	judgetest.RunCases(t, []judgetest.Case{
		{Name: "number", Build: at(report, "$.total", "4"), Transcript: wsIn(dir), WantStatus: pass, WantIn: []string{`file "out/report.json": $.total is 4`}},
		{Name: "without $", Build: at(report, "total", "4"), Transcript: wsIn(dir), WantStatus: pass},
		{Name: "leading dot", Build: at(report, ".total", "4"), Transcript: wsIn(dir), WantStatus: pass},
		{Name: "4 equals 4.0", Build: at(report, "$.total", "4.0"), Transcript: wsIn(dir), WantStatus: pass},
		{Name: "1.0 equals 1", Build: at(report, "$.items[0].price", "1"), Transcript: wsIn(dir), WantStatus: pass},
		{Name: "0.5 equals 5e-1", Build: at(report, "$.ratio", "5e-1"), Transcript: wsIn(dir), WantStatus: pass},
		{Name: "string in array", Build: at(report, "$.items[0].name", `"a b"`), Transcript: wsIn(dir), WantStatus: pass},
		{Name: "index in index", Build: at(report, "$.items[0].tags[1]", `"y"`), Transcript: wsIn(dir), WantStatus: pass},
		{Name: "quoted key", Build: at(report, `$["key with spaces"]`, "true"), Transcript: wsIn(dir), WantStatus: pass, WantIn: []string{`$["key with spaces"] is true`}},
		{Name: "null", Build: at(report, "$.none", "null"), Transcript: wsIn(dir), WantStatus: pass},
		{Name: "object in any key order", Build: at(report, "$.nested", `{"a": [1.0, 2], "b": 2e0}`), Transcript: wsIn(dir), WantStatus: pass},
		{Name: "whole document", Build: at(report, "$", `{"total":4,"ratio":0.5,"items":[{"name":"a b","price":1,"tags":["x","y"]}],"key with spaces":true,"none":null,"nested":{"a":[1,2],"b":2}}`), Transcript: wsIn(dir), WantStatus: pass},

		{Name: "wrong number", Build: at(report, "$.total", "3"), Transcript: wsIn(dir), WantStatus: fail, WantIn: []string{`file "out/report.json": $.total is 4, want 3`}},
		{Name: "number is not a string", Build: at(report, "$.total", `"4"`), Transcript: wsIn(dir), WantStatus: fail, WantIn: []string{`$.total is 4, want "4"`}},
		{Name: "null is not false", Build: at(report, "$.none", "false"), Transcript: wsIn(dir), WantStatus: fail, WantIn: []string{"$.none is null, want false"}},
		{Name: "array order matters", Build: at(report, "$.items[0].tags", `["y","x"]`), Transcript: wsIn(dir), WantStatus: fail, WantIn: []string{`$.items[0].tags is ["x","y"], want ["y","x"]`}},
		{Name: "object with a key more", Build: at(report, "$.nested", `{"a":[1,2],"b":2,"c":3}`), Transcript: wsIn(dir), WantStatus: fail, WantIn: []string{`want {"a":[1,2],"b":2,"c":3}`}},
		{Name: "missing key", Build: at(report, "$.items[0].nme", `"a b"`), Transcript: wsIn(dir), WantStatus: fail, WantIn: []string{`$.items[0] has no key "nme"`}},
		{Name: "missing top key", Build: at(report, "$.count", "1"), Transcript: wsIn(dir), WantStatus: fail, WantIn: []string{`$ has no key "count"`}},
		{Name: "index past the end", Build: at(report, "$.items[3].name", `"a b"`), Transcript: wsIn(dir), WantStatus: fail, WantIn: []string{"$.items has no index 3 (it has 1 elements)"}},
		{Name: "index into an object", Build: at(report, "$.nested[0]", "1"), Transcript: wsIn(dir), WantStatus: fail, WantIn: []string{"$.nested is an object, not an array"}},
		{Name: "key into a number", Build: at(report, "$.total.value", "1"), Transcript: wsIn(dir), WantStatus: fail, WantIn: []string{"$.total is a number, not an object"}},
		{Name: "key into an array", Build: at(report, "$.items.name", "1"), Transcript: wsIn(dir), WantStatus: fail, WantIn: []string{"$.items is an array, not an object"}},
		{Name: "not JSON", Build: at("broken.json", "$.total", "4"), Transcript: wsIn(dir), WantStatus: fail, WantIn: []string{`file "broken.json" is not JSON`}},
		{Name: "two values", Build: at("two.json", "$", "{}"), Transcript: wsIn(dir), WantStatus: fail, WantIn: []string{"unexpected data after the JSON value"}},
		{Name: "missing file", Build: at("nope.json", "$", "{}"), Transcript: wsIn(dir), WantStatus: fail, WantIn: []string{`file "nope.json" does not exist`}},
		{Name: "no workspace", Build: at(report, "$", "{}"), Transcript: &judge.Transcript{}, WantStatus: fail, WantIn: []string{noWorkspace}},
	})

	j, err := FileJSON(report, `items[0]["name"]`, json.RawMessage(`"a b"`))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := judgetest.Run(t, j, wsIn(dir)).Name, `file_json "out/report.json" $.items[0].name`; got != want {
		t.Errorf("name = %q, want %q", got, want)
	}
}

func TestFileBuildErrors(t *testing.T) {
	judgetest.RunBuildErrorCases(t, []judgetest.BuildErrorCase{
		{Name: "exists: empty path", Build: func() (judge.Judge, error) { return FileExists("") }, WantErr: "file_exists: empty path"},
		{Name: "exists: blank path", Build: func() (judge.Judge, error) { return FileExists("  ") }, WantErr: "empty path"},
		{Name: "content: empty path", Build: func() (judge.Judge, error) { return FileContent("", MatchEquals, "x") }, WantErr: "file_content: empty path"},
		{Name: "content: unknown match", Build: func() (judge.Judge, error) { return FileContent("a", "like", "x") }, WantErr: `unknown match "like"`},
		{Name: "content: empty match", Build: func() (judge.Judge, error) { return FileContent("a", "", "x") }, WantErr: `unknown match ""`},
		{Name: "content: bad regex", Build: func() (judge.Judge, error) { return FileContent("a", MatchRegex, "(unclosed") }, WantErr: "invalid regex"},
		{Name: "content: empty contains", Build: func() (judge.Judge, error) { return FileContent("a", MatchContains, "") }, WantErr: "it would match any file"},
		{Name: "content: empty regex", Build: func() (judge.Judge, error) { return FileContent("a", MatchRegex, "") }, WantErr: "it would match any file"},
		{Name: "json: empty path", Build: func() (judge.Judge, error) { return FileJSON("", "$", json.RawMessage("1")) }, WantErr: "file_json: empty path"},
		{Name: "json: empty JSON path", Build: func() (judge.Judge, error) { return FileJSON("a", "", json.RawMessage("1")) }, WantErr: "empty JSON path"},
		{Name: "json: bad JSON path", Build: func() (judge.Judge, error) { return FileJSON("a", "$.items[x]", json.RawMessage("1")) }, WantErr: "[x] is not an array index"},
		{Name: "json: unclosed bracket", Build: func() (judge.Judge, error) { return FileJSON("a", "$.items[0", json.RawMessage("1")) }, WantErr: "unterminated ["},
		{Name: "json: empty key", Build: func() (judge.Judge, error) { return FileJSON("a", "$.a..b", json.RawMessage("1")) }, WantErr: "empty key at column 4"},
		{Name: "json: bad want", Build: func() (judge.Judge, error) { return FileJSON("a", "$", json.RawMessage("{")) }, WantErr: "the wanted value is not JSON"},
		{Name: "json: no want", Build: func() (judge.Judge, error) { return FileJSON("a", "$", nil) }, WantErr: "no JSON value"},
		{Name: "json: two wants", Build: func() (judge.Judge, error) { return FileJSON("a", "$", json.RawMessage("1 2")) }, WantErr: "unexpected data after the JSON value"},
	})
}

func TestFileJSONPath(t *testing.T) {
	tests := []struct {
		in, want, wantErr string
	}{
		{in: "$", want: "$"},
		{in: "$.a", want: "$.a"},
		{in: "a", want: "$.a"},
		{in: ".a", want: "$.a"},
		{in: "a.b_c.d-e", want: "$.a.b_c.d-e"},
		{in: "$.items[0].name", want: "$.items[0].name"},
		{in: "items[10][2]", want: "$.items[10][2]"},
		{in: "[0]", want: "$[0]"},
		{in: `$["key with spaces"]`, want: `$["key with spaces"]`},
		{in: `$["plain"]`, want: "$.plain"},
		{in: `$["a]b"].c`, want: `$["a]b"].c`},
		{in: `$["quote \" and \\ in it"]`, want: `$["quote \" and \\ in it"]`},
		{in: `$["é"]`, want: `$["é"]`},
		{in: "$.1st", want: `$["1st"]`},
		{in: "", wantErr: "empty JSON path"},
		{in: "$.", wantErr: "empty key at column 2"},
		{in: "a..b", wantErr: "empty key at column 3"},
		{in: "$[-1]", wantErr: "[-1] is not an array index"},
		{in: "$[+1]", wantErr: "[+1] is not an array index"},
		{in: "$[*]", wantErr: "[*] is not an array index"},
		{in: "$[]", wantErr: "[] is not an array index"},
		{in: "$[0", wantErr: "unterminated ["},
		{in: `$["a`, wantErr: `unterminated ["key"]`},
		{in: `$["a"`, wantErr: `unterminated ["key"]`},
		{in: `$["\q"]`, wantErr: "bad key string"},
		{in: "$$", wantErr: `unexpected '$' at column 2`},
		{in: "$a", wantErr: `unexpected 'a' at column 2`},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			p, err := parseValuePath(tc.in)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("parseValuePath(%q) error = %v, want one containing %q", tc.in, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("parseValuePath(%q): %v", tc.in, err)
			}
			if got := p.String(); got != tc.want {
				t.Errorf("parseValuePath(%q) = %s, want %s", tc.in, got, tc.want)
			}
		})
	}
}

func TestFileJSONEqual(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		want bool
	}{
		{"same integer", "1", "1", true},
		{"1 and 1.0", "1", "1.0", true},
		{"1 and 1e0", "1", "1e0", true},
		{"100 and 1E2", "100", "1E2", true},
		{"0.1 and 1e-1", "0.1", "1e-1", true},
		{"-0 and 0", "-0", "0", true},
		{"beyond float64", "12345678901234567890123", "12345678901234567890124", false},
		{"float64 rounding", "0.30000000000000001", "0.3", false},
		{"huge exponents, same text", "1e99999", "1e99999", true},
		{"huge exponents, different", "1e99999", "1e99998", false},
		{"1 and 2", "1", "2", false},
		{"number and string", "1", `"1"`, false},
		{"bool", "true", "true", true},
		{"bool and number", "true", "1", false},
		{"null", "null", "null", true},
		{"null and false", "null", "false", false},
		{"null and empty string", "null", `""`, false},
		{"strings", `"a"`, `"a"`, true},
		{"escaped string", `"\u00e9"`, `"é"`, true},
		{"arrays", "[1, [2, 3]]", "[1.0, [2, 3e0]]", true},
		{"array order", "[1, 2]", "[2, 1]", false},
		{"array length", "[1]", "[1, 1]", false},
		{"empty array and object", "[]", "{}", false},
		{"objects in any order", `{"a": 1, "b": {"c": [true]}}`, `{"b": {"c": [true]}, "a": 1.0}`, true},
		{"object missing a key", `{"a": 1}`, `{"a": 1, "b": null}`, false},
		{"object with another key", `{"a": 1}`, `{"b": 1}`, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, err := decodeJSON([]byte(tc.a))
			if err != nil {
				t.Fatal(err)
			}
			b, err := decodeJSON([]byte(tc.b))
			if err != nil {
				t.Fatal(err)
			}
			if got := jsonEqual(a, b); got != tc.want {
				t.Errorf("jsonEqual(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.want)
			}
			if got := jsonEqual(b, a); got != tc.want {
				t.Errorf("jsonEqual(%s, %s) = %v, want %v", tc.b, tc.a, got, tc.want)
			}
		})
	}
}

func TestFileJSONEqualGoValues(t *testing.T) {
	tests := []struct {
		name string
		a, b any
		want bool
	}{
		{"json.Number and float64", json.Number("1.0"), 1.0, true},
		{"json.Number and int", json.Number("3"), 3, true},
		{"int64 and float64", int64(2), 2.5, false},
		{"nested", map[string]any{"a": []any{1, "x"}}, map[string]any{"a": []any{json.Number("1e0"), "x"}}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := jsonEqual(tc.a, tc.b); got != tc.want {
				t.Errorf("jsonEqual(%v, %v) = %v, want %v", tc.a, tc.b, got, tc.want)
			}
		})
	}
}

func TestFileDecodeJSON(t *testing.T) {
	tests := []struct {
		in      string
		want    any
		wantErr string
	}{
		{in: " 1.50 \n", want: json.Number("1.50")},
		{in: `{"a": [1]}`, want: map[string]any{"a": []any{json.Number("1")}}},
		{in: "", wantErr: "no JSON value"},
		{in: "  ", wantErr: "no JSON value"},
		{in: "1 2", wantErr: "unexpected data after the JSON value"},
		{in: "{} x", wantErr: "unexpected data after the JSON value"},
		{in: "{", wantErr: "unexpected EOF"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := decodeJSON([]byte(tc.in))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("decodeJSON(%q) error = %v, want one containing %q", tc.in, err, tc.wantErr)
				}
				return
			}
			if err != nil || !jsonEqual(got, tc.want) {
				t.Errorf("decodeJSON(%q) = %#v, %v; want %#v", tc.in, got, err, tc.want)
			}
			if n, ok := got.(json.Number); ok && n != tc.want {
				t.Errorf("decodeJSON(%q) = %q, want the number kept as written, %q", tc.in, n, tc.want)
			}
		})
	}
}

func TestFileDecimalRat(t *testing.T) {
	tests := []struct {
		in     string
		want   string // the rational, as big.Rat writes it
		wantOK bool
	}{
		{"42", "42/1", true},
		{"+42", "42/1", true},
		{"-1.50", "-3/2", true},
		{"0123", "123/1", true},
		{"1.", "1/1", true},
		{".5", "1/2", true},
		{"2e3", "2000/1", true},
		{"2E-3", "1/500", true},
		{"1e10000", "", true},
		{"1e10001", "", false},
		{"1e-99999999999999999999", "", false},
		{"", "", false},
		{"1/3", "", false},
		{"0x10", "", false},
		{"NaN", "", false},
		{"Infinity", "", false},
		{"1_000", "", false},
		{" 1", "", false},
		{"e5", "", false},
		{".", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, ok := decimalRat(tc.in)
			if ok != tc.wantOK {
				t.Fatalf("decimalRat(%q) ok = %v, want %v", tc.in, ok, tc.wantOK)
			}
			if ok && tc.want != "" && got.String() != tc.want {
				t.Errorf("decimalRat(%q) = %s, want %s", tc.in, got, tc.want)
			}
		})
	}
}

func TestFileJSONReadError(t *testing.T) {
	if os.Getuid() == 0 {
		t.Skip("root reads files whatever their mode")
	}
	dir := t.TempDir()
	path := wsWrite(t, dir, "secret.json", "{}")
	if err := os.Chmod(path, 0); err != nil {
		t.Fatal(err)
	}
	j, err := FileJSON("secret.json", "$", json.RawMessage("{}"))
	if err != nil {
		t.Fatal(err)
	}
	got := judgetest.Run(t, j, wsIn(dir))
	judgetest.Check(t, got, judge.StatusError, []string{`read file "secret.json"`}, nil)
}
