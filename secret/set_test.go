package secret_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel/secret"
)

func TestRedact(t *testing.T) {
	var s secret.Set
	s.Add("s3cr3t-token", "${TOKEN}")
	s.Add("s3cr3t-token-long", "${LONG}")
	s.Add("p@ss w/rd\"x", "${PASS}")
	s.Add("12345", "${PORT}") // too short to hide
	s.Add("", "${EMPTY}")
	s.AddURL("openai:m@http://ada-user:pa%40ss-word@host/v1?key=qu3ry-k3y&v=2#fr4gment")
	for _, tc := range []struct{ name, in, want string }{
		{"nothing secret", "hello, world", "hello, world"},
		{"a value", "Bearer s3cr3t-token.", "Bearer ${TOKEN}."},
		{"the longer value first", "s3cr3t-token-long", "${LONG}"},
		{"twice", "s3cr3t-token s3cr3t-token", "${TOKEN} ${TOKEN}"},
		{"escaped in a path", "GET /p@ss%20w%2Frd%22x/v1", "GET /${PASS}/v1"},
		{"escaped in a query", "?k=p%40ss+w%2Frd%22x", "?k=${PASS}"},
		{"escaped in JSON", `{"error": "bad p@ss w/rd\"x"}`, `{"error": "bad ${PASS}"}`},
		{"a short value is no secret", "port 12345", "port 12345"},
		{"a URL's user, password, query value, fragment", "ada-user pa%40ss-word pa@ss-word qu3ry-k3y fr4gment v=2",
			"*** *** *** *** *** v=2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := s.Redact(tc.in); got != tc.want {
				t.Errorf("Redact(%q)\ngot  %q\nwant %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestNilSetHidesNothing(t *testing.T) {
	var s *secret.Set
	v := struct{ A string }{"s3cr3t-token"}
	s.RedactValue(&v)
	if got := s.Redact("s3cr3t-token"); got != "s3cr3t-token" || v.A != "s3cr3t-token" {
		t.Errorf("a nil Set changed %q to %q, %q", "s3cr3t-token", got, v.A)
	}
	if s := secret.FromContext(context.Background()); s != nil {
		t.Errorf("FromContext of a bare context: %v, want nil", s)
	}
}

type status string

type inner struct {
	Text   string
	Status status
	Args   json.RawMessage
	Bytes  []byte
	secret string
}

type outer struct {
	Name    string
	Ptr     *inner
	Again   *inner // the same pointer: walked once
	List    []inner
	Array   [2]string
	ByName  map[string]inner
	Tags    map[string]string
	Any     any
	AnyPtr  any
	Nothing *inner
	NilMap  map[string]string
}

// RedactValue hides secrets everywhere a value holds text, and leaves
// alone what is not text.
func TestRedactValue(t *testing.T) {
	var s secret.Set
	s.Add("s3cr3t-token", "${TOKEN}")
	s.Add("enum-s3cr3t", "${ENUM}")
	shared := &inner{Text: "ptr s3cr3t-token", Args: json.RawMessage(`{"key":"s3cr3t-token","n":1.50,"list":["s3cr3t-token"],"s3cr3t-token":true}`)}
	v := outer{
		Name:   "s3cr3t-token",
		Ptr:    shared,
		Again:  shared,
		List:   []inner{{Text: "a s3cr3t-token", Status: "enum-s3cr3t", Bytes: []byte("s3cr3t-token"), secret: "s3cr3t-token"}},
		Array:  [2]string{"s3cr3t-token", "b"},
		ByName: map[string]inner{"key s3cr3t-token": {Text: "value s3cr3t-token"}},
		Tags:   map[string]string{"k": "s3cr3t-token"},
		Any:    "any s3cr3t-token",
		AnyPtr: &inner{Text: "s3cr3t-token"},
	}
	s.RedactValue(&v)
	want := outer{
		Name:   "${TOKEN}",
		Ptr:    &inner{Text: "ptr ${TOKEN}", Args: json.RawMessage(`{"${TOKEN}":true,"key":"${TOKEN}","list":["${TOKEN}"],"n":1.50}`)},
		List:   []inner{{Text: "a ${TOKEN}", Status: "enum-s3cr3t", Bytes: []byte("s3cr3t-token"), secret: "s3cr3t-token"}},
		Array:  [2]string{"${TOKEN}", "b"},
		ByName: map[string]inner{"key ${TOKEN}": {Text: "value ${TOKEN}"}},
		Tags:   map[string]string{"k": "${TOKEN}"},
		Any:    "any ${TOKEN}",
		AnyPtr: &inner{Text: "${TOKEN}"},
	}
	want.Again = want.Ptr
	if diff := cmp.Diff(want, v, cmp.AllowUnexported(inner{})); diff != "" {
		t.Errorf("RedactValue (-want +got):\n%s", diff)
	}
}

// Arguments that hold no secret are kept byte for byte; arguments that
// are not JSON are hidden as text.
func TestRedactValueRawJSON(t *testing.T) {
	var s secret.Set
	s.Add("s3cr3t-token", "${TOKEN}")
	for _, tc := range []struct{ name, in, want string }{
		{"no secret, as written", `{ "b": 1,  "a": "<x>" }`, `{ "b": 1,  "a": "<x>" }`},
		{"not JSON", `{"key": s3cr3t-token`, `{"key": ${TOKEN}`},
		{"escaped in JSON", `{"k":"s3cr3t\u002dtoken"}`, `{"k":"${TOKEN}"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := struct{ Args json.RawMessage }{json.RawMessage(tc.in)}
			s.RedactValue(&v)
			if string(v.Args) != tc.want {
				t.Errorf("got %s, want %s", v.Args, tc.want)
			}
		})
	}
}

func TestWriter(t *testing.T) {
	var s secret.Set
	s.Add("s3cr3t-token", "${TOKEN}")
	var out bytes.Buffer
	w := s.Writer(&out)
	n, err := w.Write([]byte("started with s3cr3t-token\n"))
	if n != len("started with s3cr3t-token\n") || err != nil || out.String() != "started with ${TOKEN}\n" {
		t.Errorf("Write: %d, %v; wrote %q", n, err, out.String())
	}
}

func TestContext(t *testing.T) {
	var s secret.Set
	s.Add("s3cr3t-token", "${TOKEN}")
	ctx := secret.NewContext(context.Background(), &s)
	if got := secret.FromContext(ctx).Redact("s3cr3t-token"); got != "${TOKEN}" {
		t.Errorf("the Set of the context: %q", got)
	}
}

// A value read into a model reference or a URL is hidden where it may be
// a secret, and shown where it names the model or the server.
func TestAddIn(t *testing.T) {
	for _, tc := range []struct {
		name, before, value, after string
		hidden                     []string // what Redact then hides
	}{
		{"the model", "openai:", "gpt-5-mini-2025", "@http://host/v1", nil},
		{"the model of a reference without URL", "openai:", "gpt-5-mini-2025", "", nil},
		{"the host", "http://", "gateway.internal", ":8080/v1", nil},
		{"the whole URL", "", "http://ada-user:pa55word@gateway.internal/v1?key=qu3ry-k3y", "", []string{"ada-user", "pa55word", "qu3ry-k3y"}},
		{"the whole URL of a reference", "openai:m@", "http://gateway.internal/v1?key=qu3ry-k3y", "", []string{"qu3ry-k3y"}},
		{"the start of the URL", "", "http://gateway.internal:8080", "/chat", nil},
		{"a whole reference", "", "openai:m@http://gateway.internal/v1?key=qu3ry-k3y", "", []string{"qu3ry-k3y"}},
		{"the password", "http://u:", "pa55word", "@host/v1", []string{"pa55word"}},
		{"the user info", "http://", "ada-user:pa55word", "@host/v1", []string{"ada-user:pa55word"}},
		{"the path", "openai:m@http://host/", "acct-t0ken", "/v1", []string{"acct-t0ken"}},
		{"a query value", "http://host/mcp?token=", "qu3ry-k3y", "", []string{"qu3ry-k3y"}},
		{"host and path", "http://", "gateway.internal/acct-t0ken", "/v1", []string{"gateway.internal/acct-t0ken"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s secret.Set
			address := tc.before + tc.value + tc.after
			s.AddIn(address, len(tc.before), len(tc.before)+len(tc.value), "${X}")
			for _, h := range tc.hidden {
				if got := s.Redact(h); got == h {
					t.Errorf("%q is not hidden", h)
				}
			}
			if len(tc.hidden) == 0 && s.Redact(address) != address {
				t.Errorf("%q: hidden as %q, want it shown", address, s.Redact(address))
			}
		})
	}
}
