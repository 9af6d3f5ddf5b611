package llmtest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/gavelhq/gavel/llm"
)

// A Rule answers the requests it matches.
type Rule struct {
	// Match is a substring of the request's last message; "" matches every
	// request.
	Match string
	// When, if set, decides instead of Match.
	When func(req *llm.Request) bool

	// The answer: text, tool calls, or an error to return.
	Text      string
	ToolCalls []llm.ToolCall
	Err       error
	// Respond, if set, decides instead of Match and When and writes the
	// answer from the request: when it reports a match, the Text,
	// ToolCalls and Err of the rule it returns are used.
	Respond func(req *llm.Request) (Rule, bool)
}

func (r Rule) matches(req *llm.Request) bool {
	if r.When != nil {
		return r.When(req)
	}
	if r.Match == "" {
		return true
	}
	if len(req.Messages) == 0 {
		return false
	}
	return strings.Contains(req.Messages[len(req.Messages)-1].Content, r.Match)
}

// A Scripted model answers every request with the first of its rules that
// matches, in order. It plays the agent, the judge or the simulated user in
// tests and in the offline demo. It estimates token usage from text length
// (four characters a token), so meters and budgets have something to count.
//
// It is safe for concurrent use and records every request it gets.
type Scripted struct {
	// Name is the model name its responses report. Defaults to "scripted".
	Name  string
	Rules []Rule

	mu    sync.Mutex
	calls []*llm.Request
}

// Generate answers req from the first matching rule. A request no rule
// matches is an error that quotes the request's last message, so a test
// says what it forgot to script.
func (s *Scripted) Generate(ctx context.Context, req *llm.Request) (*llm.Response, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.calls = append(s.calls, req)
	n := len(s.calls)
	s.mu.Unlock()

	for _, r := range s.Rules {
		if r.Respond != nil {
			answer, ok := r.Respond(req)
			if !ok {
				continue
			}
			r = answer
		} else if !r.matches(req) {
			continue
		}
		if r.Err != nil {
			return nil, r.Err
		}
		resp := &llm.Response{
			Text:         r.Text,
			FinishReason: llm.FinishStop,
			Model:        s.model(req),
			RequestID:    fmt.Sprintf("scripted-%d", n),
			Latency:      time.Microsecond,
			Usage:        llm.Usage{InputTokens: estimateTokens(req), OutputTokens: int64(len(r.Text)/4 + 1)},
		}
		for i, c := range r.ToolCalls {
			if c.ID == "" {
				c.ID = fmt.Sprintf("call_%d_%d", n, i+1)
			}
			resp.ToolCalls = append(resp.ToolCalls, c)
		}
		if len(resp.ToolCalls) > 0 {
			resp.FinishReason = llm.FinishToolCalls
		}
		return resp, nil
	}
	last := ""
	if len(req.Messages) > 0 {
		last = req.Messages[len(req.Messages)-1].Content
	}
	if len(last) > 200 {
		last = last[:200] + "…"
	}
	return nil, fmt.Errorf("scripted model %q: no rule matches the request whose last message is %q", s.model(req), last)
}

// Calls returns the requests the model got, in order.
func (s *Scripted) Calls() []*llm.Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*llm.Request(nil), s.calls...)
}

func (s *Scripted) model(req *llm.Request) string {
	switch {
	case s.Name != "":
		return s.Name
	case req.Model != "":
		return req.Model
	}
	return "scripted"
}

// estimateTokens counts a request's tokens as four characters each.
func estimateTokens(req *llm.Request) int64 {
	chars := 0
	for _, m := range req.Messages {
		chars += len(m.Content)
		for _, c := range m.ToolCalls {
			chars += len(c.Name) + len(c.Arguments)
		}
	}
	return int64(chars/4 + 1)
}
