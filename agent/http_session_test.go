package agent

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// The open and close requests go where their templates say, with the
// agent's headers and their own, and the bodies they are given or the
// default one; a method without a body by default sends none.
func TestHTTPOpenAndClose(t *testing.T) {
	var lastURI atomic.Value // the request's path and query, as sent
	srv, api := serveFunc(t, func(w http.ResponseWriter, r *http.Request, _ []byte) {
		lastURI.Store(r.RequestURI)
	})
	env := map[string]string{"TOKEN": "secret", "TENANT": "acme"}
	h := mustNewHTTP(t, HTTPConfig{
		URL:     srv.URL + "/v1/chat",
		Headers: map[string]string{"Authorization": "Bearer ${TOKEN}", "X-Kind": "agent"},
		Open: &HTTPRequest{URL: "sessions", Headers: map[string]string{"X-Kind": "open", "X-Tenant": "${TENANT}"},
			Body: `{"id": {{json .SessionID}}, "resume": true}`},
		Close:  &HTTPRequest{Method: http.MethodDelete, URL: srv.URL + "/v1/sessions/{{path .SessionID}}"},
		Getenv: func(k string) string { return env[k] },
	})
	s, err := h.Open(testContext(t), `a/b "c"`)
	if err != nil {
		t.Fatal(err)
	}
	open := api.last(t)
	if open.path != "/v1/sessions" || open.header.Get("Authorization") != "Bearer secret" ||
		open.header.Get("X-Kind") != "open" || open.header.Get("X-Tenant") != "acme" {
		t.Errorf("open request: %s with headers %v", open.path, open.header)
	}
	sameJSON(t, "open body", open.body, `{"id": "a/b \"c\"", "resume": true}`)

	if err := s.Close(testContext(t)); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(testContext(t)); err != nil { // a second close sends nothing
		t.Fatal(err)
	}
	api.mu.Lock()
	n := len(api.requests)
	api.mu.Unlock()
	closeReq := api.last(t)
	if n != 2 || lastURI.Load() != "/v1/sessions/a%2Fb%20%22c%22" || closeReq.body != "" || closeReq.header.Get("X-Kind") != "agent" {
		t.Errorf("%d requests, the last %s with body %q and headers %v: want a DELETE of the session, once, without a body",
			n, lastURI.Load(), closeReq.body, closeReq.header)
	}
}

// The default body of a POST names the session.
func TestHTTPCloseDefaultBody(t *testing.T) {
	srv, api := serve(t, 204, "")
	h := mustNewHTTP(t, HTTPConfig{URL: srv.URL + "/chat", Close: &HTTPRequest{URL: "/close"}})
	s := mustOpen(t, h, "s-1")
	if err := s.Close(testContext(t)); err != nil {
		t.Fatal(err)
	}
	got := api.last(t)
	if got.path != "/close" || got.header.Get("Content-Type") != "application/json" {
		t.Errorf("close request %s, Content-Type %q", got.path, got.header.Get("Content-Type"))
	}
	sameJSON(t, "close body", got.body, `{"session_id": "s-1"}`)
}

// An open or close request answered with a status other than 2xx, or not
// answered, is an error that says which request of which session failed.
func TestHTTPSessionRequestErrors(t *testing.T) {
	srv, _ := serve(t, http.StatusConflict, `{"error": "already open"}`)
	h := mustNewHTTP(t, HTTPConfig{URL: srv.URL + "/chat", Open: &HTTPRequest{URL: "/open"}})
	_, err := h.Open(testContext(t), "s-1")
	want := `http agent POST ` + srv.URL + `/open (open request of session "s-1") answered 409 Conflict: "{\"error\": \"already open\"}"`
	if err == nil || err.Error() != want {
		t.Errorf("error\n%v\nwant\n%s", err, want)
	}

	h = mustNewHTTP(t, HTTPConfig{URL: "http://127.0.0.1:1/chat", Close: &HTTPRequest{URL: "/close"}})
	s := mustOpen(t, h, "s-2")
	if err := s.Close(testContext(t)); err == nil || !strings.Contains(err.Error(), `(close request of session "s-2")`) {
		t.Errorf("close on an unreachable agent: %v", err)
	}

	h = mustNewHTTP(t, HTTPConfig{URL: srv.URL + "/chat", Headers: map[string]string{"Authorization": "${TOKEN}"},
		Close: &HTTPRequest{URL: "/close"}, Getenv: func(string) string { return "" }})
	s = &httpSession{h: h, id: "s-3"}
	if err := s.Close(context.Background()); err == nil || !strings.Contains(err.Error(), "uses ${TOKEN}, which is not set") {
		t.Errorf("close with an unset variable: %v", err)
	}
}

