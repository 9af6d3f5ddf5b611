package mcp

import (
	"encoding/json"
	"fmt"
	"strings"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// resultText renders a tool's result as the text a model and a judge
// read: the content blocks in order, one per line, text as it is and
// other content summarised ("[image/png, 1234 bytes]"). Structured content
// is the same result as its text rendering (the MCP spec asks a server
// that returns it to return its text too, for clients that read text), so
// it is added, as JSON, only when no text block renders it.
func resultText(res *mcpsdk.CallToolResult) string {
	if res == nil {
		return ""
	}
	parts := make([]string, 0, len(res.Content)+1)
	rendered := false
	for _, c := range res.Content {
		parts = append(parts, contentText(c))
		_, text := c.(*mcpsdk.TextContent)
		rendered = rendered || text
	}
	if res.StructuredContent != nil && !rendered {
		if data, err := json.Marshal(res.StructuredContent); err == nil {
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
