package mcp

import (
	"net/http"
)

// newHTTPClient returns the HTTP client for s: a transport of its own (so
// Close can drop its idle connections) that adds s's headers to every
// request. It sets no overall timeout: the SSE streams it reads stay open
// for the whole session; requests are bounded by their contexts instead.
func newHTTPClient(s Server) (*http.Client, *http.Transport) {
	base := http.DefaultTransport.(*http.Transport).Clone()
	var rt http.RoundTripper = base
	if len(s.Headers) > 0 {
		rt = headerTransport{base: base, headers: s.Headers}
	}
	return &http.Client{Transport: rt}, base
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
