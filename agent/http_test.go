package agent

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gavelhq/gavel/judge"
	"github.com/google/go-cmp/cmp"
)

// Helpers shared by the tests of this package.

// testTimeout bounds each test's requests: a guard against a hang, not a
// performance target.
const testTimeout = time.Minute

func testContext(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), testTimeout)
	t.Cleanup(cancel)
	return ctx
}

func mustOpen(t *testing.T, a Agent, id string) Session {
	t.Helper()
	s, err := a.Open(testContext(t), id)
	if err != nil {
		t.Fatalf("Open(%q): %v", id, err)
	}
	return s
}

func mustSend(t *testing.T, s Session, text string) *Reply {
	t.Helper()
	r, err := s.Send(testContext(t), Message{Text: text})
	if err != nil {
		t.Fatalf("Send(%q): %v", text, err)
	}
	return r
}

func wantText(t *testing.T, s Session, text, want string) {
	t.Helper()
	if got := mustSend(t, s, text).Text; got != want {
		t.Errorf("reply to %q = %q, want %q", text, got, want)
	}
}

// checkTimeout checks that err is a timeout that says so, and came in
// bounded time.
func checkTimeout(t *testing.T, err error, start time.Time) {
	t.Helper()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error = %v, want a timeout", err)
	}
	if !strings.Contains(err.Error(), "timeout") {
		t.Errorf("error = %v, want it to say it timed out", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the timeout came after %v", d)
	}
}

// fakeAPI is an HTTP agent's API: it records the requests it gets and
// answers with answer.
type fakeAPI struct {
	answer func(w http.ResponseWriter, r *http.Request, body []byte)

	mu       sync.Mutex
	requests []recorded
}

type recorded struct {
	path   string
	header http.Header
	body   string
}

func (f *fakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	f.requests = append(f.requests, recorded{r.URL.Path, r.Header.Clone(), string(body)})
	f.mu.Unlock()
	f.answer(w, r, body)
}

// last returns the last request the API got.
func (f *fakeAPI) last(t *testing.T) recorded {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.requests) == 0 {
		t.Fatal("the API got no request")
	}
	return f.requests[len(f.requests)-1]
}

// serve starts an API that answers every request with status and body.
func serve(t *testing.T, status int, body string) (*httptest.Server, *fakeAPI) {
	t.Helper()
	return serveFunc(t, func(w http.ResponseWriter, _ *http.Request, _ []byte) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	})
}

func serveFunc(t *testing.T, answer func(http.ResponseWriter, *http.Request, []byte)) (*httptest.Server, *fakeAPI) {
	t.Helper()
	api := &fakeAPI{answer: answer}
	srv := httptest.NewServer(api)
	t.Cleanup(srv.Close)
	return srv, api
}

