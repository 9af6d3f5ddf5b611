package mcp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The filesystem reference server answers every tool with the text and
// the same result as structuredContent ({"content": TEXT}): one result,
// which a model must read once. Gavel appended both, so a file reached the
// model, and the transcript, twice over.
func TestFilesystemResultIsReadOnce(t *testing.T) {
	dir := t.TempDir()
	text := strings.Repeat("Order 12345 shipped on 2026-11-20.\n", 3000) // 105,000 bytes
	if err := os.WriteFile(filepath.Join(dir, "orders.txt"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := Connect(ctx, Server{Name: "filesystem", Command: []string{serverBin(t, "mcp-server-filesystem"), dir}, Timeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	args, _ := json.Marshal(map[string]string{"path": filepath.Join(dir, "orders.txt")})
	call, err := c.Call(ctx, "read_text_file", args)
	if err != nil {
		t.Fatal(err)
	}
	if call.IsError || call.Result != text {
		t.Errorf("read_text_file of %d bytes: %d bytes back (error %v), want the file once", len(text), len(call.Result), call.IsError)
	}
}
