// Echoagent is the agent the exec adapter's tests drive. It speaks Gavel's
// exec protocol (docs/exec-protocol.md) on stdin and stdout, handles
// messages and events concurrently, so answers come in any order, and
// remembers each session's messages until a reset.
//
// A message's text is echoed as "echo: <text>", followed by the message's
// metadata as JSON when it has some, except for these commands:
//
//	history   the session's earlier messages, joined by " | "
//	tool      a reply with a tool call and token usage
//	pid       the agent's process id
//	spawn     starts a child that sleeps for an hour; replies its pid
//	pair K    waits for a second "pair K"; the second is answered first
//	fail      an error answer
//	crash     writes 30 lines to stderr and exits with status 3
//	hang      never answers
//	garbage   prints a line that is not JSON
//	number    a reply whose text is the number 42
//	flood N   prints a line of N MiB that never ends, until stdout closes
//
// With ECHOAGENT_START_DELAY set to a duration, the agent sleeps that long
// before it reads anything.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

type request struct {
	Type     string            `json:"type"`
	ID       string            `json:"id"`
	Session  string            `json:"session"`
	Text     string            `json:"text"`
	Metadata map[string]string `json:"metadata"`
	Name     string            `json:"name"`
	Payload  json.RawMessage   `json:"payload"`
}

type agent struct {
	outMu sync.Mutex
	out   *bufio.Writer

	mu      sync.Mutex
	history map[string][]string // by session
	open    map[string]bool
	pairs   map[string]chan struct{}
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "-sleep" {
		time.Sleep(time.Hour)
		return
	}
	if d, err := time.ParseDuration(os.Getenv("ECHOAGENT_START_DELAY")); err == nil {
		time.Sleep(d)
	}
	a := &agent{
		out:     bufio.NewWriter(os.Stdout),
		history: map[string][]string{},
		open:    map[string]bool{},
		pairs:   map[string]chan struct{}{},
	}
	fmt.Fprintln(os.Stderr, "echoagent: ready")
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		var req request
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			fmt.Fprintf(os.Stderr, "echoagent: bad request %q: %v\n", sc.Text(), err)
			os.Exit(2)
		}
		switch req.Type {
		case "message", "event":
			go a.handle(req)
		default:
			a.handle(req)
		}
	}
	fmt.Fprintln(os.Stderr, "echoagent: stdin closed, exiting")
}

func (a *agent) handle(req request) {
	switch req.Type {
	case "open":
		a.mu.Lock()
		a.open[req.Session] = true
		a.mu.Unlock()
		a.send(map[string]any{"type": "ok", "id": req.ID})
	case "close":
		a.mu.Lock()
		delete(a.open, req.Session)
		a.mu.Unlock()
		a.send(map[string]any{"type": "ok", "id": req.ID})
	case "reset":
		a.mu.Lock()
		a.history = map[string][]string{}
		a.mu.Unlock()
		a.send(map[string]any{"type": "ok", "id": req.ID})
	case "message":
		if !a.isOpen(req) {
			return
		}
		a.message(req)
	case "event":
		if !a.isOpen(req) {
			return
		}
		a.reply(req, fmt.Sprintf("event %s %s", req.Name, req.Payload))
	default:
		a.send(map[string]any{"type": "error", "id": req.ID, "message": "unknown request type " + req.Type})
	}
}

func (a *agent) isOpen(req request) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.open[req.Session] {
		a.sendLocked(map[string]any{"type": "error", "id": req.ID, "message": "session " + req.Session + " is not open"})
		return false
	}
	return true
}

func (a *agent) message(req request) {
	cmd, arg, _ := strings.Cut(req.Text, " ")
	switch cmd {
	case "history":
		a.mu.Lock()
		h := strings.Join(a.history[req.Session], " | ")
		a.mu.Unlock()
		a.reply(req, h)
	case "tool":
		a.send(map[string]any{
			"type": "reply", "id": req.ID, "text": "it is sunny in Paris",
			"tool_calls": []map[string]any{{
				"id": "call-1", "name": "weather", "arguments": map[string]any{"city": "Paris"},
				"result": "sunny", "is_error": false,
			}},
			"usage": map[string]any{"input_tokens": 12, "output_tokens": 5},
		})
	case "pid":
		a.reply(req, strconv.Itoa(os.Getpid()))
	case "spawn":
		child := exec.Command(os.Args[0], "-sleep")
		if err := child.Start(); err != nil {
			a.send(map[string]any{"type": "error", "id": req.ID, "message": err.Error()})
			return
		}
		go child.Wait()
		a.reply(req, strconv.Itoa(child.Process.Pid))
	case "pair":
		a.mu.Lock()
		ch, waiting := a.pairs[arg]
		if !waiting {
			ch = make(chan struct{})
			a.pairs[arg] = ch
			a.mu.Unlock()
			<-ch
			a.reply(req, "pair "+arg+": arrived first")
			return
		}
		delete(a.pairs, arg)
		a.mu.Unlock()
		a.reply(req, "pair "+arg+": arrived second")
		close(ch)
	case "fail":
		a.send(map[string]any{"type": "error", "id": req.ID, "message": "failing as asked"})
	case "crash":
		for i := range 30 {
			fmt.Fprintf(os.Stderr, "crash log line %d\n", i)
		}
		fmt.Fprintln(os.Stderr, "fatal: crashing as asked")
		os.Exit(3)
	case "hang":
		select {}
	case "number":
		a.send(map[string]any{"type": "reply", "id": req.ID, "text": 42})
	case "flood":
		mib, _ := strconv.Atoi(arg)
		chunk := []byte(strings.Repeat("a", 1<<20))
		a.outMu.Lock()
		defer a.outMu.Unlock()
		a.out.WriteString(`{"type":"reply","id":"` + req.ID + `","text":"`)
		for range mib {
			if _, err := a.out.Write(chunk); err != nil {
				return // the reader stopped reading
			}
		}
		a.out.WriteString("\"}\n")
		a.out.Flush()
	case "garbage":
		a.outMu.Lock()
		fmt.Fprintln(a.out, "this is not JSON")
		a.out.Flush()
		a.outMu.Unlock()
	default:
		a.mu.Lock()
		a.history[req.Session] = append(a.history[req.Session], req.Text)
		a.mu.Unlock()
		text := "echo: " + req.Text
		if len(req.Metadata) > 0 {
			m, _ := json.Marshal(req.Metadata)
			text += " " + string(m)
		}
		a.reply(req, text)
	}
}

func (a *agent) reply(req request, text string) {
	a.send(map[string]any{"type": "reply", "id": req.ID, "text": text})
}

func (a *agent) send(answer map[string]any) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.sendLocked(answer)
}

// sendLocked writes an answer; a.mu is held, which keeps the order of
// answers and a.pairs consistent.
func (a *agent) sendLocked(answer map[string]any) {
	b, err := json.Marshal(answer)
	if err != nil {
		panic(err)
	}
	a.outMu.Lock()
	defer a.outMu.Unlock()
	a.out.Write(append(b, '\n'))
	a.out.Flush()
}
