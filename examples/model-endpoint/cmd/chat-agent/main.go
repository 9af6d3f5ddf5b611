// Chat-agent is an agent written without Gavel: a program that speaks
// Gavel's exec protocol (docs/exec-protocol.md) on stdin and stdout, and
// asks its model over a vendor's HTTP API, as an agent built with any
// framework does. Gavel's model endpoint (agent.model_endpoint) stands in
// for the vendor, so its calls are counted, priced, cached, given faults
// and answered, offline, by a script.
//
// The environment chooses the API, as a framework's configuration would:
//
//	CHAT_AGENT_API      openai (the default: Chat Completions at
//	                    $OPENAI_BASE_URL/chat/completions, key
//	                    $OPENAI_API_KEY) or anthropic (Messages at
//	                    $ANTHROPIC_BASE_URL/v1/messages, key
//	                    $ANTHROPIC_API_KEY)
//	CHAT_AGENT_STREAM   1 to stream the answers (server-sent events)
//	CHAT_AGENT_MODEL    the model it asks for (gpt-5-mini or
//	                    claude-haiku-4-5 by default; Gavel's endpoint
//	                    answers with its own whatever it is)
//
// A 429 or a 5xx is asked again, up to three times, after the
// Retry-After the answer gives (at most 5 s); a reply cut off by the
// token limit is passed on as it came.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

const systemPrompt = "You are a customer-support agent for an online shop. Be brief."

type request struct {
	Type    string `json:"type"`
	ID      string `json:"id"`
	Session string `json:"session"`
	Text    string `json:"text"`
}

type message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type agent struct {
	api, model string
	stream     bool
	client     *http.Client

	outMu sync.Mutex
	out   *bufio.Writer

	mu       sync.Mutex
	sessions map[string][]message
}

func main() {
	a := &agent{
		api:      envOr("CHAT_AGENT_API", "openai"),
		stream:   os.Getenv("CHAT_AGENT_STREAM") == "1",
		client:   &http.Client{Timeout: 2 * time.Minute},
		out:      bufio.NewWriter(os.Stdout),
		sessions: map[string][]message{},
	}
	a.model = envOr("CHAT_AGENT_MODEL", map[string]string{"openai": "gpt-5-mini", "anthropic": "claude-haiku-4-5"}[a.api])
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	var wg sync.WaitGroup
	for sc.Scan() {
		var req request
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			fmt.Fprintf(os.Stderr, "chat-agent: bad request %q: %v\n", sc.Text(), err)
			os.Exit(2)
		}
		switch req.Type {
		case "open", "close", "reset":
			a.write(map[string]string{"type": "ok", "id": req.ID})
		case "message":
			wg.Add(1)
			go func() {
				defer wg.Done()
				a.answer(req)
			}()
		default:
			a.write(map[string]string{"type": "error", "id": req.ID, "message": "chat-agent takes no " + req.Type})
		}
	}
	wg.Wait()
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

func (a *agent) write(v any) {
	b, _ := json.Marshal(v)
	a.outMu.Lock()
	defer a.outMu.Unlock()
	a.out.Write(append(b, '\n'))
	a.out.Flush()
}

// answer asks the model with the session's conversation so far and
// replies with its text.
func (a *agent) answer(req request) {
	a.mu.Lock()
	history := append(a.sessions[req.Session], message{Role: "user", Content: req.Text})
	a.mu.Unlock()
	text, err := a.ask(history)
	if err != nil {
		a.write(map[string]string{"type": "error", "id": req.ID, "message": err.Error()})
		return
	}
	a.mu.Lock()
	a.sessions[req.Session] = append(history, message{Role: "assistant", Content: text})
	a.mu.Unlock()
	a.write(map[string]string{"type": "reply", "id": req.ID, "text": text})
}

// ask calls the model, again after a 429 or a 5xx.
func (a *agent) ask(history []message) (string, error) {
	var err error
	for range 3 {
		var wait time.Duration
		var text string
		text, wait, err = a.call(history)
		if err == nil {
			return text, nil
		}
		if wait < 0 {
			return "", err
		}
		time.Sleep(wait)
	}
	return "", err
}

