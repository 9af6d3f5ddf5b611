package agent

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/gavelhq/gavel/llm"
)

// Checkpoints keep the builtin agent's conversations between a session's
// Close and the next Open with the same id.
type Checkpoints interface {
	// Load returns the conversation saved for a session, and whether there
	// was one.
	Load(ctx context.Context, sessionID string) ([]llm.Message, bool, error)
	// Save stores a session's conversation, replacing what was saved.
	Save(ctx context.Context, sessionID string, msgs []llm.Message) error
}

// MemoryCheckpoints returns checkpoints kept in memory: they survive a
// session's close and reopen, not the process.
func MemoryCheckpoints() Checkpoints {
	return &memoryCheckpoints{saved: map[string][]llm.Message{}}
}

type memoryCheckpoints struct {
	mu    sync.Mutex
	saved map[string][]llm.Message
}

func (m *memoryCheckpoints) Load(_ context.Context, id string) ([]llm.Message, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	msgs, ok := m.saved[id]
	return slices.Clone(msgs), ok, nil
}

func (m *memoryCheckpoints) Save(_ context.Context, id string, msgs []llm.Message) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.saved[id] = slices.Clone(msgs)
	return nil
}

// DirCheckpoints returns checkpoints kept as JSON files in dir, one per
// session, so that a conversation survives the process, as a production
// agent's checkpointer would. Files are written to a temporary name and
// renamed, so a crash never leaves half a checkpoint.
func DirCheckpoints(dir string) Checkpoints { return dirCheckpoints(dir) }

type dirCheckpoints string

// path names a session's file by a hash of its id: ids come from suites
// and may hold any character.
func (d dirCheckpoints) path(id string) string {
	sum := sha256.Sum256([]byte(id))
	return filepath.Join(string(d), hex.EncodeToString(sum[:16])+".json")
}

func (d dirCheckpoints) Load(_ context.Context, id string) ([]llm.Message, bool, error) {
	data, err := os.ReadFile(d.path(id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("load checkpoint of session %q: %w", id, err)
	}
	var saved struct {
		Session  string        `json:"session"`
		Messages []llm.Message `json:"messages"`
	}
	if err := json.Unmarshal(data, &saved); err != nil {
		return nil, false, fmt.Errorf("load checkpoint of session %q from %s: %w", id, d.path(id), err)
	}
	return saved.Messages, true, nil
}

func (d dirCheckpoints) Save(_ context.Context, id string, msgs []llm.Message) error {
	data, err := json.Marshal(struct {
		Session  string        `json:"session"`
		Messages []llm.Message `json:"messages"`
	}{id, msgs})
	if err != nil {
		return fmt.Errorf("save checkpoint of session %q: %w", id, err)
	}
	if err := os.MkdirAll(string(d), 0o755); err != nil {
		return fmt.Errorf("save checkpoint of session %q: %w", id, err)
	}
	tmp, err := os.CreateTemp(string(d), ".checkpoint-*")
	if err != nil {
		return fmt.Errorf("save checkpoint of session %q: %w", id, err)
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("save checkpoint of session %q: %w", id, err)
	}
	if err := os.Rename(tmp.Name(), d.path(id)); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("save checkpoint of session %q: %w", id, err)
	}
	return nil
}
