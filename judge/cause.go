package judge

import (
	"context"
	"errors"
	"io"
	"net"
	"net/url"
)

// A Cause says what made a conversation fail or a judgment ERROR when it
// was the world around the agent and the judges, not them: a service that
// could not be reached, or a run stopped at once. It is classified where
// the error happens (CauseOf), and kept on the Transcript and the
// Judgment, because the exit code of a run depends on it and error text
// would not tell reliably.
type Cause string

// The causes CauseOf knows.
const (
	// CauseUnreachable: a service could not be reached: a network failure
	// (a refused or reset connection, a name that does not resolve, a
	// connection dropped before the answer), a timeout, or an answer
	// saying it cannot serve now (429, 408, 5xx), which retries did not
	// get past. A service that answered badly (a 400, a malformed reply)
	// was reached: that error has no cause.
	CauseUnreachable Cause = "unreachable"
	// CauseCancelled: the run was stopped at once (a second Ctrl-C) while
	// this ran; the error says nothing of the agent or the judge.
	CauseCancelled Cause = "cancelled"
)

// CauseOf classifies err: CauseCancelled for a cancelled context,
// CauseUnreachable for the failures listed with it, "" for any other
// error and for nil.
//
// An error in err's chain with a method Unreachable() bool decides for
// itself (llm.APIError has one: true for 429, 408 and 5xx answers, false
// for the others), so that a package can classify its errors without this
// one knowing them.
func CauseOf(err error) Cause {
	if err == nil {
		return ""
	}
	if errors.Is(err, context.Canceled) {
		return CauseCancelled
	}
	var classified interface{ Unreachable() bool }
	if errors.As(err, &classified) {
		if classified.Unreachable() {
			return CauseUnreachable
		}
		return ""
	}
	var (
		op      *net.OpError
		dns     *net.DNSError
		netErr  net.Error
		request *url.Error
	)
	switch {
	case errors.Is(err, context.DeadlineExceeded),
		errors.As(err, &op), errors.As(err, &dns),
		errors.As(err, &netErr) && netErr.Timeout():
		return CauseUnreachable
	case errors.As(err, &request) && (errors.Is(request.Err, io.EOF) || errors.Is(request.Err, io.ErrUnexpectedEOF)):
		return CauseUnreachable // the server dropped the connection before answering
	}
	return ""
}
