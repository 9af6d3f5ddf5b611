package mcp

import (
	"mime"
	"net/http"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gavelhq/gavel/llm"
)

// maxAnswer bounds an answer of an HTTP server that is not an event
// stream (a streamable server's JSON answer), as the SDK bounds an SSE
// event and a stdio line: 16 MiB.
const maxAnswer = mcpsdk.DefaultMaxEventSize

// newHTTPClient returns the HTTP client for s: a transport of its own (so
// Close can drop its idle connections) that adds s's headers to every
// request and reads at most maxAnswer of an answer that is not an event
// stream. It sets no overall timeout: the SSE streams it reads stay open
// for the whole session; requests are bounded by their contexts instead.
func newHTTPClient(s Server) (*http.Client, *http.Transport) {
	base := http.DefaultTransport.(*http.Transport).Clone()
	var rt http.RoundTripper = base
	if len(s.Headers) > 0 {
		rt = headerTransport{base: base, headers: s.Headers}
	}
	return &http.Client{Transport: capTransport{base: rt, limit: maxAnswer}}, base
}

// capTransport caps the bodies of the answers that are not event streams:
// the SDK reads a JSON answer whole, and a server answering without end
// would take all the memory there is.
type capTransport struct {
	base  http.RoundTripper
	limit int64
}

func (t capTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != "text/event-stream" {
		resp.Body = llm.LimitBodySetBy(resp.Body, resp.ContentLength, t.limit, "")
	}
	return resp, nil
}

// headerTransport adds fixed headers to each request.
type headerTransport struct {
	base    http.RoundTripper
	headers map[string]string
}

func (t headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context()) // a RoundTripper must not modify its request
	for k, v := range t.headers {
		req.Header.Set(k, v)
	}
	return t.base.RoundTrip(req)
}
