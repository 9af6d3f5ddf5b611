package secret

import (
	"net/url"
	"strings"
)

// Address returns s, a URL or a model reference that names one
// ("openai:qwen@https://host/v1"), fit to show: the URL loses its user
// info and fragment, and its query keeps its keys but not their values
// (?api_key=***), for they may hold a password or a token; what names the
// server stays. An s that holds no URL is returned as it is
// ("openai:gpt-5-mini", "ollama:llama3.1@latest"). A URL that does not
// parse is shown as it is when it has no user info, query or fragment to
// hide (so that an error can show what is wrong with it), and is hidden
// whole otherwise, as its parts cannot be told apart: "(address hidden)".
func Address(s string) string {
	prefix, raw, ok := cutURL(s)
	if !ok {
		return s
	}
	if _, err := url.Parse(raw); err != nil {
		if strings.ContainsAny(raw, "@?#") {
			return prefix + "(address hidden)"
		}
		return s
	}
	u := split(raw)
	out := u.scheme + "://" + u.host + u.path
	if u.query != "" {
		params := strings.Split(u.query, "&")
		for i, p := range params {
			key, value, ok := strings.Cut(p, "=")
			switch {
			case !ok && p != "":
				params[i] = Marker // a bare parameter: ?TOKEN
			case value != "":
				params[i] = key + "=" + Marker
			}
		}
		out += "?" + strings.Join(params, "&")
	}
	return prefix + out
}

// cutURL finds the URL in s, a URL or what ends with one (a model
// reference: provider:model@URL), by its scheme: what comes before it,
// and the URL. ok is false when s holds no "://".
func cutURL(s string) (prefix, raw string, ok bool) {
	i := strings.Index(s, "://")
	if i < 0 {
		return "", "", false
	}
	start := i
	for start > 0 && isSchemeByte(s[start-1]) {
		start--
	}
	return s[:start], s[start:], true
}

// isSchemeByte says whether c may be in a URL's scheme.
func isSchemeByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'
}

// urlParts are the parts of a URL as written, unescaped nowhere.
type urlParts struct {
	scheme, userinfo, host, path, query, fragment string
}

// split cuts a URL (scheme://...) into its parts as written, so that
// what is shown of it is what was written, escaping included.
func split(raw string) urlParts {
	var u urlParts
	var rest string
	u.scheme, rest, _ = strings.Cut(raw, "://")
	rest, u.fragment, _ = strings.Cut(rest, "#")
	rest, u.query, _ = strings.Cut(rest, "?")
	authority, path := rest, ""
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		authority, path = rest[:i], rest[i:]
	}
	u.path = path
	if i := strings.LastIndexByte(authority, '@'); i >= 0 {
		u.userinfo, u.host = authority[:i], authority[i+1:]
	} else {
		u.host = authority
	}
	return u
}
