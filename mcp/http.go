package mcp

import (
	"fmt"
	"io"
	"mime"
	"net/http"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
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
		resp.Body = &cappedBody{body: resp.Body, left: t.limit, limit: t.limit}
	}
	return resp, nil
}

// cappedBody reads at most limit bytes of body; a read past them fails.
type cappedBody struct {
	body        io.ReadCloser
	left, limit int64
	tooLarge    bool
}

func (c *cappedBody) Read(p []byte) (int, error) {
	if c.left <= 0 && !c.tooLarge {
		var one [1]byte
		if n, err := c.body.Read(one[:]); n == 0 {
			return 0, err // the body ends at the cap
		}
		c.tooLarge = true
	}
	if c.tooLarge {
		return 0, fmt.Errorf("the server's answer is larger than %d MiB, the most Gavel reads: it was read no further", c.limit>>20)
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.body.Read(p)
	c.left -= int64(n)
	return n, err
}

func (c *cappedBody) Close() error { return c.body.Close() }

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
