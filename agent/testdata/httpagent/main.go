// Httpagent is an agent behind an HTTP API, for the tests of revival by
// restart: it remembers each session's messages in memory, and with
// -state DIR also in a file per session there, written at every message,
// so that a restarted httpagent finds its sessions again only with
// -state.
//
//	POST /chat  {"session_id": "s-1", "message": "hi"}  {"reply": "echo: hi (message 1 of this session)"}
//	POST /open, POST /close  {"session_id": "s-1"}       204
//	GET /                                                200: it is up
//
// The message "history" is answered with the session's earlier messages,
// "history: hi | again", or "history: (none)".
//
// -pidfile FILE is written with its process id once it listens, and
// removed once it has stopped listening, so that a restart script can wait
// for it to be gone. It stops at SIGTERM or SIGINT. When -addr is in use
// (the httpagent it replaces is still stopping), it tries again for 10
// seconds.
package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "the `host:port` to listen on")
	state := flag.String("state", "", "a `directory` to keep sessions in; none: memory only")
	pidfile := flag.String("pidfile", "", "a `file` to write the process id to while listening")
	flag.Parse()
	if err := run(*addr, *state, *pidfile); err != nil {
		fmt.Fprintln(os.Stderr, "httpagent:", err)
		os.Exit(1)
	}
}

func run(addr, state, pidfile string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ln, err := listen(ctx, addr)
	if err != nil {
		return err
	}
	if pidfile != "" {
		if err := os.WriteFile(pidfile, []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
			return err
		}
		defer os.Remove(pidfile)
	}
	a := &agent{state: state, sessions: map[string][]string{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /chat", a.chat)
	mux.HandleFunc("POST /open", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })
	mux.HandleFunc("POST /close", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprintln(w, "up") })
	srv := &http.Server{Handler: mux}
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	fmt.Fprintf(os.Stderr, "httpagent: listening on %s\n", ln.Addr())
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// listen listens on addr, trying again while it is in use.
func listen(ctx context.Context, addr string) (net.Listener, error) {
	deadline := time.Now().Add(10 * time.Second)
	for {
		ln, err := net.Listen("tcp", addr)
		if err == nil || !errors.Is(err, syscall.EADDRINUSE) || time.Now().After(deadline) {
			return ln, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

type agent struct {
	state string

	mu       sync.Mutex
	sessions map[string][]string
}

func (a *agent) chat(w http.ResponseWriter, r *http.Request) {
	var req struct {
		SessionID string `json:"session_id"`
		Message   string `json:"message"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.SessionID == "" {
		http.Error(w, "want {session_id, message}", http.StatusBadRequest)
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	heard, ok := a.sessions[req.SessionID]
	if !ok && a.state != "" {
		heard = a.load(req.SessionID)
	}
	var reply string
	if req.Message == "history" {
		reply = "history: (none)"
		if len(heard) > 0 {
			reply = "history: " + strings.Join(heard, " | ")
		}
	} else {
		heard = append(heard, req.Message)
		reply = fmt.Sprintf("echo: %s (message %d of this session)", req.Message, len(heard))
	}
	a.sessions[req.SessionID] = heard
	if a.state != "" {
		if err := a.save(req.SessionID, heard); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]string{"reply": reply})
}

// file is where a session is kept under -state.
func (a *agent) file(id string) string {
	sum := sha256.Sum256([]byte(id))
	return filepath.Join(a.state, hex.EncodeToString(sum[:8])+".json")
}

func (a *agent) load(id string) []string {
	var heard []string
	if data, err := os.ReadFile(a.file(id)); err == nil {
		_ = json.Unmarshal(data, &heard)
	}
	return heard
}

func (a *agent) save(id string, heard []string) error {
	data, err := json.Marshal(heard)
	if err != nil {
		return err
	}
	return os.WriteFile(a.file(id), data, 0o644)
}