func mustNewHTTP(t *testing.T, c HTTPConfig) *HTTP {
	t.Helper()
	h, err := NewHTTP(c)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// sameJSON checks that got and want are the same JSON value.
func sameJSON(t *testing.T, what, got, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Fatalf("%s is not JSON: %v: %s", what, err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(w, g); diff != "" {
		t.Errorf("%s (-want +got):\n%s", what, diff)
	}
}

func TestHTTPDefaultFormat(t *testing.T) {
	srv, api := serve(t, http.StatusOK, `{
		"reply": "Done: a table for two at 8pm.",
		"tool_calls": [
			{"id": "c1", "name": "book_table", "arguments": {"people": 2, "time": "20:00"}, "result": "booked", "is_error": false},
			{"name": "notify", "arguments": "{\"to\": \"ann\"}", "result": {"sent": true}, "is_error": true}
		],
		"usage": {"input_tokens": 812, "output_tokens": 45, "cached_tokens": 800, "cost_usd": 0.0021}
	}`)
	h := mustNewHTTP(t, HTTPConfig{URL: srv.URL + "/chat"})
	s := mustOpen(t, h, "s-1")
	if _, ok := s.(Dispatcher); ok {
		t.Error("a session without an EventURL is a Dispatcher")
	}

	r, err := s.Send(testContext(t), Message{Text: "Book a table for two", Metadata: map[string]string{"locale": "en-GB"}})
	if err != nil {
		t.Fatal(err)
	}
	req := api.last(t)
	if req.path != "/chat" {
		t.Errorf("path = %q, want /chat", req.path)
	}
	if ct := req.header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type = %q, want application/json", ct)
	}
	sameJSON(t, "request body", req.body, `{"session_id": "s-1", "message": "Book a table for two", "metadata": {"locale": "en-GB"}}`)

	if r.Latency <= 0 {
		t.Errorf("latency = %v, want it measured", r.Latency)
	}
	r.Latency = 0
	want := &Reply{
		Text: "Done: a table for two at 8pm.",
		ToolCalls: []judge.ToolCall{
			{ID: "c1", Name: "book_table", Arguments: json.RawMessage(`{"people": 2, "time": "20:00"}`), Result: "booked"},
			{Name: "notify", Arguments: json.RawMessage(`{"to": "ann"}`), Result: `{"sent":true}`, IsError: true},
		},
		Usage: judge.Usage{InputTokens: 812, OutputTokens: 45, CachedTokens: 800, CostUSD: 0.0021},
	}
	if diff := cmp.Diff(want, r); diff != "" {
		t.Errorf("reply (-want +got):\n%s", diff)
	}

	mustSend(t, s, "no metadata")
	sameJSON(t, "request body", api.last(t).body, `{"session_id": "s-1", "message": "no metadata", "metadata": {}}`)
	if err := s.Close(testContext(t)); err != nil {
		t.Errorf("Close: %v", err)
	}
}

// An agent that reports the tokens it spent but not what they cost has
// an unknown cost: its usage is unpriced, never free.
func TestHTTPTokensWithoutCostAreUnpriced(t *testing.T) {
	for _, tc := range []struct {
		usage string
		want  judge.Usage
	}{
		{`{"input_tokens": 812, "output_tokens": 45}`, judge.Usage{InputTokens: 812, OutputTokens: 45, Unpriced: true}},
		{`{"input_tokens": 812, "output_tokens": 45, "cost_usd": 0}`, judge.Usage{InputTokens: 812, OutputTokens: 45}},
		{`{}`, judge.Usage{Unreported: true}},
	} {
		srv, _ := serve(t, http.StatusOK, `{"reply": "hi", "usage": `+tc.usage+`}`)
		r := mustSend(t, mustOpen(t, mustNewHTTP(t, HTTPConfig{URL: srv.URL}), "s"), "hello")
		if diff := cmp.Diff(tc.want, r.Usage); diff != "" {
			t.Errorf("usage %s (-want +got):\n%s", tc.usage, diff)
		}
	}
}

// An agent that says nothing of its tokens spent what nobody knows: its
// usage is unreported, never zero; one that says it spent 0 tokens spent
// 0.
func TestHTTPUsageNotReportedIsUnknown(t *testing.T) {
	for _, tc := range []struct {
		name, reply string
		want        judge.Usage
	}{
		{"no usage", `{"reply": "hi"}`, judge.Usage{Unreported: true}},
		{"an empty usage", `{"reply": "hi", "usage": {}}`, judge.Usage{Unreported: true}},
		{"null tokens", `{"reply": "hi", "usage": {"input_tokens": null, "output_tokens": null}}`, judge.Usage{Unreported: true}},
		{"a cost alone", `{"reply": "hi", "usage": {"cost_usd": 0.01}}`, judge.Usage{CostUSD: 0.01, Unreported: true}},
		{"zero tokens", `{"reply": "hi", "usage": {"input_tokens": 0, "output_tokens": 0}}`, judge.Usage{}},
		{"output tokens alone", `{"reply": "hi", "usage": {"output_tokens": 3, "cost_usd": 0}}`, judge.Usage{OutputTokens: 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, _ := serve(t, http.StatusOK, tc.reply)
			r := mustSend(t, mustOpen(t, mustNewHTTP(t, HTTPConfig{URL: srv.URL}), "s"), "hello")
			if diff := cmp.Diff(tc.want, r.Usage); diff != "" {
				t.Errorf("usage (-want +got):\n%s", diff)
			}
		})
	}
}

func TestHTTPReplyWithTextOnly(t *testing.T) {
	srv, _ := serve(t, http.StatusOK, `{"reply": "hi", "tool_calls": null}`)
	s := mustOpen(t, mustNewHTTP(t, HTTPConfig{URL: srv.URL}), "s")
	r := mustSend(t, s, "hello")
	r.Latency = 0
	if diff := cmp.Diff(&Reply{Text: "hi", Usage: judge.Usage{Unreported: true}}, r); diff != "" {
		t.Errorf("reply (-want +got):\n%s", diff)
	}
}

func TestHTTPExistingAPI(t *testing.T) {
	srv, api := serve(t, http.StatusOK, `{
		"output": [{"role": "assistant", "content": "Bonjour"}],
		"trace": {"calls": [{"name": "translate", "arguments": {"to": "fr"}, "result": "Bonjour"}]},
		"meta": {"tokens": {"in": 7, "out": 2}}
	}`)
	h := mustNewHTTP(t, HTTPConfig{
		URL:     srv.URL + "/v1/conversations",
		Request: `{"conversation_id": {{json .SessionID}}, "input": {{json .Message}}, "user": {{json .Metadata.user_id}}, "tags": {{json .Metadata}}}`,
		Reply: ReplyMapping{
			Text:         "/output/0/content",
			ToolCalls:    "/trace/calls",
			InputTokens:  "/meta/tokens/in",
			OutputTokens: "/meta/tokens/out",
		},
	})
	s := mustOpen(t, h, "conv-9")
	r, err := s.Send(testContext(t), Message{Text: "Say \"hello\"\nin French <fr>", Metadata: map[string]string{"user_id": "u7"}})
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, "request body", api.last(t).body,
		`{"conversation_id": "conv-9", "input": "Say \"hello\"\nin French <fr>", "user": "u7", "tags": {"user_id": "u7"}}`)
	if !strings.Contains(api.last(t).body, "<fr>") {
		t.Errorf("body = %s, want <fr> as it is", api.last(t).body)
	}
	r.Latency = 0
	want := &Reply{
		Text:      "Bonjour",
		ToolCalls: []judge.ToolCall{{Name: "translate", Arguments: json.RawMessage(`{"to": "fr"}`), Result: "Bonjour"}},
		Usage:     judge.Usage{InputTokens: 7, OutputTokens: 2, Unpriced: true}, // no cost reported
	}
	if diff := cmp.Diff(want, r); diff != "" {
		t.Errorf("reply (-want +got):\n%s", diff)
	}

	// A metadata key the message lacks renders as "".
	mustSend(t, s, "no user")
	sameJSON(t, "request body", api.last(t).body, `{"conversation_id": "conv-9", "input": "no user", "user": "", "tags": {}}`)
}

