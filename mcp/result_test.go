package mcp

import (
	"testing"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestResultText(t *testing.T) {
	size := int64(2048)
	for _, tc := range []struct {
		name string
		res  *mcpsdk.CallToolResult
		want string
	}{
		{"nil", nil, ""},
		{"empty", &mcpsdk.CallToolResult{}, ""},
		{"text blocks, one per line", &mcpsdk.CallToolResult{Content: []mcpsdk.Content{
			&mcpsdk.TextContent{Text: "first"}, &mcpsdk.TextContent{Text: "second\nthird"},
		}}, "first\nsecond\nthird"},
		{"image and audio", &mcpsdk.CallToolResult{Content: []mcpsdk.Content{
			&mcpsdk.TextContent{Text: "a chart:"},
			&mcpsdk.ImageContent{MIMEType: "image/png", Data: make([]byte, 1234)},
			&mcpsdk.AudioContent{MIMEType: "audio/wav", Data: make([]byte, 10)},
			&mcpsdk.ImageContent{Data: make([]byte, 3)},
		}}, "a chart:\n[image/png, 1234 bytes]\n[audio/wav, 10 bytes]\n[image of unknown type, 3 bytes]"},
		{"resource link", &mcpsdk.CallToolResult{Content: []mcpsdk.Content{
			&mcpsdk.ResourceLink{URI: "file:///report.pdf", Name: "report", MIMEType: "application/pdf", Size: &size},
		}}, "[resource link file:///report.pdf, application/pdf]"},
		{"embedded resources", &mcpsdk.CallToolResult{Content: []mcpsdk.Content{
			&mcpsdk.EmbeddedResource{Resource: &mcpsdk.ResourceContents{URI: "file:///notes.txt", MIMEType: "text/plain", Text: "buy milk"}},
			&mcpsdk.EmbeddedResource{Resource: &mcpsdk.ResourceContents{URI: "file:///a.gz", MIMEType: "application/gzip", Blob: make([]byte, 99)}},
			&mcpsdk.EmbeddedResource{Resource: &mcpsdk.ResourceContents{URI: "file:///b", Blob: []byte{}}},
		}}, "[resource file:///notes.txt]\nbuy milk\n[resource file:///a.gz, application/gzip, 99 bytes]\n[resource file:///b, binary of unknown type, 0 bytes]"},
		{"structured content only", &mcpsdk.CallToolResult{
			StructuredContent: map[string]any{"b": 2, "a": []any{"x"}},
		}, `{"a":["x"],"b":2}`},
		{"structured content already in a text block", &mcpsdk.CallToolResult{
			Content:           []mcpsdk.Content{&mcpsdk.TextContent{Text: "{\n  \"b\": 2,\n  \"a\": 1\n}"}},
			StructuredContent: map[string]any{"a": 1, "b": 2},
		}, "{\n  \"b\": 2,\n  \"a\": 1\n}"},
		// The text is the structured content's rendering: one result, read
		// once (the filesystem server's read_text_file answers so).
		{"structured content beside its text rendering", &mcpsdk.CallToolResult{
			Content:           []mcpsdk.Content{&mcpsdk.TextContent{Text: "It is 21°C in Paris."}},
			StructuredContent: map[string]any{"city": "Paris", "celsius": 21},
		}, "It is 21°C in Paris."},
		{"structured content beside an image only", &mcpsdk.CallToolResult{
			Content:           []mcpsdk.Content{&mcpsdk.ImageContent{MIMEType: "image/png", Data: make([]byte, 5)}},
			StructuredContent: map[string]any{"width": 1},
		}, "[image/png, 5 bytes]\n{\"width\":1}"},
		{"structured content that is not an object", &mcpsdk.CallToolResult{
			Content:           []mcpsdk.Content{&mcpsdk.TextContent{Text: "[1, 2]"}},
			StructuredContent: []any{1, 2},
		}, "[1, 2]"},
		{"error", &mcpsdk.CallToolResult{IsError: true, Content: []mcpsdk.Content{&mcpsdk.TextContent{Text: "no such order"}}}, "no such order"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := resultText(tc.res); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}
