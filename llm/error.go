package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"
)

// An APIError is an error answer from a vendor's API. Providers return one
// for every non-2xx answer, so middleware can tell a rate limit from a bad
// request whatever the vendor.
type APIError struct {
	// Provider names the vendor: "openai", "anthropic".
	Provider string
	// StatusCode is the HTTP status of the answer.
	StatusCode int
	// Message is the vendor's explanation, when the body had one.
	Message string
	// Body is an excerpt of the answer's body (see BodyExcerpt).
	Body string
	// RequestID is the vendor's id of the request.
	RequestID string
	// RetryAfter is how long the vendor asked to wait (Retry-After), or 0.
	RetryAfter time.Duration
}

func (e *APIError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d %s", e.Provider, e.StatusCode, http.StatusText(e.StatusCode))
	switch {
	case e.Message != "":
		b.WriteString(": " + e.Message)
	case e.Body != "":
		b.WriteString(": " + e.Body)
	}
	if e.RequestID != "" {
		b.WriteString(" (request " + e.RequestID + ")")
	}
	return b.String()
}

// Retryable reports whether the same request may succeed later: a rate
// limit (429), a timeout (408), a conflict (409) or a server error (5xx).
// A bad request, a bad key or a forbidden model (400, 401, 403, 404) will
// fail again however often it is sent.
func (e *APIError) Retryable() bool {
	switch {
	case e.StatusCode == http.StatusTooManyRequests,
		e.StatusCode == http.StatusRequestTimeout,
		e.StatusCode == http.StatusConflict,
		e.StatusCode >= 500:
		return true
	}
	return false
}

// Unreachable reports whether the answer says the vendor cannot serve now:
// a rate limit (429), a timeout (408) or a server error (5xx). Retry sends
// those again, so one that reaches the caller came back every time: the
// vendor could not be reached (judge.CauseOf reads this method). Any other
// error answer came from a vendor that was reached and refused the
// request.
func (e *APIError) Unreachable() bool {
	return e.StatusCode == http.StatusTooManyRequests || e.StatusCode == http.StatusRequestTimeout || e.StatusCode >= 500
}

// RateLimited reports whether err is a vendor's rate limit (429).
func RateLimited(err error) bool {
	var api *APIError
	return errors.As(err, &api) && api.StatusCode == http.StatusTooManyRequests
}

// Retryable reports whether err may go away if the request is sent again:
// a retryable APIError, a network timeout, or a connection reset or closed
// before any answer came (a load balancer or a vendor's front end under
// load does it; the vendors' own SDKs send such a request again, as they
// do after a 5xx). A cancelled or expired context is not retryable: the
// caller gave up.
func Retryable(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) {
		return false
	}
	var api *APIError
	if errors.As(err, &api) {
		return api.Retryable()
	}
	var netErr net.Error
	if errors.As(err, &netErr) && netErr.Timeout() {
		return true
	}
	return droppedBeforeAnswer(err)
}

// droppedBeforeAnswer reports whether err says the connection was reset,
// or closed, before the request had an answer: an error of the HTTP
// client's round trip (a *url.Error), not of reading an answer's body.
func droppedBeforeAnswer(err error) bool {
	var urlErr *url.Error
	if !errors.As(err, &urlErr) {
		return false
	}
	return errors.Is(err, syscall.ECONNRESET) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
}

// maxRetryAfter bounds the Retry-After values read: a larger one is
// treated as absent rather than trusted.
const maxRetryAfter = time.Hour

// ParseRetryAfter reads a Retry-After header: seconds, or an HTTP date. It
// returns 0 when the header is absent or unreadable.
func ParseRetryAfter(h http.Header, now time.Time) time.Duration {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil {
		if secs < 0 || secs > maxRetryAfter.Seconds() || math.IsNaN(secs) {
			return 0
		}
		return time.Duration(secs * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// MaxBodyExcerpt bounds BodyExcerpt, in bytes.
const MaxBodyExcerpt = 500

// BodyExcerpt returns the start of an answer's body for an error message:
// trimmed, at most MaxBodyExcerpt bytes, cut on a character boundary.
func BodyExcerpt(body []byte) string {
	s := strings.TrimSpace(string(body))
	if len(s) <= MaxBodyExcerpt {
		return s
	}
	const more = "…"
	cut := MaxBodyExcerpt - len(more)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + more
}
