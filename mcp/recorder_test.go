package mcp

import (
	"fmt"
	"sync"
	"testing"

	"github.com/gavelhq/gavel/judge"
)

func TestLog(t *testing.T) {
	var log Log
	if got := log.Take(); got != nil {
		t.Errorf("Take of an empty log: got %v, want nil", got)
	}

	// Calls recorded from many goroutines are all kept.
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Go(func() { log.Record(judge.ToolCall{Name: fmt.Sprint("tool", i)}) })
	}
	wg.Wait()
	seen := map[string]bool{}
	for _, c := range log.Take() {
		seen[c.Name] = true
	}
	if len(seen) != 50 {
		t.Errorf("Take: got %d distinct calls, want 50", len(seen))
	}

	// Take empties the log: the next turn starts afresh.
	log.Record(judge.ToolCall{Name: "a", IsError: true})
	log.Record(judge.ToolCall{Name: "b"})
	got := log.Take()
	if len(got) != 2 || got[0].Name != "a" || !got[0].IsError || got[1].Name != "b" {
		t.Errorf("Take: got %+v, want a (failed) then b", got)
	}
	if got := log.Take(); got != nil {
		t.Errorf("second Take: got %v, want nil", got)
	}
}

func TestRecorderFunc(t *testing.T) {
	var got []string
	var rec Recorder = RecorderFunc(func(c judge.ToolCall) { got = append(got, c.Name) })
	rec.Record(judge.ToolCall{Name: "echo"})
	if len(got) != 1 || got[0] != "echo" {
		t.Errorf("got %v, want [echo]", got)
	}
}
