package llmtest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/llmtest"
)

// hangGuard bounds how long a test waits for something that should happen
// at once. It guards the run against a hang; it is no performance target.
const hangGuard = 30 * time.Second

// answer is what a raw request to a fake got back.
type answer struct {
	status int
	header http.Header
	body   map[string]any
	raw    string
}

// post sends body to url with the headers, as a vendor's client would.
func post(t *testing.T, ctx context.Context, url string, header map[string]string, body string) (answer, error) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return answer{}, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return answer{}, err
	}
	a := answer{status: resp.StatusCode, header: resp.Header, raw: string(raw)}
	_ = json.Unmarshal(raw, &a.body)
	return a, nil
}

var openAIAuth = map[string]string{"Authorization": "Bearer sk-test"}

const helloRequest = `{"model":"gpt-test","messages":[{"role":"user","content":"hello"}]}`

func newOpenAI(t *testing.T, model llm.Model) *llmtest.OpenAIServer {
	t.Helper()
	s := llmtest.NewOpenAIServer(model)
	t.Cleanup(s.Close)
	return s
}

func hello() *llmtest.Scripted {
	return &llmtest.Scripted{Rules: []llmtest.Rule{{Text: "hello back"}}}
}

func TestFakeFaults(t *testing.T) {
	tests := []struct {
		name       string
		inject     func(*llmtest.Fake)
		wantStatus int
		wantHeader string // the Retry-After wanted
		wantIn     string // a substring of the body
	}{
		{"no fault", func(*llmtest.Fake) {}, 200, "", "hello back"},
		{"429 with Retry-After", func(f *llmtest.Fake) { f.FailNext(429, 2*time.Second) }, 429, "2", "rate_limit_exceeded"},
		{"fractional Retry-After", func(f *llmtest.Fake) { f.FailNext(429, 1500*time.Millisecond) }, 429, "1.5", "rate_limit_exceeded"},
		{"500 without Retry-After", func(f *llmtest.Fake) { f.FailNext(500, 0) }, 500, "", "server_error"},
		{"401", func(f *llmtest.Fake) { f.FailNext(401, 0) }, 401, "", "invalid_api_key"},
		{"malformed", func(f *llmtest.Fake) { f.MalformedNext() }, 200, "", `"content":"The answer is`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newOpenAI(t, hello())
			tc.inject(&s.Fake)
			got, err := post(t, t.Context(), s.URL+"/chat/completions", openAIAuth, helloRequest)
			if err != nil {
				t.Fatal(err)
			}
			if got.status != tc.wantStatus {
				t.Errorf("status = %d, want %d; body %s", got.status, tc.wantStatus, got.raw)
			}
			if ra := got.header.Get("Retry-After"); ra != tc.wantHeader {
				t.Errorf("Retry-After = %q, want %q", ra, tc.wantHeader)
			}
			if !strings.Contains(got.raw, tc.wantIn) {
				t.Errorf("body = %s, want it to contain %q", got.raw, tc.wantIn)
			}
			if got.header.Get("x-request-id") == "" {
				t.Errorf("no x-request-id header")
			}
			if tc.wantStatus == 200 && tc.name == "malformed" && json.Valid([]byte(got.raw)) {
				t.Errorf("malformed body %s is valid JSON", got.raw)
			}
			// A fault is consumed by one request: the next is answered.
			again, err := post(t, t.Context(), s.URL+"/chat/completions", openAIAuth, helloRequest)
			if err != nil || again.status != 200 {
				t.Errorf("next request: status %d, %v; want 200", again.status, err)
			}
		})
	}
}

func TestFakeCounts(t *testing.T) {
	s := newOpenAI(t, hello())
	s.FailNext(429, time.Millisecond)
	s.FailNext(429, 0)
	bodies := []string{
		`{"model":"a","messages":[{"role":"user","content":"1"}]}`,
		`{"model":"b","messages":[{"role":"user","content":"2"}]}`,
		`{"model":"c","messages":[{"role":"user","content":"3"}]}`,
	}
	for _, b := range bodies {
		if _, err := post(t, t.Context(), s.URL+"/chat/completions", openAIAuth, b); err != nil {
			t.Fatal(err)
		}
	}
	if got := s.Requests(); got != 3 {
		t.Errorf("Requests() = %d, want 3", got)
	}
	if got := s.RateLimited(); got != 2 {
		t.Errorf("RateLimited() = %d, want 2", got)
	}
	got := s.Bodies()
	if len(got) != len(bodies) {
		t.Fatalf("Bodies() has %d bodies, want %d", len(got), len(bodies))
	}
	for i := range bodies {
		if string(got[i]) != bodies[i] {
			t.Errorf("Bodies()[%d] = %s, want %s", i, got[i], bodies[i])
		}
	}
}

// blocking is a backing model that holds every request until released, and
// says when each arrives.
type blocking struct {
	arrived chan struct{}
	release chan struct{}
}

