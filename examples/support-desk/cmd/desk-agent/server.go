package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"

	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/judge"
)

// A chatRequest is what POST /chat takes.
type chatRequest struct {
	SessionID string            `json:"session_id"`
	Message   string            `json:"message"`
	Metadata  map[string]string `json:"metadata"`
}

// A chatReply is what POST /chat answers: text and usage, but not the tool
// calls, as many agent APIs do.
type chatReply struct {
	Reply string    `json:"reply"`
	Usage wireUsage `json:"usage"`
}

// wireUsage is a reply's usage as Gavel's http adapter reads it by
// default. Its cost is left out when it is unknown (a model without a
// price), so that Gavel shows it unpriced rather than free.
type wireUsage struct {
	InputTokens  int64    `json:"input_tokens"`
	OutputTokens int64    `json:"output_tokens"`
	CachedTokens int64    `json:"cached_tokens"`
	CostUSD      *float64 `json:"cost_usd,omitempty"`
}

func newWireUsage(u judge.Usage) wireUsage {
	w := wireUsage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens, CachedTokens: u.CachedTokens}
	if !u.Unpriced {
		w.CostUSD = &u.CostUSD
	}
	return w
}

// A sessionRequest is what POST /open and POST /close take.
type sessionRequest struct {
	SessionID string `json:"session_id"`
}

// server keeps a session per id, from its open (or first message) to its
// close.
type server struct {
	agent agent.Agent

	mu       sync.Mutex
	sessions map[string]*session
}

// A session answers one message at a time.
type session struct {
	mu sync.Mutex
	s  agent.Session
}

func newServer(a agent.Agent) http.Handler {
	s := &server{agent: a, sessions: map[string]*session{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /chat", s.chat)
	mux.HandleFunc("POST /open", s.open)
	mux.HandleFunc("POST /close", s.close)
	return mux
}

// open opens a session, resuming it if it was closed before.
func (s *server) open(w http.ResponseWriter, r *http.Request) {
	id, ok := sessionID(w, r)
	if !ok {
		return
	}
	if _, err := s.session(r.Context(), id); err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// close closes a session: the agent saves it as a checkpoint, and lets
// go of it until it is opened again. Closing an unknown session does
// nothing.
func (s *server) close(w http.ResponseWriter, r *http.Request) {
	id, ok := sessionID(w, r)
	if !ok {
		return
	}
	s.mu.Lock()
	sess := s.sessions[id]
	delete(s.sessions, id)
	s.mu.Unlock()
	if sess != nil {
		sess.mu.Lock()
		err := sess.s.Close(r.Context())
		sess.mu.Unlock()
		if err != nil {
			http.Error(w, fmt.Sprintf("close session %s: %v", id, err), http.StatusInternalServerError)
			return
		}
	}
	w.WriteHeader(http.StatusNoContent)
}

// sessionID reads the body of an open or close request, answering 400
// when it names no session.
func sessionID(w http.ResponseWriter, r *http.Request) (string, bool) {
	var req sessionRequest
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(&req); err != nil || req.SessionID == "" {
		http.Error(w, "want a JSON body {session_id}", http.StatusBadRequest)
		return "", false
	}
	return req.SessionID, true
}

func (s *server) chat(w http.ResponseWriter, r *http.Request) {
	var req chatRequest
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(&req); err != nil {
		http.Error(w, "want a JSON body {session_id, message}: "+err.Error(), http.StatusBadRequest)
		return
	}
	if req.SessionID == "" || req.Message == "" {
		http.Error(w, "session_id and message are required", http.StatusBadRequest)
		return
	}
	sess, err := s.session(r.Context(), req.SessionID)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	sess.mu.Lock()
	reply, err := sess.s.Send(r.Context(), agent.Message{Text: req.Message, Metadata: req.Metadata})
	sess.mu.Unlock()
	if err != nil {
		http.Error(w, fmt.Sprintf("the agent did not answer: %v", err), http.StatusBadGateway)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(chatReply{Reply: reply.Text, Usage: newWireUsage(reply.Usage)})
}

// session returns the session with id, opening it if it is not open.
func (s *server) session(ctx context.Context, id string) (*session, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sess, ok := s.sessions[id]; ok {
		return sess, nil
	}
	opened, err := s.agent.Open(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("open session %s: %w", id, err)
	}
	sess := &session{s: opened}
	s.sessions[id] = sess
	return sess, nil
}
