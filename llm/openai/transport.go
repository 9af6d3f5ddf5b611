package openai

import (
	"net"
	"net/http"
	"time"
)

// maxIdlePerHost is how many idle connections the default client keeps to
// each server: more than a run has calls in flight, so that every call
// finds a connection open.
const maxIdlePerHost = 256

// defaultClient sends the requests of every Model given no HTTPClient.
// http.DefaultClient keeps two idle connections per host: 64 calls at once
// to one server then closed 62 connections after every wave of answers
// and opened 62 new ones for the next (in bench/, 1000 cases at 50 ms and
// concurrency 16, that was about a quarter of gavel's CPU time). One
// shared pool also lets the agent's and the judge's models reuse each
// other's connections.
var defaultClient = &http.Client{Transport: newTransport()}

// newTransport returns http.DefaultTransport's settings (proxy from the
// environment, HTTP/2, timeouts) with room for maxIdlePerHost idle
// connections per host.
func newTransport() *http.Transport {
	t, ok := http.DefaultTransport.(*http.Transport)
	if !ok { // replaced by the program: start from the standard settings
		t = &http.Transport{
			Proxy:                 http.ProxyFromEnvironment,
			DialContext:           (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
			ForceAttemptHTTP2:     true,
			IdleConnTimeout:       90 * time.Second,
			TLSHandshakeTimeout:   10 * time.Second,
			ExpectContinueTimeout: time.Second,
		}
	} else {
		t = t.Clone()
	}
	t.MaxIdleConns = 0 // no cap over all hosts
	t.MaxIdleConnsPerHost = maxIdlePerHost
	return t
}