func (b *blocking) Generate(ctx context.Context, req *llm.Request) (*llm.Response, error) {
	b.arrived <- struct{}{}
	select {
	case <-b.release:
		return &llm.Response{Text: "done", FinishReason: llm.FinishStop}, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func TestFakeMaxInFlight(t *testing.T) {
	const limit, extra = 2, 3
	model := &blocking{arrived: make(chan struct{}, limit), release: make(chan struct{})}
	s := newOpenAI(t, model)
	s.MaxInFlight = limit
	s.LimitRetryAfter = 3 * time.Second

	ctx, cancel := context.WithTimeout(t.Context(), hangGuard)
	defer cancel()
	var wg sync.WaitGroup
	held := make([]answer, limit)
	for i := range limit {
		wg.Go(func() {
			held[i], _ = post(t, ctx, s.URL+"/chat/completions", openAIAuth, helloRequest)
		})
	}
	for range limit {
		select {
		case <-model.arrived:
		case <-ctx.Done():
			t.Fatal("the held requests never reached the model")
		}
	}
	// Both slots are taken: every further request is turned away.
	for range extra {
		got, err := post(t, ctx, s.URL+"/chat/completions", openAIAuth, helloRequest)
		if err != nil {
			t.Fatal(err)
		}
		if got.status != 429 || got.header.Get("Retry-After") != "3" {
			t.Errorf("status %d, Retry-After %q; want 429, 3", got.status, got.header.Get("Retry-After"))
		}
	}
	close(model.release)
	wg.Wait()
	for i, a := range held {
		if a.status != 200 {
			t.Errorf("held request %d: status %d, want 200", i, a.status)
		}
	}
	if got, want := s.RateLimited(), extra; got != want {
		t.Errorf("RateLimited() = %d, want %d", got, want)
	}
	if got, want := s.Requests(), limit+extra; got != want {
		t.Errorf("Requests() = %d, want %d", got, want)
	}
	// The slots are free again.
	if got, _ := post(t, ctx, s.URL+"/chat/completions", openAIAuth, helloRequest); got.status != 200 {
		t.Errorf("after the release: status %d, want 200", got.status)
	}
}

func TestFakeHangEndsWithTheClient(t *testing.T) {
	s := newOpenAI(t, hello())
	s.HangNext()
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	_, err := post(t, ctx, s.URL+"/chat/completions", openAIAuth, helloRequest)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error = %v, want the deadline", err)
	}
	if got, _ := post(t, t.Context(), s.URL+"/chat/completions", openAIAuth, helloRequest); got.status != 200 {
		t.Errorf("next request: status %d, want 200", got.status)
	}
}

func TestFakeLatency(t *testing.T) {
	s := newOpenAI(t, hello())
	s.Latency = time.Hour
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if _, err := post(t, ctx, s.URL+"/chat/completions", openAIAuth, helloRequest); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error = %v, want the deadline: the latency was not applied", err)
	}
}

func TestFakeCloseReleasesHangingRequests(t *testing.T) {
	s := llmtest.NewOpenAIServer(hello())
	s.HangNext()
	sent := make(chan error, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodPost, s.URL+"/chat/completions", bytes.NewReader([]byte(helloRequest)))
		req.Header.Set("Authorization", "Bearer sk-test")
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		sent <- err
	}()
	// Wait until the server holds the request, then close it.
	deadline := time.Now().Add(hangGuard)
	for s.Requests() == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	closed := make(chan struct{})
	go func() { s.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(hangGuard):
		t.Fatal("Close hangs with a hanging request")
	}
	select {
	case err := <-sent:
		if err == nil {
			t.Errorf("the hanging request got an answer, want its connection dropped")
		}
	case <-time.After(hangGuard):
		t.Fatal("the hanging request never ended")
	}
}

func TestFakeModelErrors(t *testing.T) {
	tests := []struct {
		name       string
		err        error
		wantStatus int
		wantRetry  string
		wantIn     string
	}{
		{"an APIError keeps its status", &llm.APIError{StatusCode: 503, Message: "overloaded", RetryAfter: 2 * time.Second}, 503, "2", "overloaded"},
		{"another error is a 500", errors.New("boom"), 500, "", "boom"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newOpenAI(t, &llmtest.Scripted{Rules: []llmtest.Rule{{Err: tc.err}}})
			got, err := post(t, t.Context(), s.URL+"/chat/completions", openAIAuth, helloRequest)
			if err != nil {
				t.Fatal(err)
			}
			if got.status != tc.wantStatus || got.header.Get("Retry-After") != tc.wantRetry || !strings.Contains(got.raw, tc.wantIn) {
				t.Errorf("got %d, Retry-After %q, body %s; want %d, %q, a body with %q", got.status, got.header.Get("Retry-After"), got.raw, tc.wantStatus, tc.wantRetry, tc.wantIn)
			}
		})
	}
}

