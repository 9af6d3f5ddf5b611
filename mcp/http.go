package mcp

import (
	"bytes"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gavelhq/gavel/llm"
)

// maxAnswer bounds an answer of an HTTP server that is not an event
// stream (a streamable server's JSON answer), as the SDK bounds an SSE
// event and a stdio line: 16 MiB.
const maxAnswer = mcpsdk.DefaultMaxEventSize

// newHTTPClient returns the HTTP client for s: a transport of its own (so
// Close can drop its idle connections) that adds s's headers to every
// request, reads at most maxAnswer of an answer that is not an event
// stream, and keeps the last refusal in refused. It sets no overall
// timeout: the SSE streams it reads stay open for the whole session;
// requests are bounded by their contexts instead.
func newHTTPClient(s Server, refused *refusal) (*http.Client, *http.Transport) {
	base := http.DefaultTransport.(*http.Transport).Clone()
	var rt http.RoundTripper = base
	if len(s.Headers) > 0 {
		rt = headerTransport{base: base, headers: s.Headers}
	}
	rt = refusalTransport{base: rt, last: refused}
	return &http.Client{Transport: capTransport{base: rt, limit: maxAnswer}}, base
}

// A refusal is the last 4xx answer of an HTTP server: its status, and the
// start of its body, in which servers say why ("Access is only allowed at
// localhost:37120"); the SDK's errors give only the status's text.
type refusal struct {
	mu     sync.Mutex
	status int
	says   string
}

// get returns the last refusal's status and what its body said; 0 when
// there was none.
func (r *refusal) get() (status int, says string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.status, r.says
}

// refusalSays is how much of a refusal's body is kept.
const refusalSays = 500

// refusalTransport records the 4xx answers in last, their bodies kept
// whole for the caller.
type refusalTransport struct {
	base http.RoundTripper
	last *refusal
}

func (t refusalTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil || resp.StatusCode < 400 || resp.StatusCode > 499 {
		return resp, err
	}
	start, _ := io.ReadAll(io.LimitReader(resp.Body, refusalSays))
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(start), resp.Body), resp.Body}
	says := strings.TrimSpace(strings.ToValidUTF8(string(start), "?"))
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt == "text/html" {
		says = "" // a proxy's error page says nothing a line can
	}
	t.last.mu.Lock()
	t.last.status, t.last.says = resp.StatusCode, says
	t.last.mu.Unlock()
	return resp, nil
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
