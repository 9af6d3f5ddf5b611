package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"os"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"text/template"
	"time"
	"unicode/utf8"

	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/secret"
)

const (
	defaultHTTPTimeout = 2 * time.Minute
	// maxHTTPReply bounds the body of an agent's answer.
	maxHTTPReply = 16 << 20
)

// HTTPConfig configures NewHTTP.
type HTTPConfig struct {
	// URL is where messages are sent, as POST requests. It must be an
	// http or https URL.
	URL string
	// EventURL, if set, is where events are sent, as POST requests; the
	// sessions of the agent are then Dispatchers. Without it they are
	// not, and a case with an event step cannot run on the agent.
	EventURL string
	// Headers are added to every request. A value may reference
	// environment variables as ${NAME}, expanded with Getenv when each
	// request is sent, so that a key stays out of the configuration: a
	// "$" not followed by "{" is kept as it is. Open fails, naming the
	// variable, when one is unset or empty. Header values never appear in
	// errors or in String.
	Headers map[string]string
	// Request, if set, is a Go text/template that renders the JSON body of
	// a message request in place of the default one, so that an existing
	// API fits without code. Its data has the fields .SessionID, .Message
	// (the text) and .Metadata (a map[string]string, where a missing key
	// renders as ""), and the function json, which encodes a value as
	// JSON, quotes and escapes included:
	//
	//	{"conversation_id": {{json .SessionID}}, "input": {{json .Message}}}
	Request string
	// EventRequest, if set, is a template for the JSON body of an event
	// request, with the fields .SessionID and .Event (.Event.Name,
	// .Event.Payload) and the function json.
	EventRequest string
	// Open, if set, is the request sent when a session opens: at the
	// start of a conversation, and to revive a session.
	Open *HTTPRequest
	// Close, if set, is the request sent when a session closes: at the end
	// of a conversation, and to revive a session. Without it, closing a
	// session sends nothing, and the agent cannot be revived (see
	// Reviver) unless it is restarted (WithRestart).
	Close *HTTPRequest
	// Reply says where the parts of the reply are in the JSON the agent
	// answers with. Defaults to the default wire format (see HTTP).
	Reply ReplyMapping
	// Timeout bounds each request, from sending it to reading the whole
	// answer. Defaults to 2 minutes.
	Timeout time.Duration
	// Getenv looks up the variables of Headers. Defaults to os.Getenv.
	Getenv func(string) string
	// Client sends the requests. Defaults to http.DefaultClient.
	Client *http.Client
}

// String describes c without the values of its headers.
func (c HTTPConfig) String() string {
	names := make([]string, 0, len(c.Headers))
	for name := range c.Headers {
		names = append(names, name)
	}
	sort.Strings(names)
	s := "HTTPConfig{URL: " + secret.Address(c.URL)
	if c.EventURL != "" {
		s += ", EventURL: " + secret.Address(c.EventURL)
	}
	if len(names) > 0 {
		s += ", Headers: " + strings.Join(names, ", ") + " (values hidden)"
	}
	return s + "}"
}

// HTTP is an agent behind an HTTP API. Gavel keeps no state for it: the
// agent keeps each conversation by the session id it receives, so that
// opening the same id again continues it. Opening and closing a session
// send the open and close requests, when they are configured, and nothing
// otherwise; an HTTP agent without a close request is never told that a
// session closed, so its sessions cannot be revived.
//
// # Wire format
//
// By default, a message is sent as a POST to URL with the body
//
//	{"session_id": "s-1", "message": "Book a table for two", "metadata": {"locale": "en-GB"}}
//
// (metadata is {} when the message has none), and the agent answers with
// a 2xx status and
//
//	{
//	  "reply": "Done: a table for two at 8pm.",
//	  "tool_calls": [
//	    {"name": "book_table", "arguments": {"people": 2}, "result": "booked", "is_error": false}
//	  ],
//	  "usage": {"input_tokens": 812, "output_tokens": 45}
//	}
//
// where only "reply" is required. An event is sent as a POST to EventURL
// with the body
//
//	{"session_id": "s-1", "event": {"name": "reminder_due", "payload": {"id": 7}}}
//
// (payload is null when the event has none) and is answered like a
// message. HTTPConfig.Request and HTTPConfig.EventRequest replace the
// bodies, and HTTPConfig.Reply says where to read the answer's parts.
//
// # Errors
//
// An answer with a status other than 2xx is an error giving the status and
// the start of the body (at most 500 bytes); so is an answer that is not
// JSON, or has no text where the mapping points. An open or close request
// fails the same way on a status other than 2xx; the body of a 2xx answer
// to it is ignored. An agent that does not answer within the timeout
// gives an error that says so and wraps context.DeadlineExceeded.
type HTTP struct {
	url, eventURL  string
	headers        []httpHeader
	request, event *template.Template // nil: the default body
	open, close    *sessionRequest    // nil: nothing is sent
	reply          replyReader
	timeout        time.Duration
	getenv         func(string) string
	client         *http.Client
}

