package llm_test

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/llm"
)

func TestLimitBody(t *testing.T) {
	tests := []struct {
		name          string
		body          string
		contentLength int64
		limit         int64
		wantErr       bool
	}{
		{"smaller", "hello", -1, 10, false},
		{"exactly the cap", "0123456789", -1, 10, false},
		{"one byte more", "0123456789!", -1, 10, true},
		{"far more", strings.Repeat("a", 1000), -1, 10, true},
		{"announced larger", "short", 11, 10, true},
		{"announced within", "short", 5, 10, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := io.ReadAll(llm.LimitBody(io.NopCloser(strings.NewReader(tc.body)), tc.contentLength, tc.limit))
			var tooLarge *llm.TooLargeError
			if tc.wantErr {
				if !errors.As(err, &tooLarge) || tooLarge.Limit != tc.limit {
					t.Fatalf("error = %v, want a TooLargeError of limit %d", err, tc.limit)
				}
				if int64(len(got)) > tc.limit {
					t.Errorf("read %d bytes, want at most the cap, %d", len(got), tc.limit)
				}
				return
			}
			if err != nil || string(got) != tc.body {
				t.Errorf("got %q, %v; want the whole body", got, err)
			}
		})
	}
}

func TestTooLargeErrorSaysWhatToChange(t *testing.T) {
	_, err := io.ReadAll(llm.LimitBody(io.NopCloser(strings.NewReader("too long")), -1, 4))
	if want := "the response is larger than 4 bytes and was read no further (GAVEL_MAX_RESPONSE_MB sets the cap, in MiB)"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
	_, err = io.ReadAll(llm.LimitBodySetBy(io.NopCloser(strings.NewReader("too long")), -1, 4, ""))
	if want := "the response is larger than 4 bytes and was read no further"; err == nil || err.Error() != want {
		t.Errorf("with nothing that sets the cap: got %v, want %q", err, want)
	}
}

func TestMaxResponseBytes(t *testing.T) {
	tests := []struct {
		value   string
		want    int64
		wantErr bool
	}{
		{"", llm.DefaultMaxResponseBytes, false},
		{"64", 64 << 20, false},
		{" 1 ", 1 << 20, false},
		{"0", 0, true},
		{"-5", 0, true},
		{"1.5", 0, true},
		{"lots", 0, true},
	}
	for _, tc := range tests {
		got, err := llm.MaxResponseBytes(func(name string) string {
			if name == llm.MaxResponseEnv {
				return tc.value
			}
			return ""
		})
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("%s=%q: got %d, %v; want %d, error %v", llm.MaxResponseEnv, tc.value, got, err, tc.want, tc.wantErr)
		}
		if err != nil && !strings.Contains(err.Error(), "GAVEL_MAX_RESPONSE_MB") {
			t.Errorf("error %q does not name the variable", err)
		}
	}
}
