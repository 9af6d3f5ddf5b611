package llmtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"

	"github.com/gavelhq/gavel/llm/gateway"
)

// A Fake is what the fake vendor servers (OpenAIServer, AnthropicServer)
// share, embedded in each: the faults a test injects and the bookkeeping it
// asserts on. NewOpenAIServer and NewAnthropicServer make one. It is safe
// for concurrent use; set its fields before sending requests.
//
// A request meets, in order: the MaxInFlight limit, the Latency, the next
// scripted fault, and only then the vendor's own checks (key, validation)
// and the backing model. The faults that spoil an answer (TruncateNext,
// NumericContentNext, NegativeUsageNext, ImpossibleUsageNext,
// OversizedNext) apply to the
// backing model's answer to that request.
type Fake struct {
	// Latency delays every answer by this long.
	Latency time.Duration
	// MaxInFlight, when positive, is how many requests the server works on
	// at once. A request above it is answered 429 with a Retry-After header,
	// as a vendor's rate limit would be; RateLimited counts them.
	MaxInFlight int
	// LimitRetryAfter is the Retry-After of the 429s MaxInFlight sends.
	// Defaults to 1 s.
	LimitRetryAfter time.Duration

	srv        *httptest.Server
	idHeader   string // the header carrying the request id
	writeError func(w http.ResponseWriter, status int)
	serve      func(w http.ResponseWriter, r *http.Request, body []byte, id string, x fault)

	closing   chan struct{} // closed by Close, to release hanging requests
	closeOnce sync.Once

	mu          sync.Mutex
	faults      []fault
	inFlight    int
	requests    int
	rateLimited int
	bodies      []json.RawMessage
	// first is when the first request came in, answered when the last
	// answer was written.
	first, answered time.Time
}

type faultKind int

const (
	faultFail faultKind = iota + 1
	faultMalformed
	faultHang
	faultReset
	// The faults below spoil the answer of the backing model.
	faultTruncate
	faultNumericContent
	faultNegativeUsage
	faultImpossibleUsage
	faultOversized
)

// A fault is one scripted failure, consumed by one request.
type fault struct {
	kind       faultKind
	status     int
	retryAfter time.Duration
	size       int64 // the body size of faultOversized
}

// start serves the vendor's handler on a loopback port.
func (f *Fake) start(idHeader string, writeError func(http.ResponseWriter, int), serve func(http.ResponseWriter, *http.Request, []byte, string, fault)) {
	f.idHeader, f.writeError, f.serve = idHeader, writeError, serve
	f.closing = make(chan struct{})
	f.srv = httptest.NewServer(http.HandlerFunc(f.handle))
}

// FailNext makes the next request fail with status, in the vendor's error
// shape, with a Retry-After header of retryAfter (in seconds, fractions
// allowed) when it is positive.
func (f *Fake) FailNext(status int, retryAfter time.Duration) {
	f.push(fault{kind: faultFail, status: status, retryAfter: retryAfter})
}

// MalformedNext makes the next request answer 200 with a truncated JSON
// body.
func (f *Fake) MalformedNext() { f.push(fault{kind: faultMalformed}) }

// HangNext makes the next request never answer, until the client gives up
// or the server is closed; then its connection is dropped.
func (f *Fake) HangNext() { f.push(fault{kind: faultHang}) }

// ResetNext makes the next request's connection reset (a TCP RST)
// before any byte of an answer, as a load balancer or a vendor's front
// end under load does: the client reads "connection reset by peer".
func (f *Fake) ResetNext() { f.push(fault{kind: faultReset}) }

// TruncateNext makes the next answer one cut off by the token limit, as a
// server that reached max_tokens sends it: finish_reason "length" (OpenAI)
// or stop_reason "max_tokens" (Anthropic), the text cut in half and each
// tool call's arguments cut in the middle. OpenAI's wire carries arguments
// as a string, so they come as the broken JSON they are (a llama.cpp server
// was seen sending `{ "order_id" : "`); Anthropic's carries an object, so a
// call whose cut arguments are no longer one comes with {}.
func (f *Fake) TruncateNext() { f.push(fault{kind: faultTruncate}) }

