package rule

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/judge"
)

func TestFileExists(t *testing.T) {
	dir := t.TempDir()
	abs := wsWrite(t, dir, "out.json", "{}")
	wsWrite(t, dir, "sub/inner.txt", "x")
	exists := func(path string) func() (judge.Judge, error) {
		return func() (judge.Judge, error) { return FileExists(path) }
	}
	pass, fail := judge.StatusPass, judge.StatusFail
	runWSCases(t, []wsCase{
		{"present", exists("out.json"), wsIn(dir), pass, []string{`file "out.json" exists (2 bytes)`}, nil},
		{"nested", exists("sub/inner.txt"), wsIn(dir), pass, []string{`"sub/inner.txt" exists`}, nil},
		{"directory", exists("sub"), wsIn(dir), pass, []string{`"sub" exists (a directory)`}, nil},
		{"missing", exists("nope.json"), wsIn(dir), fail, []string{`file "nope.json" does not exist`, filepath.Join(dir, "nope.json")}, nil},
		{"below a file", exists("out.json/x"), wsIn(dir), fail, []string{"does not exist"}, nil},
		{"absolute without workspace", exists(abs), &judge.Transcript{}, pass, []string{"exists"}, nil},
		{"relative without workspace", exists("out.json"), &judge.Transcript{}, fail, []string{noWorkspace}, nil},
		{"nil transcript", exists("out.json"), nil, fail, []string{noWorkspace}, nil},
	})

	j, err := FileExists("out.json")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := wsRun(t, j, wsIn(dir)).Name, `file_exists "out.json"`; got != want {
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
	runWSCases(t, []wsCase{
		{"equals after trimming", content("report.txt", MatchEquals, "Total: 42 items\nStatus: done\n"), wsIn(dir), pass,
			[]string{`file "report.txt" equals "Total: 42 items\nStatus: done"`}, nil},
		{"equals differs", content("report.txt", MatchEquals, "Total: 42 items"), wsIn(dir), fail,
			[]string{`file "report.txt" does not equal "Total: 42 items"`, `it holds "\n  Total: 42 items\nStatus: done  \n\n"`}, nil},
		{"equals empty file", content("empty.txt", MatchEquals, ""), wsIn(dir), fail, []string{"does not exist"}, nil},
		{"contains", content("report.txt", MatchContains, "42 items"), wsIn(dir), pass, []string{`file "report.txt" contains "42 items"`}, nil},
		{"contains misses", content("report.txt", MatchContains, "43 items"), wsIn(dir), fail,
			[]string{`does not contain "43 items"`, `it holds "\n  Total: 42 items`}, nil},
		{"regex", content("report.txt", MatchRegex, `(?m)^Status: (done|ok)\s*$`), wsIn(dir), pass, []string{"matches /(?m)^Status: (done|ok)"}, nil},
		{"regex misses", content("report.txt", MatchRegex, `Total: \d{3}`), wsIn(dir), fail,
			[]string{`does not match /Total: \d{3}/`, "Total: 42"}, nil},
		{"missing file", content("nope.txt", MatchContains, "x"), wsIn(dir), fail, []string{`file "nope.txt" does not exist`}, nil},
		{"directory", content("sub", MatchContains, "x"), wsIn(dir), fail, []string{`"sub" is a directory, not a file`}, nil},
		{"no workspace", content("report.txt", MatchContains, "x"), nil, fail, []string{noWorkspace}, nil},
	})
}

func TestFileContentExcerpt(t *testing.T) {
	dir := t.TempDir()
	wsWrite(t, dir, "big.txt", strings.Repeat("a", 10000))
	j, err := FileContent("big.txt", MatchContains, "b")
	if err != nil {
		t.Fatal(err)
	}
	got := wsRun(t, j, wsIn(dir))
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
	runWSCases(t, []wsCase{
		{"number", at(report, "$.total", "4"), wsIn(dir), pass, []string{`file "out/report.json": $.total is 4`}, nil},
		{"without $", at(report, "total", "4"), wsIn(dir), pass, nil, nil},
		{"leading dot", at(report, ".total", "4"), wsIn(dir), pass, nil, nil},
		{"4 equals 4.0", at(report, "$.total", "4.0"), wsIn(dir), pass, nil, nil},
		{"1.0 equals 1", at(report, "$.items[0].price", "1"), wsIn(dir), pass, nil, nil},
		{"0.5 equals 5e-1", at(report, "$.ratio", "5e-1"), wsIn(dir), pass, nil, nil},
		{"string in array", at(report, "$.items[0].name", `"a b"`), wsIn(dir), pass, nil, nil},
		{"index in index", at(report, "$.items[0].tags[1]", `"y"`), wsIn(dir), pass, nil, nil},
		{"quoted key", at(report, `$["key with spaces"]`, "true"), wsIn(dir), pass, []string{`$["key with spaces"] is true`}, nil},
		{"null", at(report, "$.none", "null"), wsIn(dir), pass, nil, nil},
		{"object in any key order", at(report, "$.nested", `{"a": [1.0, 2], "b": 2e0}`), wsIn(dir), pass, nil, nil},
		{"whole document", at(report, "$", `{"total":4,"ratio":0.5,"items":[{"name":"a b","price":1,"tags":["x","y"]}],"key with spaces":true,"none":null,"nested":{"a":[1,2],"b":2}}`), wsIn(dir), pass, nil, nil},

		{"wrong number", at(report, "$.total", "3"), wsIn(dir), fail, []string{`file "out/report.json": $.total is 4, want 3`}, nil},
		{"number is not a string", at(report, "$.total", `"4"`), wsIn(dir), fail, []string{`$.total is 4, want "4"`}, nil},
		{"null is not false", at(report, "$.none", "false"), wsIn(dir), fail, []string{"$.none is null, want false"}, nil},
		{"array order matters", at(report, "$.items[0].tags", `["y","x"]`), wsIn(dir), fail, []string{`$.items[0].tags is ["x","y"], want ["y","x"]`}, nil},
		{"object with a key more", at(report, "$.nested", `{"a":[1,2],"b":2,"c":3}`), wsIn(dir), fail, []string{`want {"a":[1,2],"b":2,"c":3}`}, nil},
		{"missing key", at(report, "$.items[0].nme", `"a b"`), wsIn(dir), fail, []string{`$.items[0] has no key "nme"`}, nil},
		{"missing top key", at(report, "$.count", "1"), wsIn(dir), fail, []string{`$ has no key "count"`}, nil},
		{"index past the end", at(report, "$.items[3].name", `"a b"`), wsIn(dir), fail, []string{"$.items has no index 3 (it has 1 elements)"}, nil},
		{"index into an object", at(report, "$.nested[0]", "1"), wsIn(dir), fail, []string{"$.nested is an object, not an array"}, nil},
		{"key into a number", at(report, "$.total.value", "1"), wsIn(dir), fail, []string{"$.total is a number, not an object"}, nil},
		{"key into an array", at(report, "$.items.name", "1"), wsIn(dir), fail, []string{"$.items is an array, not an object"}, nil},
		{"not JSON", at("broken.json", "$.total", "4"), wsIn(dir), fail, []string{`file "broken.json" is not JSON`}, nil},
		{"two values", at("two.json", "$", "{}"), wsIn(dir), fail, []string{"unexpected data after the JSON value"}, nil},
		{"missing file", at("nope.json", "$", "{}"), wsIn(dir), fail, []string{`file "nope.json" does not exist`}, nil},
		{"no workspace", at(report, "$", "{}"), &judge.Transcript{}, fail, []string{noWorkspace}, nil},
	})

	j, err := FileJSON(report, `items[0]["name"]`, json.RawMessage(`"a b"`))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := wsRun(t, j, wsIn(dir)).Name, `file_json "out/report.json" $.items[0].name`; got != want {
		t.Errorf("name = %q, want %q", got, want)
	}
}

func TestFileBuildErrors(t *testing.T) {
	runWSBuildCases(t, []wsBuildCase{
		{"exists: empty path", func() (judge.Judge, error) { return FileExists("") }, "file_exists: empty path"},
		{"exists: blank path", func() (judge.Judge, error) { return FileExists("  ") }, "empty path"},
		{"content: empty path", func() (judge.Judge, error) { return FileContent("", MatchEquals, "x") }, "file_content: empty path"},
		{"content: unknown match", func() (judge.Judge, error) { return FileContent("a", "like", "x") }, `unknown match "like"`},
		{"content: empty match", func() (judge.Judge, error) { return FileContent("a", "", "x") }, `unknown match ""`},
		{"content: bad regex", func() (judge.Judge, error) { return FileContent("a", MatchRegex, "(unclosed") }, "invalid regex"},
		{"content: empty contains", func() (judge.Judge, error) { return FileContent("a", MatchContains, "") }, "it would match any file"},
		{"content: empty regex", func() (judge.Judge, error) { return FileContent("a", MatchRegex, "") }, "it would match any file"},
		{"json: empty path", func() (judge.Judge, error) { return FileJSON("", "$", json.RawMessage("1")) }, "file_json: empty path"},
		{"json: empty JSON path", func() (judge.Judge, error) { return FileJSON("a", "", json.RawMessage("1")) }, "empty JSON path"},
		{"json: bad JSON path", func() (judge.Judge, error) { return FileJSON("a", "$.items[x]", json.RawMessage("1")) }, "[x] is not an array index"},
		{"json: unclosed bracket", func() (judge.Judge, error) { return FileJSON("a", "$.items[0", json.RawMessage("1")) }, "unterminated ["},
		{"json: empty key", func() (judge.Judge, error) { return FileJSON("a", "$.a..b", json.RawMessage("1")) }, "empty key at column 4"},
		{"json: bad want", func() (judge.Judge, error) { return FileJSON("a", "$", json.RawMessage("{")) }, "the wanted value is not JSON"},
		{"json: no want", func() (judge.Judge, error) { return FileJSON("a", "$", nil) }, "no JSON value"},
		{"json: two wants", func() (judge.Judge, error) { return FileJSON("a", "$", json.RawMessage("1 2")) }, "unexpected data after the JSON value"},
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
	got := wsRun(t, j, wsIn(dir))
	checkWSJudgment(t, got, judge.StatusError, []string{`read file "secret.json"`}, nil)
}
