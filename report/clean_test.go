package report

import "testing"

func TestClean(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "hello, world", "hello, world"},
		{"tabs and newlines stay", "a\tb\nc", "a\tb\nc"},
		{"CRLF", "a\r\nb\rc", "a\nb\nc"},
		{"ANSI colour", "\x1b[31mred\x1b[0m", "[31mred[0m"},
		{"NUL and other C0", "a\x00b\x07c\x1fd", "abcd"},
		{"DEL and C1", "a\x7fb\u0085c\u009bd", "abcd"},
		{"noncharacters", "a\uFFFEb\uFFFFc", "abc"},
		{"invalid UTF-8", "a\xffb\xc3", "ab"},
		{"the replacement character itself stays", "a\uFFFDb", "a\uFFFDb"},
		{"markup is not clean's business", "<script>]]>", "<script>]]>"},
		{"non-ASCII stays", "héllo ✅ 日本", "héllo ✅ 日本"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := clean(tc.in); got != tc.want {
				t.Errorf("clean(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestOneLineAndShorten(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"a\n  b\tc ", 0, "a b c"},
		{"short", 10, "short"},
		{"exactly 10", 10, "exactly 10"},
		{"a bit too long", 10, "a bit too…"},
		{"日本語のテキスト", 4, "日本語…"},
	}
	for _, tc := range tests {
		if got := shorten(oneLine(tc.in), tc.n); got != tc.want {
			t.Errorf("shorten(oneLine(%q), %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}
