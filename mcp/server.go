package mcp

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"time"

	"github.com/gavelhq/gavel/secret"
)

// The transports a Server can be reached over.
const (
	// TransportStdio runs Server.Command and speaks MCP over its stdin and
	// stdout.
	TransportStdio = "stdio"
	// TransportStreamable speaks MCP's streamable HTTP transport to
	// Server.URL.
	TransportStreamable = "streamable"
	// TransportSSE speaks the older HTTP+SSE transport to Server.URL (the
	// URL of the SSE stream, often ending in /sse).
	TransportSSE = "sse"
)

// DefaultTimeout is the Timeout of a Server that sets none.
const DefaultTimeout = time.Minute

// A Server describes an MCP server as a suite file does: a command to run
// (stdio) or a URL to reach (streamable HTTP or SSE). Set Command or URL,
// not both.
type Server struct {
	// Name names the server in errors. Defaults to the command's program or
	// the URL.
	Name string

	// Command is the program and its arguments, for a stdio server. The
	// program is looked up in PATH when it has no slash.
	Command []string
	// Env adds variables ("KEY=value") to Gavel's own environment for the
	// command; a later entry wins over an earlier one and over Gavel's.
	Env []string
	// Dir is the command's working directory. Defaults to Gavel's.
	Dir string

	// URL is the server's endpoint, for an HTTP server.
	URL string
	// Transport is TransportStdio, TransportStreamable or TransportSSE.
	// Defaults to stdio when Command is set and to streamable when URL is.
	Transport string
	// Headers are sent with every HTTP request (an Authorization header, an
	// API key). Their values never appear in errors.
	Headers map[string]string

	// Timeout bounds connecting (starting the command and the MCP
	// handshake) and each request afterwards (listing tools, one call).
	// Defaults to DefaultTimeout.
	Timeout time.Duration
}

// transport returns the transport s uses, or an error that says what to
// fix in s.
func (s Server) transport() (string, error) {
	switch {
	case len(s.Command) > 0 && s.URL != "":
		return "", errors.New("both command and URL are set: set command for a stdio server, URL for an HTTP one")
	case len(s.Command) == 0 && s.URL == "":
		return "", errors.New("neither command nor URL is set: set command for a stdio server, URL for an HTTP one")
	}
	t := s.Transport
	if t == "" {
		t = TransportStreamable
		if len(s.Command) > 0 {
			t = TransportStdio
		}
	}
	switch t {
	case TransportStdio:
		if len(s.Command) == 0 {
			return "", errors.New(`transport "stdio" needs a command, not a URL`)
		}
		if s.Command[0] == "" {
			return "", errors.New("the command's program is empty")
		}
		if len(s.Headers) > 0 {
			return "", errors.New("headers are set but are only sent to HTTP servers (URL)")
		}
	case TransportStreamable, TransportSSE:
		if s.URL == "" {
			return "", fmt.Errorf("transport %q needs a URL, not a command", t)
		}
		u, err := url.Parse(s.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return "", fmt.Errorf("URL %s is not an http:// or https:// URL", secret.Address(s.URL))
		}
		if len(s.Env) > 0 || s.Dir != "" {
			return "", errors.New("env or dir is set but only applies to stdio servers (command)")
		}
	default:
		return "", fmt.Errorf("unknown transport %q (want %q, %q or %q)", t, TransportStdio, TransportStreamable, TransportSSE)
	}
	return t, nil
}

// label names s in errors: its Name, else its program or URL.
func (s Server) label() string {
	switch {
	case s.Name != "":
		return strconv.Quote(s.Name)
	case len(s.Command) > 0:
		return strconv.Quote(s.Command[0])
	default:
		return secret.Address(s.URL)
	}
}

func (s Server) timeout() time.Duration {
	if s.Timeout > 0 {
		return s.Timeout
	}
	return DefaultTimeout
}
