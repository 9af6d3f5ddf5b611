package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/gavelhq/gavel/store"
)

// An httpError is an error to show the client as it is, with the status
// it answers with: a bad parameter (400), a run that is not there (404).
type httpError struct {
	status  int
	message string
	err     error
	// fields and problems say what is wrong with a case the API was sent
	// (see invalidCase).
	fields   map[string]string
	problems []string
}

func (e *httpError) Error() string { return e.message }
func (e *httpError) Unwrap() error { return e.err }

// errorf returns an httpError of the given status.
func errorf(status int, format string, args ...any) error {
	return &httpError{status: status, message: fmt.Sprintf(format, args...)}
}

// notFound returns a 404 error that says what is missing when err is, or
// wraps store.ErrNotFound; else err unchanged.
func notFound(err error, format string, args ...any) error {
	if errors.Is(err, store.ErrNotFound) {
		return &httpError{status: http.StatusNotFound, message: fmt.Sprintf(format, args...), err: err}
	}
	return err
}

// invalidCase is the error of a case that cannot be saved (422): what is
// wrong with single fields, by field name, and what checking it as a
// suite found.
func invalidCase(fields map[string]string, problems []string) error {
	return &httpError{status: http.StatusUnprocessableEntity, message: "the case cannot be saved: see fields and problems",
		fields: fields, problems: problems}
}

// statusOf maps an error to the status the client gets and the message it
// reads. Only httpErrors say what went wrong: anything else is the
// server's problem, logged and shown as a plain 500 (or 503 when the
// request ran out of time), so that no detail of the store leaks.
func statusOf(err error) (status int, message string) {
	var he *httpError
	switch {
	case errors.As(err, &he):
		return he.status, he.message
	case errors.Is(err, store.ErrNotFound):
		return http.StatusNotFound, "not found"
	case errors.Is(err, context.DeadlineExceeded):
		return http.StatusServiceUnavailable, "the request took too long; try again"
	}
	return http.StatusInternalServerError, "internal error: the server's log says more"
}

// logError logs an error the client is not shown: a 500 or 503. A
// client that went away is not worth a line.
func (s *Server) logError(r *http.Request, status int, err error) {
	if status < 500 || errors.Is(err, context.Canceled) {
		return
	}
	s.log.Error("web: request failed", "method", r.Method, "path", r.URL.Path, "status", status, "error", err)
}
