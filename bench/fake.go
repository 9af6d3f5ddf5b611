package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/llmtest"
)

// benchKey is the API key gavel sends the fake: any key will do, but
// llm/openai sends one only to the OPENAI_BASE_URL the environment names.
const benchKey = "sk-bench-not-a-real-key"

// startFake starts a fake OpenAI server on a loopback port that answers
// after latency and allows at most inFlight requests at once (0: no
// limit); above it, it answers 429 with a Retry-After of retryAfter.
func startFake(latency time.Duration, inFlight int, retryAfter time.Duration) *llmtest.OpenAIServer {
	s := llmtest.NewOpenAIServer(llm.Func(answer))
	s.Key = benchKey
	s.Latency = latency
	s.MaxInFlight = inFlight
	s.LimitRetryAfter = retryAfter
	return s
}

// verdict is the rubric judge's answer: the structured output llmjudge
// asks for ({reasoning, score}), a passing score.
const verdict = `{"reasoning":"The response repeats the ticket number the user gave.","score":0.9}`

// answer plays both models. A request for structured output is the rubric
// judge's, and gets a passing verdict; any other is the agent's, and gets
// the user's last message echoed, which holds the text the case's contains
// rule looks for.
func answer(_ context.Context, req *llm.Request) (*llm.Response, error) {
	usage := llm.Usage{InputTokens: 120, OutputTokens: 30}
	if req.ResponseSchema != nil {
		return &llm.Response{Text: verdict, FinishReason: llm.FinishStop, Usage: usage}, nil
	}
	var last string
	for _, m := range req.Messages {
		if m.Role == llm.RoleUser {
			last = m.Content
		}
	}
	return &llm.Response{Text: "Noted: " + strings.TrimSpace(last), FinishReason: llm.FinishStop, Usage: usage}, nil
}

// serveFake runs a fake server until ctx ends, after printing the
// environment that points gavel at it. At the end it prints what it
// received.
func serveFake(ctx context.Context, latency time.Duration, inFlight int) error {
	s := startFake(latency, inFlight, retryAfter)
	defer s.Close()
	fmt.Printf("export OPENAI_BASE_URL=%s OPENAI_API_KEY=%s\n", s.URL, benchKey)
	fmt.Fprintln(os.Stderr, "bench: serving until interrupted (Ctrl-C)")
	<-ctx.Done()
	fmt.Fprintf(os.Stderr, "bench: %d calls, %d answered 429\n", s.Requests(), s.RateLimited())
	return nil
}