// NumericContentNext makes the next answer carry a number where the
// vendor's text is: OpenAI's message content, Anthropic's text block.
func (f *Fake) NumericContentNext() { f.push(fault{kind: faultNumericContent}) }

// NegativeUsageNext makes the next answer count a negative number of input
// tokens in its usage.
func (f *Fake) NegativeUsageNext() { f.push(fault{kind: faultNegativeUsage}) }

// ImpossibleUsageNext makes the next answer count 2^63-1 input tokens in
// its usage, more than any call could spend: summed with anything, such a
// count wrapped around to a negative total.
func (f *Fake) ImpossibleUsageNext() { f.push(fault{kind: faultImpossibleUsage}) }

// OversizedNext makes the next answer a body of more than size bytes: the
// answer with a padding field of size bytes in front, streamed as it is
// written, so a test of a 300 MB reply allocates nothing of the kind.
// Whatever the client does not read is never written.
func (f *Fake) OversizedNext(size int64) { f.push(fault{kind: faultOversized, size: size}) }

func (f *Fake) push(x fault) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.faults = append(f.faults, x)
}

// Requests returns how many requests the server has received.
func (f *Fake) Requests() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.requests
}

// RateLimited returns how many 429 answers the server has sent, scripted
// or for MaxInFlight.
func (f *Fake) RateLimited() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.rateLimited
}

// FirstRequest returns when the server received its first request; the
// zero time before any.
func (f *Fake) FirstRequest() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.first
}

// LastAnswer returns when the server finished writing its latest answer
// (an error or a 429 included); the zero time before any.
func (f *Fake) LastAnswer() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.answered
}

// Bodies returns the raw bodies of the requests received, in order, for
// assertions on their wire shape.
func (f *Fake) Bodies() []json.RawMessage {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]json.RawMessage(nil), f.bodies...)
}

// Close releases hanging requests and shuts the server down.
func (f *Fake) Close() {
	f.closeOnce.Do(func() { close(f.closing) })
	f.srv.Close()
}

// maxBody bounds the request bodies read.
const maxBody = 32 << 20

func (f *Fake) handle(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	if err != nil {
		panic(http.ErrAbortHandler)
	}

	defer func() {
		f.mu.Lock()
		f.answered = time.Now()
		f.mu.Unlock()
	}()
	f.mu.Lock()
	if f.requests == 0 {
		f.first = time.Now()
	}
	f.requests++
	id := fmt.Sprintf("req_fake_%06d", f.requests)
	f.bodies = append(f.bodies, json.RawMessage(body))
	limited := f.MaxInFlight > 0 && f.inFlight >= f.MaxInFlight
	if !limited {
		f.inFlight++
	}
	limitRetryAfter := f.LimitRetryAfter
	latency := f.Latency
	f.mu.Unlock()

	w.Header().Set(f.idHeader, id)
	if limited {
		if limitRetryAfter <= 0 {
			limitRetryAfter = time.Second
		}
		f.fail(w, http.StatusTooManyRequests, limitRetryAfter)
		return
	}
	defer func() {
		f.mu.Lock()
		f.inFlight--
		f.mu.Unlock()
	}()

	if latency > 0 && !f.wait(r.Context(), latency) {
		panic(http.ErrAbortHandler)
	}
	x := f.pop()
	switch x.kind {
	case faultFail:
		f.fail(w, x.status, x.retryAfter)
		return
	case faultMalformed:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		io.WriteString(w, malformedBody)
		return
	case faultHang:
		f.wait(r.Context(), -1)
		panic(http.ErrAbortHandler) // drop the connection without an answer
	case faultReset:
		reset(w)
		return
	}
	f.serve(w, r, body, id, x)
}

// reset closes the connection of w with a TCP RST, before any answer:
// a linger of zero makes Close send RST instead of FIN.
func reset(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	if tcp, ok := conn.(*net.TCPConn); ok {
		tcp.SetLinger(0)
	}
	conn.Close()
}

// malformedBody is a response cut off in the middle.
const malformedBody = `{"id":"fake-malformed","type":"message","choices":[{"index":0,"message":{"role":"assistant","content":"The answer is`