// NewHTTP returns the agent c describes. It checks everything it can
// before any request: the URLs, the header names and their ${NAME}
// references, the reply mapping's JSON pointers, and the templates, which
// must render valid JSON for a sample message with quotes and line breaks
// in it.
func NewHTTP(c HTTPConfig) (*HTTP, error) {
	h := &HTTP{timeout: c.Timeout, getenv: c.Getenv, client: c.Client}
	if err := checkHTTPURL(c.URL); err != nil {
		return nil, fmt.Errorf("http agent: URL: %w", err)
	}
	h.url = c.URL
	if c.EventURL != "" {
		if err := checkHTTPURL(c.EventURL); err != nil {
			return nil, fmt.Errorf("http agent %s: EventURL: %w", secret.Address(c.URL), err)
		}
		h.eventURL = c.EventURL
	} else if c.EventRequest != "" {
		return nil, fmt.Errorf("http agent %s: EventRequest is set but EventURL is not", secret.Address(c.URL))
	}
	fail := func(err error) (*HTTP, error) {
		return nil, fmt.Errorf("http agent %s: %w", secret.Address(c.URL), err)
	}
	switch {
	case c.Timeout < 0:
		return fail(fmt.Errorf("negative timeout %v", c.Timeout))
	case c.Timeout == 0:
		h.timeout = defaultHTTPTimeout
	}
	if h.getenv == nil {
		h.getenv = os.Getenv
	}
	if h.client == nil {
		h.client = http.DefaultClient
	}

	var err error
	if h.headers, err = parseHeaders(c.Headers); err != nil {
		return fail(err)
	}
	if h.reply, err = c.Reply.compile(defaultTextPointer); err != nil {
		return fail(err)
	}
	if c.Request != "" {
		if h.request, err = parseBodyTemplate("Request", c.Request, sampleMessageData, ".SessionID, .Message and .Metadata"); err != nil {
			return fail(err)
		}
	}
	if c.EventRequest != "" {
		if h.event, err = parseBodyTemplate("EventRequest", c.EventRequest, sampleEventData, ".SessionID and .Event, with .Event.Name and .Event.Payload"); err != nil {
			return fail(err)
		}
	}
	if c.Open != nil {
		if h.open, err = compileSessionRequest("open", *c.Open, c.URL); err != nil {
			return fail(err)
		}
	}
	if c.Close != nil {
		if h.close, err = compileSessionRequest("close", *c.Close, c.URL); err != nil {
			return fail(err)
		}
	}
	return h, nil
}

// String describes the agent by its URL, without a password the URL may
// hold, and never with its headers.
func (h *HTTP) String() string { return "http agent " + secret.Address(h.url) }

// Open returns a session bound to sessionID, after sending the open
// request if there is one. It fails when a header references an
// environment variable that is unset or empty, and when the open request
// fails.
func (h *HTTP) Open(ctx context.Context, sessionID string) (Session, error) {
	if _, err := h.expandHeaders(); err != nil {
		return nil, fmt.Errorf("%s: %w", h, err)
	}
	if h.open != nil {
		if err := h.send(ctx, h.open, sessionID); err != nil {
			return nil, err
		}
	}
	s := &httpSession{h: h, id: sessionID}
	if h.eventURL != "" {
		return &httpDispatchSession{s}, nil
	}
	return s, nil
}

// httpSession is a session of an HTTP agent without an event URL.
type httpSession struct {
	h      *HTTP
	id     string
	closed atomic.Bool
}

// Send posts msg to the agent's URL.
func (s *httpSession) Send(ctx context.Context, msg Message) (*Reply, error) {
	metadata := msg.Metadata
	if metadata == nil {
		metadata = map[string]string{}
	}
	data := messageData{SessionID: s.id, Message: msg.Text, Metadata: metadata}
	var body []byte
	var err error
	if s.h.request != nil {
		body, err = renderBody(s.h.request, data)
	} else {
		body, err = json.Marshal(httpMessageBody(data))
	}
	if err != nil {
		return nil, fmt.Errorf("%s: message body: %w", s.h, err)
	}
	return s.h.post(ctx, s.h.url, body)
}

// Close sends the close request, if there is one, once.
func (s *httpSession) Close(ctx context.Context) error {
	if s.closed.Swap(true) || s.h.close == nil {
		return nil
	}
	return s.h.send(ctx, s.h.close, s.id)
}

// httpDispatchSession is a session of an HTTP agent with an event URL.
type httpDispatchSession struct{ *httpSession }

