package llm

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// DefaultMaxResponseBytes bounds the body of a provider's response when
// nothing else is set: 32 MiB, far above any real answer (a model's longest
// reply is a few hundred kilobytes), far below what would exhaust memory.
const DefaultMaxResponseBytes = 32 << 20

// MaxResponseEnv names the environment variable that sets the providers'
// cap on a response's body, in whole MiB: GAVEL_MAX_RESPONSE_MB=64.
const MaxResponseEnv = "GAVEL_MAX_RESPONSE_MB"

// MaxResponseBytes reads the cap on a response's body from MaxResponseEnv
// with getenv: DefaultMaxResponseBytes when it is not set, an error naming
// the variable when it is not a positive whole number of MiB.
func MaxResponseBytes(getenv func(string) string) (int64, error) {
	v := strings.TrimSpace(getenv(MaxResponseEnv))
	if v == "" {
		return DefaultMaxResponseBytes, nil
	}
	mb, err := strconv.ParseInt(v, 10, 64)
	if err != nil || mb <= 0 || mb > 1<<20 {
		return 0, fmt.Errorf("%s=%q: want a whole number of MiB, such as 64 (the default is %d)", MaxResponseEnv, v, DefaultMaxResponseBytes>>20)
	}
	return mb << 20, nil
}

// A TooLargeError says that a response's body was larger than the cap: it
// was read no further.
type TooLargeError struct {
	Limit int64 // the cap, in bytes
	// Setting names what sets the cap, for the message (MaxResponseEnv);
	// "" when nothing does.
	Setting string
}

func (e *TooLargeError) Error() string {
	msg := fmt.Sprintf("the response is larger than %s and was read no further", sizeOf(e.Limit))
	if e.Setting != "" {
		msg += fmt.Sprintf(" (%s sets the cap, in MiB)", e.Setting)
	}
	return msg
}

// sizeOf formats n bytes in MiB when it is whole MiB, in bytes otherwise.
func sizeOf(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// LimitBody returns body reading at most limit bytes: a read past them
// fails with a *TooLargeError, and so does the first read of a body that
// announces a larger ContentLength (pass -1 when unknown). Closing it
// closes body. A limit of 0 or less means DefaultMaxResponseBytes.
func LimitBody(body io.ReadCloser, contentLength, limit int64) io.ReadCloser {
	return LimitBodySetBy(body, contentLength, limit, MaxResponseEnv)
}

// LimitBodySetBy is LimitBody for a cap that setting sets (the
// TooLargeError names it; "" when nothing does): the body of any server's
// answer, not only a provider's.
func LimitBodySetBy(body io.ReadCloser, contentLength, limit int64, setting string) io.ReadCloser {
	if limit <= 0 {
		limit = DefaultMaxResponseBytes
	}
	l := &limitedBody{body: body, left: limit, tooLarge: &TooLargeError{Limit: limit, Setting: setting}}
	if contentLength > limit {
		l.left = -1
	}
	return l
}

type limitedBody struct {
	body     io.ReadCloser
	left     int64 // bytes that may still be read; -1 once the body is known too large
	tooLarge *TooLargeError
}

func (l *limitedBody) Read(p []byte) (int, error) {
	if l.left < 0 {
		return 0, l.tooLarge
	}
	if l.left == 0 {
		// At the cap: the body may end here, or go on.
		var one [1]byte
		n, err := l.body.Read(one[:])
		if n > 0 {
			l.left = -1
			return 0, l.tooLarge
		}
		return 0, err
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.body.Read(p)
	l.left -= int64(n)
	return n, err
}

func (l *limitedBody) Close() error { return l.body.Close() }
