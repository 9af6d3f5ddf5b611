package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// A streamable-HTTP server that answers a tool call with a JSON body that
// does not end: the client reads 16 MiB of it at most, as the SDK does of
// an SSE event or a stdio line, and the call fails saying so.
func TestHTTPAnswerIsCapped(t *testing.T) {
	const size = 256 << 20
	h := mcpsdk.NewStreamableHTTPHandler(func(*http.Request) *mcpsdk.Server { return ordersServer() }, &mcpsdk.StreamableHTTPOptions{JSONResponse: true})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if !bytes.Contains(body, []byte(`"tools/call"`)) {
			r.Body = io.NopCloser(bytes.NewReader(body))
			h.ServeHTTP(w, r)
			return
		}
		var req struct {
			ID json.RawMessage `json:"id"`
		}
		json.Unmarshal(body, &req)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(req.ID)+`,"result":{"content":[{"type":"text","text":"`)
		chunk := []byte(strings.Repeat("a", 64<<10))
		for written := 0; written < size; written += len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return // the client stopped reading
			}
		}
		io.WriteString(w, `"}]}}`)
	}))
	t.Cleanup(srv.Close)
	c := connect(t, Server{Name: "orders", URL: srv.URL})

	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	call, err := c.Call(context.Background(), "get_order_status", json.RawMessage(`{"order_id":"A-1001"}`))
	runtime.ReadMemStats(&after)
	if err == nil {
		t.Errorf("got %d bytes of result, want an error", len(call.Result))
	} else if !strings.Contains(err.Error(), "larger than 16 MiB") {
		t.Errorf("error = %v, want one saying the answer is larger than 16 MiB", err)
	}
	if allocated := after.TotalAlloc - before.TotalAlloc; allocated >= 128<<20 {
		t.Errorf("reading it allocated %d MiB, want well under the answer's 256 MiB", allocated>>20)
	}
}