// call makes one call; wait is how long to wait before asking again, or
// negative when asking again is no use.
func (a *agent) call(history []message) (text string, wait time.Duration, err error) {
	var url string
	var body any
	header := http.Header{"Content-Type": {"application/json"}}
	switch a.api {
	case "openai":
		url = strings.TrimSuffix(os.Getenv("OPENAI_BASE_URL"), "/") + "/chat/completions"
		header.Set("Authorization", "Bearer "+os.Getenv("OPENAI_API_KEY"))
		msgs := append([]message{{Role: "system", Content: systemPrompt}}, history...)
		req := map[string]any{"model": a.model, "messages": msgs}
		if a.stream {
			req["stream"] = true
			req["stream_options"] = map[string]bool{"include_usage": true}
		}
		body = req
	case "anthropic":
		url = strings.TrimSuffix(os.Getenv("ANTHROPIC_BASE_URL"), "/") + "/v1/messages"
		header.Set("x-api-key", os.Getenv("ANTHROPIC_API_KEY"))
		header.Set("anthropic-version", "2023-06-01")
		req := map[string]any{"model": a.model, "max_tokens": 1024, "system": systemPrompt, "messages": history}
		if a.stream {
			req["stream"] = true
		}
		body = req
	default:
		return "", -1, fmt.Errorf("CHAT_AGENT_API %q: want openai or anthropic", a.api)
	}
	data, _ := json.Marshal(body)
	hreq, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(data))
	if err != nil {
		return "", -1, err
	}
	hreq.Header = header
	resp, err := a.client.Do(hreq)
	if err != nil {
		return "", time.Second, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		err := fmt.Errorf("the model answered %s: %s", resp.Status, bytes.TrimSpace(msg))
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
			return "", retryAfter(resp.Header.Get("Retry-After")), err
		}
		return "", -1, err
	}
	switch {
	case a.api == "anthropic" && a.stream:
		return readEvents(resp.Body)
	case a.api == "anthropic":
		var m struct {
			Content []struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"content"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
			return "", -1, err
		}
		for _, b := range m.Content {
			if b.Type == "text" {
				text += b.Text
			}
		}
		return text, 0, nil
	case a.stream:
		return readStream(resp.Body)
	}
	var c struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&c); err != nil {
		return "", -1, err
	}
	if len(c.Choices) == 0 {
		return "", -1, errors.New("the model answered no choice")
	}
	return c.Choices[0].Message.Content, 0, nil
}

// readStream puts a streamed chat completion's text together.
func readStream(r io.Reader) (string, time.Duration, error) {
	var text strings.Builder
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		if data == "[DONE]" {
			return text.String(), 0, nil
		}
		var chunk struct {
			Choices []struct {
				Delta struct {
					Content string `json:"content"`
				} `json:"delta"`
			} `json:"choices"`
		}
		if err := json.Unmarshal([]byte(data), &chunk); err != nil {
			return "", -1, fmt.Errorf("a chunk of the stream: %w", err)
		}
		for _, c := range chunk.Choices {
			text.WriteString(c.Delta.Content)
		}
	}
	return "", -1, errors.New("the stream ended without [DONE]")
}

// readEvents puts a streamed message's text together.
func readEvents(r io.Reader) (string, time.Duration, error) {
	var text strings.Builder
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var event struct {
			Type  string `json:"type"`
			Delta struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"delta"`
		}
		if err := json.Unmarshal([]byte(data), &event); err != nil {
			return "", -1, fmt.Errorf("an event of the stream: %w", err)
		}
		switch {
		case event.Type == "content_block_delta" && event.Delta.Type == "text_delta":
			text.WriteString(event.Delta.Text)
		case event.Type == "message_stop":
			return text.String(), 0, nil
		}
	}
	return "", -1, errors.New("the stream ended without message_stop")
}

// retryAfter reads a Retry-After in seconds (fractions allowed), at most
// 5 s; 1 s when there is none.
func retryAfter(h string) time.Duration {
	s, err := strconv.ParseFloat(h, 64)
	if err != nil || s < 0 {
		return time.Second
	}
	return min(time.Duration(s*float64(time.Second)), 5*time.Second)
}
