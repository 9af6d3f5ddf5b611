package openai_test

import (
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gavelhq/gavel/llm/openai"
)

// completion is a minimal chat completion, the answer of barrierServer.
const completion = `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"gpt-test",` +
	`"choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}],` +
	`"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`

// barrierServer answers requests in waves of n: each request waits until n
// are in flight, so that n connections are busy at once. It counts the
// connections clients open.
type barrierServer struct {
	*httptest.Server
	n        int
	newConns atomic.Int64

	mu      sync.Mutex
	arrived int
	release chan struct{}
}

func newBarrierServer(t *testing.T, n int) *barrierServer {
	s := &barrierServer{n: n, release: make(chan struct{})}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(s.handle))
	s.Config.ConnState = func(_ net.Conn, state http.ConnState) {
		if state == http.StateNew {
			s.newConns.Add(1)
		}
	}
	s.Start()
	t.Cleanup(s.Close)
	return s
}

func (s *barrierServer) handle(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	release := s.release
	if s.arrived++; s.arrived == s.n {
		close(s.release)
		s.arrived, s.release = 0, make(chan struct{})
	}
	s.mu.Unlock()
	select {
	case <-release:
	case <-r.Context().Done():
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write([]byte(completion))
}

func TestConcurrentCallsReuseConnections(t *testing.T) {
	// http.DefaultClient keeps two idle connections per host: each wave
	// after the first would open n-2 new ones.
	const n, waves = 32, 3
	s := newBarrierServer(t, n)
	m, err := openai.New(openai.Config{APIKey: "sk-test", BaseURL: s.URL + "/v1", Model: "gpt-test"})
	if err != nil {
		t.Fatal(err)
	}
	for wave := range waves {
		var wg sync.WaitGroup
		errs := make(chan error, n)
		for range n {
			wg.Go(func() {
				if _, err := generate(t, m, ask("hi")); err != nil {
					errs <- err
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatalf("wave %d: %v", wave+1, err)
		}
	}
	if got := s.newConns.Load(); got != n {
		t.Errorf("%d waves of %d concurrent calls opened %d connections, want %d (one per call in flight, reused)", waves, n, got, n)
	}
}
