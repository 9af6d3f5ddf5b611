package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gavelhq/gavel/mcp/mcptest"
)

// Microsoft's Playwright MCP server asks the client for its roots (a
// roots/list request) before it runs a tool, when the client advertises
// the roots capability; Gavel advertised it (a go-sdk default) and never
// answered, so every call hung until its timeout. A call through the real
// server over streamable HTTP must come back with the page.
func TestPlaywrightOverStreamableHTTP(t *testing.T) {
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "<!doctype html><title>Order 12345</title><h1>Shipped</h1>")
	}))
	defer page.Close()
	url := mcptest.StartPlaywright(t)

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	c, err := Connect(ctx, Server{Name: "playwright", URL: url, Timeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	args, _ := json.Marshal(map[string]string{"url": page.URL})
	start := time.Now()
	call, err := c.Call(ctx, "browser_navigate", args)
	if err != nil {
		t.Fatalf("browser_navigate after %s: %v", time.Since(start).Round(time.Millisecond), err)
	}
	if call.IsError || !strings.Contains(call.Result, "Order 12345") {
		t.Errorf("browser_navigate: is error %v, result:\n%.2000s", call.IsError, call.Result)
	}
}

// A server that refuses a request says why in the body of its answer:
// Playwright's, reached at 127.0.0.1 when it names itself localhost,
// answers 403 "Access is only allowed at localhost:PORT". The error shows
// that explanation, not only "Forbidden".
func TestRefusalShowsTheServersExplanation(t *testing.T) {
	url := strings.Replace(mcptest.StartPlaywright(t), "localhost", "127.0.0.1", 1)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := Connect(ctx, Server{Name: "playwright", URL: url, Transport: TransportStreamable, Timeout: 20 * time.Second})
	if err == nil || !strings.Contains(err.Error(), "Forbidden") || !strings.Contains(err.Error(), `the server said: "Access is only allowed at localhost:`) {
		t.Errorf("connect at 127.0.0.1: %v", err)
	}
}