func TestHTTPHeaders(t *testing.T) {
	srv, api := serve(t, http.StatusOK, `{"reply": "ok"}`)
	env := map[string]string{"GAVEL_TEST_TOKEN": "tok-123"}
	c := HTTPConfig{
		URL: srv.URL,
		Headers: map[string]string{
			"Authorization": "Bearer ${GAVEL_TEST_TOKEN}",
			"x-api-key":     "static-secret-value",
			"X-Price":       "$5, {not a variable}",
		},
		Getenv: func(k string) string { return env[k] },
	}
	h := mustNewHTTP(t, c)
	s := mustOpen(t, h, "s")
	mustSend(t, s, "hello")
	for name, want := range map[string]string{
		"Authorization": "Bearer tok-123",
		"X-Api-Key":     "static-secret-value",
		"X-Price":       "$5, {not a variable}",
	} {
		if got := api.last(t).header.Get(name); got != want {
			t.Errorf("header %s = %q, want %q", name, got, want)
		}
	}

	// Variables are expanded at each request.
	env["GAVEL_TEST_TOKEN"] = "tok-456"
	mustSend(t, s, "hello")
	if got, want := api.last(t).header.Get("Authorization"), "Bearer tok-456"; got != want {
		t.Errorf("after rotation, Authorization = %q, want %q", got, want)
	}

	secrets := []string{"tok-", "static-secret-value"}
	noSecret := func(what, s string) {
		t.Helper()
		for _, secret := range secrets {
			if strings.Contains(s, secret) {
				t.Errorf("%s = %q, want it without the header values", what, s)
			}
		}
	}
	noSecret("String()", h.String())
	noSecret("HTTPConfig.String()", c.String())

	delete(env, "GAVEL_TEST_TOKEN")
	_, err := h.Open(testContext(t), "s2")
	if err == nil || !strings.Contains(err.Error(), "${GAVEL_TEST_TOKEN}") || !strings.Contains(err.Error(), "not set") {
		t.Errorf("Open with the variable unset: error = %v, want one naming GAVEL_TEST_TOKEN", err)
	} else {
		noSecret("the error", err.Error())
	}
	_, err = s.Send(testContext(t), Message{Text: "hello"})
	if err == nil || !strings.Contains(err.Error(), "${GAVEL_TEST_TOKEN}") {
		t.Errorf("Send with the variable unset: error = %v, want one naming GAVEL_TEST_TOKEN", err)
	} else {
		noSecret("the error", err.Error())
	}

	env["GAVEL_TEST_TOKEN"] = "tok-789\r\nX-Injected: 1"
	_, err = s.Send(testContext(t), Message{Text: "hello"})
	if err == nil || !strings.Contains(err.Error(), "line break") {
		t.Errorf("Send with a line break in the variable: error = %v, want one refusing it", err)
	} else {
		noSecret("the error", err.Error())
	}
}

