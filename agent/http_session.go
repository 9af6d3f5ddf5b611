package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"text/template"

	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/secret"
)

// An HTTPRequest is a request an HTTP agent is sent about a session, to
// open or to close it (HTTPConfig.Open and HTTPConfig.Close). The agent
// answers with any 2xx status, and any body, which Gavel ignores; any
// other status is an error of the session.
type HTTPRequest struct {
	// Method is the HTTP method. Defaults to POST.
	Method string
	// URL is where the request goes: an http or https URL, or a
	// reference resolved against HTTPConfig.URL, such as "/close" or
	// "/sessions/{{path .SessionID}}". It is a Go text/template with the
	// field .SessionID and the function path, which escapes a value for a
	// path segment (text/template's urlquery escapes a query value).
	URL string
	// Headers are added to HTTPConfig.Headers, replacing those of the
	// same name. Their values read the environment as ${NAME}, as there.
	Headers map[string]string
	// Body is a Go text/template of the JSON body, with the field
	// .SessionID and the function json, as HTTPConfig.Request. Defaults to
	// {"session_id": "s-1"} for POST, PUT and PATCH, and to no body for
	// other methods.
	Body string
}

// sessionRequest is an HTTPRequest ready to send.
type sessionRequest struct {
	what    string // "close" or "open", for errors
	method  string
	url     *template.Template
	base    *url.URL // what a relative URL is resolved against
	headers []httpHeader
	body    *template.Template // nil: the default body, or none
	noBody  bool
}

// sessionData is what the templates of an HTTPRequest see.
type sessionData struct {
	SessionID string
}

// sampleSessionData is what the templates of an HTTPRequest are tried
// with when they are built.
var sampleSessionData = sessionData{SessionID: "session-\"1\"/a b"}

// compileSessionRequest checks r, the request that does what to a
// session, and readies it. base is the agent's URL.
func compileSessionRequest(what string, r HTTPRequest, base string) (*sessionRequest, error) {
	fail := func(err error) (*sessionRequest, error) { return nil, fmt.Errorf("%s request: %w", what, err) }
	s := &sessionRequest{what: what, method: r.Method}
	if s.method == "" {
		s.method = http.MethodPost
	}
	if !isToken(s.method) {
		return fail(fmt.Errorf("method %q is not an HTTP method", s.method))
	}
	switch s.method {
	case http.MethodPost, http.MethodPut, http.MethodPatch:
	default:
		s.noBody = r.Body == ""
	}
	if r.URL == "" {
		return fail(errors.New("no URL given: give one, or a path such as /close"))
	}
	var err error
	if s.base, err = url.Parse(base); err != nil {
		return fail(err) // the agent's URL is checked before
	}
	funcs := template.FuncMap{"path": url.PathEscape}
	if s.url, err = template.New("URL").Option("missingkey=zero").Funcs(funcs).Parse(r.URL); err != nil {
		return fail(fmt.Errorf("URL template: %w", err))
	}
	if _, err := s.target(sampleSessionData); err != nil {
		return fail(fmt.Errorf("URL, tried on a sample session id: %w (its data has .SessionID, and the function path escapes it for a path)", err))
	}
	if s.headers, err = parseHeaders(r.Headers); err != nil {
		return fail(err)
	}
	if r.Body != "" {
		if s.body, err = parseBodyTemplate("Body", r.Body, sampleSessionData, ".SessionID"); err != nil {
			return fail(err)
		}
	}
	return s, nil
}

// target renders the URL for a session and checks it.
func (s *sessionRequest) target(data sessionData) (string, error) {
	var b strings.Builder
	if err := s.url.Execute(&b, data); err != nil {
		return "", err
	}
	ref, err := url.Parse(b.String())
	if err != nil {
		return "", fmt.Errorf("%q is not a URL", secret.Address(b.String()))
	}
	target := s.base.ResolveReference(ref).String()
	if err := checkHTTPURL(target); err != nil {
		return "", err
	}
	return target, nil
}

// send sends the request about session id and checks that the agent
// answered with a 2xx status.
func (h *HTTP) send(ctx context.Context, s *sessionRequest, id string) error {
	data := sessionData{SessionID: id}
	target, err := s.target(data)
	if err != nil {
		return fmt.Errorf("%s: %s request of session %q: URL: %w", h, s.what, id, err)
	}
	where := fmt.Sprintf("http agent %s %s (%s request of session %q)", s.method, secret.Address(target), s.what, id)
	var body []byte
	switch {
	case s.body != nil:
		body, err = renderBody(s.body, data)
	case !s.noBody:
		body, err = json.Marshal(map[string]string{"session_id": id})
	}
	if err != nil {
		return fmt.Errorf("%s: body: %w", where, err)
	}
	headers, err := expandHeaders(append(slices.Clip(h.headers), s.headers...), h.getenv)
	if err != nil {
		return fmt.Errorf("%s: %w", where, err)
	}

	reqCtx, cancel := context.WithTimeout(ctx, h.timeout)
	defer cancel()
	var reader io.Reader
	if body != nil {
		reader = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(reqCtx, s.method, target, reader)
	if err != nil {
		return fmt.Errorf("%s: %w", where, err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	setHeaders(req, headers)
	resp, err := h.client.Do(req)
	if err != nil {
		return h.sendError(ctx, reqCtx, where, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		excerpt, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
		return fmt.Errorf("%s answered %s: %q", where, resp.Status, llm.BodyExcerpt(excerpt))
	}
	// Read a little of what it said, unread: a body read to its end lets
	// the connection serve the next request.
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
	return nil
}
