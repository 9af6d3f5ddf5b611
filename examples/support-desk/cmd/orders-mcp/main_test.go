package main

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRunErrors(t *testing.T) {
	// A database under a regular file: its directory cannot be made.
	file := filepath.Join(t.TempDir(), "not-a-dir")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(file, "orders.db")
	tests := []struct {
		name       string
		args       []string
		wantErr    error  // matched with errors.Is, when set
		wantErrMsg string // in the error's text, when set
		wantStderr string // in what run wrote to stderr
	}{
		{"no db", nil, errUsage, "", "-db is required"},
		{"extra argument", []string{"-db", "x.db", "serve"}, errUsage, "", `unexpected argument "serve"`},
		{"unknown flag", []string{"-port", "80"}, errUsage, "", "flag provided but not defined: -port"},
		{"help", []string{"-h"}, flag.ErrHelp, "", "usage: orders-mcp -db PATH [-reset] [-http ADDR]"},
		{"database cannot be created", []string{"-db", missing}, nil, missing, ""},
		{"bad listen address", []string{"-db", filepath.Join(t.TempDir(), "orders.db"), "-http", "256.0.0.1:80"}, nil, "listen", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr strings.Builder
			err := run(testContext(t), tt.args, &stderr)
			if err == nil {
				t.Fatalf("run(%q): got no error", tt.args)
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("run(%q): got error %v, want %v", tt.args, err, tt.wantErr)
			}
			if !strings.Contains(err.Error(), tt.wantErrMsg) {
				t.Errorf("run(%q): got error %q, want one containing %q", tt.args, err, tt.wantErrMsg)
			}
			if !strings.Contains(stderr.String(), tt.wantStderr) {
				t.Errorf("run(%q) stderr: got %q, want it to contain %q", tt.args, stderr.String(), tt.wantStderr)
			}
		})
	}
}