func TestHTTPSessionRequestConfigErrors(t *testing.T) {
	const url = "http://127.0.0.1:1/chat"
	for _, tc := range []struct {
		name    string
		config  HTTPConfig
		wantErr string
	}{
		{"no URL", HTTPConfig{URL: url, Close: &HTTPRequest{}}, "close request: no URL given"},
		{"bad method", HTTPConfig{URL: url, Open: &HTTPRequest{Method: "GO AWAY", URL: "/open"}}, `open request: method "GO AWAY"`},
		{"URL template", HTTPConfig{URL: url, Close: &HTTPRequest{URL: "/s/{{.SessionID"}}, "close request: URL template"},
		{"URL field", HTTPConfig{URL: url, Close: &HTTPRequest{URL: "/s/{{.ID}}"}}, "can't evaluate field ID"},
		{"URL scheme", HTTPConfig{URL: url, Close: &HTTPRequest{URL: "ftp://h/close"}}, "not an http or https URL"},
		{"body unquoted", HTTPConfig{URL: url, Close: &HTTPRequest{URL: "/close", Body: `{"id": "{{.SessionID}}"}`}}, "renders invalid JSON"},
		{"header", HTTPConfig{URL: url, Open: &HTTPRequest{URL: "/open", Headers: map[string]string{"X": "${"}}}, "no closing }"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, err := NewHTTP(tc.config)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("error = %v, want one containing %q", err, tc.wantErr)
			}
			if h != nil {
				t.Error("got an agent with the error")
			}
		})
	}
}

// Each adapter says how its sessions are revived, or why they cannot be.
func TestRevival(t *testing.T) {
	const url = "http://127.0.0.1:1/chat"
	httpAgent := func(c HTTPConfig) Agent { c.URL = url; return mustNewHTTP(t, c) }
	for _, tc := range []struct {
		name    string
		agent   Agent
		how     string
		wantErr string
	}{
		{"http without close", httpAgent(HTTPConfig{}), "", "http agent " + url + " cannot be revived: closing a session sends it nothing"},
		{"http with close", httpAgent(HTTPConfig{Close: &HTTPRequest{URL: "/close"}}), "session closed by the close request and reopened", ""},
		{"http with open and close", httpAgent(HTTPConfig{Open: &HTTPRequest{URL: "/o"}, Close: &HTTPRequest{URL: "/c"}}),
			"session closed and reopened by the close and open requests", ""},
		{"recorded http", Recorded(httpAgent(HTTPConfig{}), nil), "", "http agent " + url + " cannot be revived"},
		{"func", Func(nil), "", "an agent.Func cannot be revived"},
		{"exec shared", &Exec{}, "session closed and reopened in the same process (shared mode)", ""},
		{"exec per session", &Exec{perSession: true}, "session closed and reopened in a new process", ""},
		{"builtin", &Builtin{}, "session closed and reopened from its checkpoint", ""},
		{"any other agent", struct{ Agent }{}, "session closed and reopened", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			how, err := Revival(tc.agent)
			if tc.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.wantErr) {
					t.Errorf("error = %v, want one starting with %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || how != tc.how {
				t.Errorf("Revival() = %q, %v; want %q", how, err, tc.how)
			}
		})
	}
}
