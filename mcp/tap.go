package mcp

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The MCP SDK decodes a server's tools into its Tool type, and drops the
// fields that type does not know: newer ones of the spec, such as
// execution (whether a tool runs as a task). The recording proxy must pass
// a tool on as its server described it, so a client's connection keeps,
// of each tools/list answer, the fields of each tool the SDK left out.

// knownToolFields are the fields of a tool the SDK's Tool decodes.
var knownToolFields = map[string]bool{
	"name": true, "title": true, "description": true, "inputSchema": true,
	"outputSchema": true, "annotations": true, "_meta": true, "icons": true,
}

// A toolTap keeps the tool fields the SDK does not know, by tool name,
// from the tools/list answers that pass through a connection.
type toolTap struct {
	mu      sync.Mutex
	pending map[jsonrpc.ID]bool                   // tools/list requests sent
	fields  map[string]map[string]json.RawMessage // tool → field → value
}

// extras returns the fields of tool name the SDK does not know; nil when
// none.
func (t *toolTap) extras(name string) map[string]json.RawMessage {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.fields[name]
}

// sent notes a request written to the server.
func (t *toolTap) sent(msg jsonrpc.Message) {
	if req, ok := msg.(*jsonrpc.Request); ok && req.Method == "tools/list" && req.ID.IsValid() {
		t.mu.Lock()
		if t.pending == nil {
			t.pending = map[jsonrpc.ID]bool{}
		}
		t.pending[req.ID] = true
		t.mu.Unlock()
	}
}

// received keeps the unknown fields of the tools of an answer to a
// tools/list request.
func (t *toolTap) received(msg jsonrpc.Message) {
	resp, ok := msg.(*jsonrpc.Response)
	if !ok {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.pending[resp.ID] {
		return
	}
	delete(t.pending, resp.ID)
	var result struct {
		Tools []map[string]json.RawMessage `json:"tools"`
	}
	if resp.Error != nil || json.Unmarshal(resp.Result, &result) != nil {
		return
	}
	for _, tool := range result.Tools {
		var name string
		if json.Unmarshal(tool["name"], &name) != nil {
			continue
		}
		for field := range tool {
			if knownToolFields[field] {
				delete(tool, field)
			}
		}
		if len(tool) == 0 {
			continue
		}
		if t.fields == nil {
			t.fields = map[string]map[string]json.RawMessage{}
		}
		t.fields[name] = tool
	}
}

// tappedConnection is a connection whose tools/list answers a toolTap
// reads.
type tappedConnection struct {
	mcpsdk.Connection
	tap *toolTap
}

func (c tappedConnection) Write(ctx context.Context, msg jsonrpc.Message) error {
	c.tap.sent(msg)
	return c.Connection.Write(ctx, msg)
}

func (c tappedConnection) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if err == nil {
		c.tap.received(msg)
	}
	return msg, err
}

// toolsWithExtras is a tools/list answer with, in each tool, the fields
// its upstream gave that the SDK does not know (a recording proxy's).
type toolsWithExtras struct {
	*mcpsdk.ListToolsResult
	tap *toolTap
}

// MarshalJSON writes the answer as the SDK would, each tool with its
// upstream's unknown fields added.
func (r toolsWithExtras) MarshalJSON() ([]byte, error) {
	data, err := json.Marshal(r.ListToolsResult)
	if err != nil {
		return nil, err
	}
	var answer map[string]json.RawMessage
	var tools []map[string]json.RawMessage
	if json.Unmarshal(data, &answer) != nil || json.Unmarshal(answer["tools"], &tools) != nil {
		return data, nil
	}
	for _, tool := range tools {
		var name string
		json.Unmarshal(tool["name"], &name)
		for field, value := range r.tap.extras(name) {
			if _, set := tool[field]; !set {
				tool[field] = value
			}
		}
	}
	if answer["tools"], err = json.Marshal(tools); err != nil {
		return nil, err
	}
	return json.Marshal(answer)
}