func TestHTTPErrorStatus(t *testing.T) {
	body := `{"error": "overloaded"}` + strings.Repeat(" overloaded", 200)
	srv, _ := serve(t, http.StatusServiceUnavailable, body)
	h := mustNewHTTP(t, HTTPConfig{URL: srv.URL, Headers: map[string]string{"Authorization": "Bearer hidden-value"}})
	_, err := mustOpen(t, h, "s").Send(testContext(t), Message{Text: "hello"})
	if err == nil {
		t.Fatal("a 503 gave a reply")
	}
	msg := err.Error()
	for _, want := range []string{"503 Service Unavailable", `{\"error\": \"overloaded\"}`, srv.URL} {
		if !strings.Contains(msg, want) {
			t.Errorf("error = %v\nwant it to contain %q", err, want)
		}
	}
	if strings.Count(msg, "overloaded") > 500/len(" overloaded")+1 {
		t.Errorf("error = %v\nwant at most 500 bytes of the body", err)
	}
	if strings.Contains(msg, "hidden-value") {
		t.Errorf("error = %v, want it without the header's value", err)
	}
}

func TestHTTPBadReply(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		wantErr    []string
	}{
		{"not JSON", `<html>oops</html>`, []string{"not JSON", "<html>oops</html>"}},
		{"truncated", `{"reply": "hel`, []string{"not JSON", `{\"reply\": \"hel`}},
		{"no text", `{"answer": "hello"}`, []string{"no text at /reply", `{\"answer\": \"hello\"}`}},
		{"text not a string", `{"reply": 42}`, []string{"/reply is a number, want a string"}},
		{"text null", `{"reply": null}`, []string{"/reply is null, want a string"}},
		{"tool calls not an array", `{"reply": "x", "tool_calls": {"name": "a"}}`, []string{"tool calls at /tool_calls", "want an array"}},
		{"tool call without name", `{"reply": "x", "tool_calls": [{"arguments": {}}]}`, []string{"call 0 has no name"}},
		{"tokens not an integer", `{"reply": "x", "usage": {"input_tokens": "many"}}`, []string{"/usage/input_tokens", "want a count of at least 0"}},
		{"negative tokens", `{"reply": "x", "usage": {"output_tokens": -1999150}}`, []string{"/usage/output_tokens is -1999150, want a count of at least 0"}},
		{"2^63-1 tokens", `{"reply": "x", "usage": {"input_tokens": 9223372036854775807}}`, []string{"/usage/input_tokens is 9223372036854775807, more than the 1,000,000,000,000 tokens a call or a reply can count"}},
		{"tokens beyond int64", `{"reply": "x", "usage": {"cached_tokens": 99999999999999999999}}`, []string{"/usage/cached_tokens is 99999999999999999999, more than"}},
		{"negative cost", `{"reply": "x", "usage": {"cost_usd": -0.5}}`, []string{"/usage/cost_usd is -0.5, want an amount of at least 0"}},
		{"a cost no reply can have", `{"reply": "x", "usage": {"cost_usd": 1e300}}`, []string{"/usage/cost_usd is 1e300, more than the $1,000,000,000 a call or a reply can cost"}},
		{"text an object", `{"reply": {"text": "hi"}}`, []string{"/reply is an object, want a string"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, _ := serve(t, http.StatusOK, tc.body)
			_, err := mustOpen(t, mustNewHTTP(t, HTTPConfig{URL: srv.URL}), "s").Send(testContext(t), Message{Text: "hello"})
			if err == nil {
				t.Fatal("got a reply")
			}
			for _, want := range tc.wantErr {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error = %v\nwant it to contain %q", err, want)
				}
			}
		})
	}
}

