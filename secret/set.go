package secret

import (
	"cmp"
	"context"
	"encoding/json"
	"io"
	"net/url"
	"slices"
	"strings"
	"sync"
)

// MinLength is the length of the shortest value a Set hides. A shorter one
// (a port, a flag, a small number) is no secret worth the name, and
// hiding it would hide the same characters in every word and number of
// every transcript.
const MinLength = 6

// Marker takes the place of a hidden part of a URL.
const Marker = "***"

// A Set holds secret values and the markers that take their places. The
// zero Set hides nothing; a nil *Set hides nothing either, so that a
// suite built without one (in Go) needs none. A Set is safe for
// concurrent use.
type Set struct {
	mu      sync.RWMutex
	markers map[string]string // value → marker
	hider   *strings.Replacer // nil until needed after a change
}

// Add makes value a secret, written as marker wherever it would be
// written: as it is, and as it shows escaped in a URL or in JSON. A value
// shorter than MinLength is not hidden (see MinLength).
func (s *Set) Add(value, marker string) {
	if len(value) < MinLength {
		return
	}
	s.mu.RLock()
	known := s.markers[value] == marker
	s.mu.RUnlock()
	if known {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.markers == nil {
		s.markers = map[string]string{}
	}
	s.markers[value] = marker
	s.hider = nil
}

// AddURL makes secrets of the parts of the URL in ref (a URL, or a model
// reference naming one) that may hold a password or a token: the user
// name and password of its user info, the values of its query and its
// fragment, each written as Marker. What names the server (its scheme,
// host, port and path) is left to be shown.
func (s *Set) AddURL(ref string) {
	_, raw, ok := cutURL(ref)
	if !ok {
		return
	}
	u := split(raw)
	if user, password, ok := strings.Cut(u.userinfo, ":"); u.userinfo != "" {
		s.addEscaped(user)
		if ok {
			s.addEscaped(password)
		}
	}
	for param := range strings.SplitSeq(u.query, "&") {
		_, value, ok := strings.Cut(param, "=")
		if !ok {
			value = param // a bare parameter: ?TOKEN
		}
		s.addEscaped(value)
	}
	s.addEscaped(u.fragment)
}

// AddIn makes a secret of address[start:end], a value read into address
// (a model reference, or a URL) from elsewhere, written as marker,
// unless it is part of what names the model or the server:
//
//   - in the provider and the model ("openai:${MODEL}"), or the URL's host
//     and port ("http://${HOST}:${PORT}/v1"), it is not hidden;
//   - bringing the URL's scheme (the whole URL, "${AGENT_URL}", or its
//     start, "${BASE}/chat"), it names the server: only the parts of it
//     that may hold a password or a token are hidden (AddURL);
//   - in the URL's user info, path, query or fragment
//     ("http://u:${PASSWORD}@host", "/${TOKEN}/v1", "?key=${KEY}"), it is
//     hidden.
func (s *Set) AddIn(address string, start, end int, marker string) {
	prefix, raw, ok := cutURL(address)
	urlStart := len(prefix)
	switch {
	case !ok || end <= urlStart:
		return // no URL, or in the provider and the model
	case start <= urlStart:
		s.AddURL(address[start:end])
		return
	}
	u := split(raw)
	userinfoStart := urlStart + len(u.scheme) + len("://")
	hostStart := userinfoStart
	if u.userinfo != "" {
		hostStart += len(u.userinfo) + len("@")
	}
	pathStart := hostStart + len(u.host)
	if start < hostStart || end > pathStart {
		s.Add(address[start:end], marker)
	}
}

// addEscaped hides a part of a URL as Marker, as written and unescaped.
func (s *Set) addEscaped(part string) {
	s.Add(part, Marker)
	if plain, err := url.QueryUnescape(part); err == nil {
		s.Add(plain, Marker)
	}
}

// Redact returns text with every secret of s replaced by its marker.
func (s *Set) Redact(text string) string {
	if h := s.replacer(); h != nil {
		return h.Replace(text)
	}
	return text
}

// replacer returns the replacer that hides s's secrets, nil when s has
// none. The longest secret is tried first, so that a secret holding
// another is hidden whole.
func (s *Set) replacer() *strings.Replacer {
	if s == nil {
		return nil
	}
	s.mu.RLock()
	h, n := s.hider, len(s.markers)
	s.mu.RUnlock()
	if h != nil || n == 0 {
		return h
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.hider == nil {
		s.hider = newHider(s.markers)
	}
	return s.hider
}

// newHider builds the replacer of markers (value → marker): each value as
// it is and in each of its escaped forms, longest first.
func newHider(markers map[string]string) *strings.Replacer {
	type pair struct{ old, marker string }
	var pairs []pair
	for value, marker := range markers {
		for _, form := range forms(value) {
			pairs = append(pairs, pair{form, marker})
		}
	}
	slices.SortFunc(pairs, func(a, b pair) int {
		return cmp.Or(len(b.old)-len(a.old), strings.Compare(a.old, b.old))
	})
	pairs = slices.CompactFunc(pairs, func(a, b pair) bool { return a.old == b.old })
	args := make([]string, 0, 2*len(pairs))
	for _, p := range pairs {
		args = append(args, p.old, p.marker)
	}
	return strings.NewReplacer(args...)
}

// forms are the ways value may be written: as it is, escaped in a URL's
// path or query, and escaped in a JSON string.
func forms(value string) []string {
	out := []string{value, url.PathEscape(value), url.QueryEscape(value)}
	if quoted, err := json.Marshal(value); err == nil {
		out = append(out, string(quoted[1:len(quoted)-1]))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Writer returns a writer that writes to w what it is given, its secrets
// hidden, for the output of programs Gavel passes on (an exec agent's
// stderr). Each write is hidden on its own: a secret cut across two writes
// would be missed, but a line a program writes at once comes whole.
func (s *Set) Writer(w io.Writer) io.Writer {
	return writer{s: s, w: w}
}

type writer struct {
	s *Set
	w io.Writer
}

func (w writer) Write(b []byte) (int, error) {
	if _, err := io.WriteString(w.w, w.s.Redact(string(b))); err != nil {
		return 0, err
	}
	return len(b), nil
}

// contextKey carries a Set in a context.
type contextKey struct{}

// NewContext returns ctx carrying s, for what writes about the work done
// in ctx (the spans of a trial) to hide s's secrets.
func NewContext(ctx context.Context, s *Set) context.Context {
	return context.WithValue(ctx, contextKey{}, s)
}

// FromContext returns the Set ctx carries: nil, which hides nothing, when
// it carries none.
func FromContext(ctx context.Context) *Set {
	s, _ := ctx.Value(contextKey{}).(*Set)
	return s
}