// TestFakeSpoiledAnswers checks the faults real servers were seen to
// commit in a 200 answer, on both vendors' fakes.
func TestFakeSpoiledAnswers(t *testing.T) {
	lookup := &llmtest.Scripted{Rules: []llmtest.Rule{{Text: "Let me look.", ToolCalls: []llm.ToolCall{
		{ID: "call_1", Name: "get_order_status", Arguments: json.RawMessage(`{ "order_id" : "12345" }`)},
	}}}}
	vendors := []struct {
		name  string
		start func(t *testing.T) (*llmtest.Fake, func() (answer, error))
		// The wire paths of what the faults spoil.
		finish, wantLength, text, args, usage string
	}{
		{"openai", func(t *testing.T) (*llmtest.Fake, func() (answer, error)) {
			s := newOpenAI(t, lookup)
			return &s.Fake, func() (answer, error) {
				return post(t, t.Context(), s.URL+"/chat/completions", openAIAuth, helloRequest)
			}
		}, "choices.0.finish_reason", "length", "choices.0.message.content", "choices.0.message.tool_calls.0.function.arguments", "usage.prompt_tokens"},
		{"anthropic", func(t *testing.T) (*llmtest.Fake, func() (answer, error)) {
			s := newAnthropic(t, lookup)
			return &s.Fake, func() (answer, error) {
				return post(t, t.Context(), s.URL+"/v1/messages", anthropicAuth, anthropicHello)
			}
		}, "stop_reason", "max_tokens", "content.0.text", "content.1.input", "usage.input_tokens"},
	}
	for _, v := range vendors {
		t.Run(v.name+"/truncated", func(t *testing.T) {
			fake, ask := v.start(t)
			fake.TruncateNext()
			got, err := ask()
			if err != nil {
				t.Fatal(err)
			}
			if finish := at(got.body, v.finish); finish != v.wantLength {
				t.Errorf("%s = %v, want %s", v.finish, finish, v.wantLength)
			}
			if text := at(got.body, v.text); text != "Let me" {
				t.Errorf("%s = %v, want the text cut in half, %q", v.text, text, "Let me")
			}
			wantArgs := any(`{ "order_id"`) // a string holding the cut JSON
			if v.name == "anthropic" {
				wantArgs = map[string]any{} // the wire holds objects only
			}
			if diff := cmp.Diff(wantArgs, at(got.body, v.args)); diff != "" {
				t.Errorf("%s (-want +got):\n%s", v.args, diff)
			}
		})
		t.Run(v.name+"/numeric content", func(t *testing.T) {
			fake, ask := v.start(t)
			fake.NumericContentNext()
			got, err := ask()
			if err != nil {
				t.Fatal(err)
			}
			if text := at(got.body, v.text); text != float64(42) {
				t.Errorf("%s = %#v, want the number 42; body %s", v.text, text, got.raw)
			}
		})
		t.Run(v.name+"/negative usage", func(t *testing.T) {
			fake, ask := v.start(t)
			fake.NegativeUsageNext()
			got, err := ask()
			if err != nil {
				t.Fatal(err)
			}
			if n, _ := at(got.body, v.usage).(float64); n >= 0 {
				t.Errorf("%s = %v, want a negative count", v.usage, at(got.body, v.usage))
			}
		})
		t.Run(v.name+"/impossible usage", func(t *testing.T) {
			fake, ask := v.start(t)
			fake.ImpossibleUsageNext()
			got, err := ask()
			if err != nil {
				t.Fatal(err)
			}
			if n, _ := at(got.body, v.usage).(float64); n < 1e18 || !strings.Contains(string(got.raw), "9223372036854775807") {
				t.Errorf("%s = %v, want 9223372036854775807; body %s", v.usage, at(got.body, v.usage), got.raw)
			}
		})
		t.Run(v.name+"/oversized", func(t *testing.T) {
			fake, ask := v.start(t)
			fake.OversizedNext(1 << 20)
			got, err := ask()
			if err != nil {
				t.Fatal(err)
			}
			if len(got.raw) <= 1<<20 || at(got.body, v.usage) == nil {
				t.Errorf("got %d bytes with usage %v, want more than 1 MiB holding the whole answer", len(got.raw), at(got.body, v.usage))
			}
			// A fault is consumed by one request: the next is answered.
			again, err := ask()
			if err != nil || len(again.raw) > 4096 {
				t.Errorf("next request: %d bytes, %v; want a plain answer", len(again.raw), err)
			}
		})
	}
}

// at returns the value at a dotted path (object keys and array indexes) of
// a decoded JSON document, or nil.
func at(doc any, path string) any {
	for _, key := range strings.Split(path, ".") {
		switch v := doc.(type) {
		case map[string]any:
			doc = v[key]
		case []any:
			i, err := strconv.Atoi(key)
			if err != nil || i >= len(v) {
				return nil
			}
			doc = v[i]
		default:
			return nil
		}
	}
	return doc
}