// An answer is read up to 16 MiB: a longer one is an error that says so,
// and what is past the cap is never read.
func TestHTTPOversizedReply(t *testing.T) {
	const size = 256 << 20
	srv, _ := serveFunc(t, func(w http.ResponseWriter, _ *http.Request, _ []byte) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"reply": "`)
		chunk := []byte(strings.Repeat("a", 64<<10))
		for written := 0; written < size; written += len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return // the client stopped reading
			}
		}
		io.WriteString(w, `"}`)
	})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := mustOpen(t, mustNewHTTP(t, HTTPConfig{URL: srv.URL}), "s").Send(testContext(t), Message{Text: "hello"})
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "the answer is larger than 16 MiB") {
		t.Errorf("error = %v, want one saying the answer is larger than 16 MiB", err)
	}
	if allocated := after.TotalAlloc - before.TotalAlloc; allocated >= 128<<20 {
		t.Errorf("reading it allocated %d MiB, want well under the answer's 256 MiB", allocated>>20)
	}
}

func TestHTTPTimeout(t *testing.T) {
	release := make(chan struct{})
	srv, _ := serveFunc(t, func(w http.ResponseWriter, r *http.Request, _ []byte) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	defer close(release) // before the server closes: it waits for its handlers
	h := mustNewHTTP(t, HTTPConfig{URL: srv.URL, Timeout: 200 * time.Millisecond})
	start := time.Now()
	_, err := mustOpen(t, h, "s").Send(testContext(t), Message{Text: "hello"})
	checkTimeout(t, err, start)

	// The caller's context ending is not a timeout of the agent.
	ctx, cancel := context.WithCancel(testContext(t))
	time.AfterFunc(50*time.Millisecond, cancel)
	_, err = mustOpen(t, h, "s").Send(ctx, Message{Text: "hello"})
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "interrupted") {
		t.Errorf("error = %v, want an interruption", err)
	}
}

func TestHTTPUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	_, err := mustOpen(t, mustNewHTTP(t, HTTPConfig{URL: url}), "s").Send(testContext(t), Message{Text: "hello"})
	if err == nil || !strings.Contains(err.Error(), url) || strings.Count(err.Error(), url) > 1 {
		t.Errorf("error = %v, want one naming %s once", err, url)
	}
}

