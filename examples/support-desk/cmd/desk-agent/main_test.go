package main

import "testing"

// The agent listens where http.yaml reaches it: DESK_AGENT_URL's host and
// port, or the suite's default.
func TestDefaultAddr(t *testing.T) {
	for _, tc := range []struct{ url, want string }{
		{"", "127.0.0.1:8787"},
		{"http://127.0.0.1:40123", "127.0.0.1:40123"},
		{"http://localhost:9000/", "localhost:9000"},
		{"not a url", "127.0.0.1:8787"},
	} {
		if got := defaultAddr(tc.url); got != tc.want {
			t.Errorf("defaultAddr(%q) = %q, want %q", tc.url, got, tc.want)
		}
	}
}