// Dispatch posts e to the agent's event URL.
func (s *httpDispatchSession) Dispatch(ctx context.Context, e Event) (*Reply, error) {
	if len(e.Payload) > 0 && !json.Valid(e.Payload) {
		return nil, fmt.Errorf("%s: event %q: the payload is not valid JSON", s.h, e.Name)
	}
	data := eventData{SessionID: s.id, Event: e}
	var body []byte
	var err error
	if s.h.event != nil {
		body, err = renderBody(s.h.event, data)
	} else {
		body, err = json.Marshal(httpEventBody{SessionID: s.id, Event: httpEvent(e)})
	}
	if err != nil {
		return nil, fmt.Errorf("%s: event %q body: %w", s.h, e.Name, err)
	}
	return s.h.post(ctx, s.h.eventURL, body)
}

// post sends body to target and reads the reply.
func (h *HTTP) post(ctx context.Context, target string, body []byte) (*Reply, error) {
	where := "http agent " + secret.Address(target)
	start := time.Now()
	headers, err := h.expandHeaders()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	reqCtx, cancel := context.WithTimeout(ctx, h.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(reqCtx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	setHeaders(req, headers)

	resp, err := h.client.Do(req)
	if err != nil {
		return nil, h.sendError(ctx, reqCtx, where, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxHTTPReply+1))
	if err != nil {
		return nil, h.sendError(ctx, reqCtx, where, fmt.Errorf("reading the answer: %w", err))
	}
	if len(data) > maxHTTPReply {
		return nil, fmt.Errorf("%s: the answer is larger than %d MiB", where, maxHTTPReply>>20)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, fmt.Errorf("%s answered %s: %q", where, resp.Status, llm.BodyExcerpt(data))
	}
	reply, err := h.reply.read(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %q", where, err, llm.BodyExcerpt(data))
	}
	return finish(reply, nil, start)
}

// sendError explains why a request got no answer: the caller's context
// ended, the timeout passed, or the transport failed.
func (h *HTTP) sendError(ctx, reqCtx context.Context, where string, err error) error {
	var uerr *url.Error
	if errors.As(err, &uerr) {
		err = uerr.Err // the URL, already in where, without repeating it
	}
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("%s: interrupted: %w", where, context.Cause(ctx))
	case errors.Is(reqCtx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("%s: no answer within the timeout of %v: %w", where, h.timeout, context.DeadlineExceeded)
	default:
		return fmt.Errorf("%s: %w", where, err)
	}
}

// expandHeaders returns the headers with their variables expanded.
func (h *HTTP) expandHeaders() (map[string]string, error) {
	return expandHeaders(h.headers, h.getenv)
}

// expandHeaders returns hs with their variables expanded by getenv; of
// two headers of one name, the later wins. Its errors name the headers and
// variables, never a value.
func expandHeaders(hs []httpHeader, getenv func(string) string) (map[string]string, error) {
	out := make(map[string]string, len(hs))
	var problems []string
	for _, hd := range hs {
		var b strings.Builder
		for _, p := range hd.parts {
			if p.variable == "" {
				b.WriteString(p.literal)
				continue
			}
			v := getenv(p.variable)
			if v == "" {
				problems = append(problems, fmt.Sprintf("header %s uses ${%s}, which is not set", hd.name, p.variable))
				continue
			}
			if strings.ContainsAny(v, "\r\n\x00") {
				problems = append(problems, fmt.Sprintf("header %s uses ${%s}, whose value holds a line break or a NUL", hd.name, p.variable))
				continue
			}
			b.WriteString(v)
		}
		out[hd.name] = b.String()
	}
	if len(problems) > 0 {
		return nil, errors.New(strings.Join(problems, "; "))
	}
	return out, nil
}

// An httpHeader is a header name and its value, split into literal text and
// variable references.
type httpHeader struct {
	name  string
	parts []httpHeaderPart
}

// An httpHeaderPart is literal text, or a variable when variable is set.
type httpHeaderPart struct {
	literal, variable string
}

// parseHeaders parses headers (see parseHeader), in name order.
func parseHeaders(headers map[string]string) ([]httpHeader, error) {
	var out []httpHeader
	for _, name := range slices.Sorted(maps.Keys(headers)) {
		hd, err := parseHeader(name, headers[name])
		if err != nil {
			return nil, err
		}
		out = append(out, hd)
	}
	return out, nil
}

// setHeaders sets expanded headers on req; a Host header sets req.Host,
// which is what Go sends.
func setHeaders(req *http.Request, headers map[string]string) {
	for name, value := range headers {
		if name == "Host" {
			req.Host = value
			continue
		}
		req.Header.Set(name, value)
	}
}

// parseHeader checks a header's name and splits its value on ${NAME}.
func parseHeader(name, value string) (httpHeader, error) {
	if !isToken(name) {
		return httpHeader{}, fmt.Errorf("header name %q is not a valid HTTP header name", name)
	}
	hd := httpHeader{name: http.CanonicalHeaderKey(name)}
	rest := value
	for rest != "" {
		i := strings.Index(rest, "${")
		if i < 0 {
			hd.parts = append(hd.parts, httpHeaderPart{literal: rest})
			break
		}
		if i > 0 {
			hd.parts = append(hd.parts, httpHeaderPart{literal: rest[:i]})
		}
		end := strings.IndexByte(rest[i:], '}')
		if end < 0 {
			return httpHeader{}, fmt.Errorf("header %s: a ${ has no closing }", hd.name)
		}
		v := rest[i+2 : i+end]
		if !isEnvName(v) {
			return httpHeader{}, fmt.Errorf("header %s: ${%s} is not a variable name (letters, digits and _, not starting with a digit)", hd.name, v)
		}
		hd.parts = append(hd.parts, httpHeaderPart{variable: v})
		rest = rest[i+end+1:]
	}
	for _, p := range hd.parts {
		if strings.ContainsAny(p.literal, "\r\n\x00") {
			return httpHeader{}, fmt.Errorf("header %s: the value holds a line break or a NUL", hd.name)
		}
	}
	return hd, nil
}

// isToken reports whether s is an HTTP token (RFC 9110), as a header name
// must be.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range []byte(s) {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// isEnvName reports whether s is a portable environment variable name.
func isEnvName(s string) bool {
	if s == "" || ('0' <= s[0] && s[0] <= '9') {
		return false
	}
	for _, c := range []byte(s) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// checkHTTPURL checks that s is an absolute http or https URL.
func checkHTTPURL(s string) error {
	if s == "" {
		return errors.New("no URL given")
	}
	u, err := url.Parse(s)
	if err != nil {
		return fmt.Errorf("%q is not a URL", secret.Address(s))
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("%s is not an http or https URL", secret.Address(s))
	}
	if u.Host == "" {
		return fmt.Errorf("%s has no host", secret.Address(s))
	}
	return nil
}

// messageData is what a Request template sees.
type messageData struct {
	SessionID string
	Message   string
	Metadata  map[string]string
}

// eventData is what an EventRequest template sees.
type eventData struct {
	SessionID string
	Event     Event
}

// httpMessageBody is the default body of a message request.
type httpMessageBody struct {
	SessionID string            `json:"session_id"`
	Message   string            `json:"message"`
	Metadata  map[string]string `json:"metadata"`
}

// httpEventBody is the default body of an event request.
type httpEventBody struct {
	SessionID string    `json:"session_id"`
	Event     httpEvent `json:"event"`
}

type httpEvent struct {
	Name    string          `json:"name"`
	Payload json.RawMessage `json:"payload"`
}

// The data templates are tried with when they are built: quotes, a
// backslash, a line break and a tab, which only a template that encodes
// its values with json renders as valid JSON.
var (
	sampleMessageData = messageData{
		SessionID: "session-\"1\"",
		Message:   "a \"quoted\" word, a \\ backslash,\na new line\tand a tab",
		Metadata:  map[string]string{"key": "a \"value\""},
	}
	sampleEventData = eventData{
		SessionID: "session-\"1\"",
		Event:     Event{Name: "reminder \"due\"", Payload: json.RawMessage(`{"id": 7, "note": "a\nb"}`)},
	}
)

// parseBodyTemplate parses a body template and renders it once with
// sample data, which must give valid JSON. fields lists the data's fields
// for an error.
func parseBodyTemplate(field, text string, sample any, fields string) (*template.Template, error) {
	t, err := template.New(field).Option("missingkey=zero").Funcs(template.FuncMap{"json": jsonText}).Parse(text)
	if err != nil {
		return nil, fmt.Errorf("%s template: %w", field, err)
	}
	if _, err := renderBody(t, sample); errors.Is(err, errInvalidBody) {
		return nil, fmt.Errorf("%s template, tried on a sample: %w (write {{json .Field}}, not \"{{.Field}}\", to quote a value)", field, err)
	} else if err != nil {
		return nil, fmt.Errorf("%s template, tried on a sample: %w (its data has %s)", field, err, fields)
	}
	return t, nil
}

// errInvalidBody is what renderBody's error wraps when a template rendered
// something that is not JSON.
var errInvalidBody = errors.New("it renders invalid JSON")

// renderBody executes a body template and checks that it gave JSON.
func renderBody(t *template.Template, data any) ([]byte, error) {
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		return nil, err
	}
	if !json.Valid(b.Bytes()) {
		return nil, fmt.Errorf("%w: %q", errInvalidBody, llm.BodyExcerpt(b.Bytes()))
	}
	return b.Bytes(), nil
}

// jsonText is the templates' json function: v encoded as JSON, with <, >
// and & left as they are.
func jsonText(v any) (string, error) {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// cutUTF8 returns at most the first n bytes of s, cut on a character
// boundary.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