func TestHTTPEvents(t *testing.T) {
	srv, api := serveFunc(t, func(w http.ResponseWriter, r *http.Request, _ []byte) {
		if r.URL.Path == "/events" {
			io.WriteString(w, `{"reply": "reminder noted", "usage": {"output_tokens": 3}}`)
			return
		}
		io.WriteString(w, `{"reply": "message"}`)
	})
	for _, tc := range []struct {
		name, template, want string
	}{
		{"default", "", `{"session_id": "s-1", "event": {"name": "reminder_due", "payload": {"id": 7}}}`},
		{"template", `{"thread": {{json .SessionID}}, "trigger": {{json .Event.Name}}, "data": {{json .Event.Payload}}}`,
			`{"thread": "s-1", "trigger": "reminder_due", "data": {"id": 7}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := mustNewHTTP(t, HTTPConfig{URL: srv.URL + "/chat", EventURL: srv.URL + "/events", EventRequest: tc.template})
			s := mustOpen(t, h, "s-1")
			d, ok := s.(Dispatcher)
			if !ok {
				t.Fatalf("%T is not a Dispatcher", s)
			}
			r, err := d.Dispatch(testContext(t), Event{Name: "reminder_due", Payload: json.RawMessage(`{"id": 7}`)})
			if err != nil {
				t.Fatal(err)
			}
			if r.Text != "reminder noted" || r.Usage.OutputTokens != 3 {
				t.Errorf("reply = %+v, want the event's reply", r)
			}
			if p := api.last(t).path; p != "/events" {
				t.Errorf("path = %q, want /events", p)
			}
			sameJSON(t, "event body", api.last(t).body, tc.want)
			wantText(t, s, "hello", "message")
		})
	}

	h := mustNewHTTP(t, HTTPConfig{URL: srv.URL, EventURL: srv.URL + "/events"})
	d := mustOpen(t, h, "s-1").(Dispatcher)
	if _, err := d.Dispatch(testContext(t), Event{Name: "tick"}); err != nil {
		t.Fatal(err)
	}
	sameJSON(t, "event body", api.last(t).body, `{"session_id": "s-1", "event": {"name": "tick", "payload": null}}`)
	if _, err := d.Dispatch(testContext(t), Event{Name: "bad", Payload: json.RawMessage(`{`)}); err == nil {
		t.Error("an invalid payload was sent")
	}
}

func TestNewHTTPErrors(t *testing.T) {
	const url = "http://127.0.0.1:1/chat"
	for _, tc := range []struct {
		name    string
		config  HTTPConfig
		wantErr string
	}{
		{"no URL", HTTPConfig{}, "no URL given"},
		{"not http", HTTPConfig{URL: "ftp://example.com/agent"}, "not an http or https URL"},
		{"relative URL", HTTPConfig{URL: "/chat"}, "not an http or https URL"},
		{"no host", HTTPConfig{URL: "http:///chat"}, "has no host"},
		{"bad event URL", HTTPConfig{URL: url, EventURL: "events"}, "EventURL"},
		{"event template without URL", HTTPConfig{URL: url, EventRequest: `{}`}, "EventURL is not"},
		{"negative timeout", HTTPConfig{URL: url, Timeout: -time.Second}, "negative timeout"},
		{"pointer without slash", HTTPConfig{URL: url, Reply: ReplyMapping{Text: "reply"}}, `Text: invalid JSON pointer "reply"`},
		{"bad escape", HTTPConfig{URL: url, Reply: ReplyMapping{ToolCalls: "/a~2b"}}, `ToolCalls: invalid JSON pointer "/a~2b"`},
		{"template syntax", HTTPConfig{URL: url, Request: `{"input": {{json .Message}`}, "Request template"},
		{"template unknown field", HTTPConfig{URL: url, Request: `{"input": {{json .Text}}}`}, "can't evaluate field Text"},
		{"template unquoted", HTTPConfig{URL: url, Request: `{"input": "{{.Message}}"}`}, "renders invalid JSON"},
		{"event template unquoted", HTTPConfig{URL: url, EventURL: url, EventRequest: `{"name": "{{.Event.Name}}"}`}, "EventRequest template"},
		{"header name", HTTPConfig{URL: url, Headers: map[string]string{"Bad Name": "x"}}, `"Bad Name" is not a valid`},
		{"unclosed variable", HTTPConfig{URL: url, Headers: map[string]string{"Authorization": "Bearer ${TOKEN"}}, "no closing }"},
		{"bad variable", HTTPConfig{URL: url, Headers: map[string]string{"Authorization": "Bearer ${1TOKEN}"}}, "${1TOKEN} is not a variable name"},
		{"line break", HTTPConfig{URL: url, Headers: map[string]string{"X-A": "a\r\nX-B: b"}}, "line break"},
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

func TestHTTPString(t *testing.T) {
	h := mustNewHTTP(t, HTTPConfig{URL: "https://bot:pa55word@agent.example.com/chat", Headers: map[string]string{"X-Key": "k-secret"}})
	for _, s := range []string{h.String(), HTTPConfig{URL: "https://bot:pa55word@agent.example.com/chat", Headers: map[string]string{"X-Key": "k-secret"}}.String()} {
		if strings.Contains(s, "pa55word") || strings.Contains(s, "k-secret") {
			t.Errorf("String() = %q, want no password and no header value", s)
		}
		if !strings.Contains(s, "agent.example.com/chat") {
			t.Errorf("String() = %q, want the URL", s)
		}
	}
}

func TestJSONPointer(t *testing.T) {
	// The example of RFC 6901, section 5.
	doc := []byte(`{"foo": ["bar", "baz"], "": 0, "a/b": 1, "c%d": 2, "e^f": 3, "g|h": 4, "i\\j": 5, "k\"l": 6, " ": 7, "m~n": 8}`)
	for _, tc := range []struct {
		pointer string
		want    string // "" when it points to nothing
	}{
		{"", string(doc)},
		{"/foo", `["bar", "baz"]`},
		{"/foo/0", `"bar"`},
		{"/", `0`},
		{"/a~1b", `1`},
		{"/c%d", `2`},
		{"/e^f", `3`},
		{"/g|h", `4`},
		{`/i\j`, `5`},
		{`/k"l`, `6`},
		{"/ ", `7`},
		{"/m~0n", `8`},
		{"/foo/2", ""},
		{"/foo/-", ""},
		{"/foo/01", ""},
		{"/foo/0/x", ""},
		{"/nope", ""},
	} {
		t.Run(tc.pointer, func(t *testing.T) {
			p, err := parsePointer(tc.pointer)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := p.find(doc)
			if tc.want == "" {
				if ok {
					t.Errorf("find = %s, want nothing", got)
				}
				return
			}
			if !ok || string(got) != tc.want {
				t.Errorf("find = %s, %v, want %s", got, ok, tc.want)
			}
		})
	}
}