// wait waits for d (forever when d < 0) and reports whether it elapsed
// before the request or the server ended.
func (f *Fake) wait(ctx context.Context, d time.Duration) bool {
	var elapsed <-chan time.Time
	if d >= 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		elapsed = t.C
	}
	select {
	case <-elapsed:
		return true
	case <-ctx.Done():
	case <-f.closing:
	}
	return false
}

func (f *Fake) pop() fault {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.faults) == 0 {
		return fault{}
	}
	x := f.faults[0]
	f.faults = f.faults[1:]
	return x
}

// fail answers status in the vendor's error shape, with a Retry-After
// header when retryAfter is positive.
func (f *Fake) fail(w http.ResponseWriter, status int, retryAfter time.Duration) {
	if retryAfter > 0 {
		w.Header().Set("Retry-After", gateway.RetryAfter(retryAfter))
	}
	f.countStatus(status)
	f.writeError(w, status)
}

// countStatus counts an answer of status: RateLimited counts the 429s.
func (f *Fake) countStatus(status int) {
	if status != http.StatusTooManyRequests {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.rateLimited++
}

// modelFailed answers an error of the backing model with write, as
// gateway.ModelError says: an *llm.APIError with its status, message and
// Retry-After, anything else as a 500 quoting it. When the client has
// gone, the connection is dropped.
func (f *Fake) modelFailed(ctx context.Context, w http.ResponseWriter, err error, write func(status int, message string)) {
	if ctx.Err() != nil {
		panic(http.ErrAbortHandler)
	}
	status, message, retryAfter := gateway.ModelError(err)
	if retryAfter > 0 {
		w.Header().Set("Retry-After", gateway.RetryAfter(retryAfter))
	}
	f.countStatus(status)
	write(status, message)
}

// negativeTokens is the count NegativeUsageNext puts in an answer's usage.
const negativeTokens = -999_999

// impossibleTokens is the count ImpossibleUsageNext puts in an answer's
// usage: the largest int64.
const impossibleTokens = math.MaxInt64

// spoilsUsage says whether a fault puts a wrong count in an answer's usage,
// and returns the count.
func spoilsUsage(kind faultKind) (int64, bool) {
	switch kind {
	case faultNegativeUsage:
		return negativeTokens, true
	case faultImpossibleUsage:
		return impossibleTokens, true
	}
	return 0, false
}

// numericContent is the number NumericContentNext puts where the text is.
const numericContent = 42

// writeAnswer answers 200 with the vendor's answer b (JSON), spoiled as x
// says: spoil changes the decoded document for the faults that put a
// wrong value in it (numeric content, negative or impossible usage), and
// an oversized answer gets its padding in front.
func writeAnswer(w http.ResponseWriter, b []byte, x fault, spoil func(doc map[string]any, kind faultKind)) {
	if _, usage := spoilsUsage(x.kind); !usage && x.kind != faultNumericContent && x.kind != faultOversized {
		writeBody(w, http.StatusOK, b)
		return
	}
	if x.kind != faultOversized {
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.UseNumber() // counts stay integers
		var doc map[string]any
		if err := dec.Decode(&doc); err != nil {
			panic(fmt.Sprintf("llmtest: decoding an answer: %v", err))
		}
		spoil(doc, x.kind)
		spoiled, err := json.Marshal(doc)
		if err != nil {
			panic(fmt.Sprintf("llmtest: encoding an answer: %v", err))
		}
		writeBody(w, http.StatusOK, spoiled)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	if _, err := io.WriteString(w, `{"llmtest_padding":"`); err != nil {
		return
	}
	chunk := bytes.Repeat([]byte("a"), 64<<10)
	for left := x.size; left > 0; left -= int64(len(chunk)) {
		if _, err := w.Write(chunk[:min(left, int64(len(chunk)))]); err != nil {
			return // the client stopped reading
		}
	}
	io.WriteString(w, `",`)
	w.Write(b[1:])
}

// writeBody answers status with the JSON body b.
func writeBody(w http.ResponseWriter, status int, b []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(b)
}
