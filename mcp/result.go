package mcp

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// resultText renders a tool's result as the text a judge reads: the
// content blocks in order, one per line, text as it is and other content
// summarised ("[image/png, 1234 bytes]"); then the structured content as
// JSON, unless a text block already holds the same JSON value (as the MCP
// spec asks servers to do, for clients that only read text).
func resultText(res *mcpsdk.CallToolResult) string {
	if res == nil {
		return ""
	}
	parts := make([]string, 0, len(res.Content)+1)
	for _, c := range res.Content {
		parts = append(parts, contentText(c))
	}
	if res.StructuredContent != nil {
		if data, err := json.Marshal(res.StructuredContent); err == nil && !textHoldsJSON(res.Content, data) {
			parts = append(parts, string(data))
		}
	}
	return strings.Join(parts, "\n")
}

// contentText renders one content block.
func contentText(c mcpsdk.Content) string {
	switch c := c.(type) {
	case *mcpsdk.TextContent:
		return c.Text
	case *mcpsdk.ImageContent:
		return fmt.Sprintf("[%s, %d bytes]", orUnknown(c.MIMEType, "image"), len(c.Data))
	case *mcpsdk.AudioContent:
		return fmt.Sprintf("[%s, %d bytes]", orUnknown(c.MIMEType, "audio"), len(c.Data))
	case *mcpsdk.ResourceLink:
		s := "[resource link " + c.URI
		if c.MIMEType != "" {
			s += ", " + c.MIMEType
		}
		return s + "]"
	case *mcpsdk.EmbeddedResource:
		r := c.Resource
		if r == nil {
			return "[resource]"
		}
		if r.Blob != nil {
			return fmt.Sprintf("[resource %s, %s, %d bytes]", r.URI, orUnknown(r.MIMEType, "binary"), len(r.Blob))
		}
		return fmt.Sprintf("[resource %s]\n%s", r.URI, r.Text)
	default:
		return fmt.Sprintf("[%T content]", c)
	}
}

func orUnknown(mime, kind string) string {
	if mime == "" {
		return kind + " of unknown type"
	}
	return mime
}

// textHoldsJSON reports whether a text block of content is the JSON value
// data, whatever its formatting.
func textHoldsJSON(content []mcpsdk.Content, data []byte) bool {
	var want any
	if json.Unmarshal(data, &want) != nil {
		return false
	}
	for _, c := range content {
		t, ok := c.(*mcpsdk.TextContent)
		if !ok {
			continue
		}
		var got any
		if json.Unmarshal([]byte(t.Text), &got) == nil && reflect.DeepEqual(got, want) {
			return true
		}
	}
	return false
}
