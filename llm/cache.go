package llm

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"
)

// CacheConfig configures a Cache.
type CacheConfig struct {
	// Dir is the directory the cache keeps its logs in; it is created if
	// needed.
	Dir string
	// TTL is how long an entry answers requests. Zero means forever.
	TTL time.Duration
	// Bypass skips reading: every request goes to the model. Fresh answers
	// are still stored, so the next run can use them.
	Bypass bool
}

// cacheVersion is part of every key: changing how keys or entries are
// written changes it, and old entries are simply never read again.
// Version 2 added the trial of the context; version 1's keys had no
// namespace in practice, so its entries may hold another model's answers.
const cacheVersion = 2

// A Cache answers a request from disk when the same model was asked the
// same thing in the same trial before, and stores every successful answer.
// The key of an entry holds everything that makes an answer:
//
//   - the model, named by the namespace given to Middleware: its whole
//     reference as resolved, provider, model and server ("openai:gpt-5-mini
//     OPENAI_BASE_URL=http://127.0.0.1:8000/v1", "script:", a script's
//     absolute path and the SHA-256 of its content, so that an edited
//     script never gets its old answers);
//   - the whole Request: messages, tools, parameters, response schema, and
//     Request.Trial, the sample number an LLM judge sets;
//   - the trial number the context carries (WithTrial), so that repeated
//     trials of a case stay independent for every role;
//   - the version of the key's format.
//
// Errors are never stored. A response served from the cache has Cached
// set, and its Usage counts one call and one cache hit and no tokens: it
// cost nothing this time. A fresh response's Usage counts one call.
//
// Entries are appended, one line each, to a log file that only this Cache
// writes; opening a Cache indexes every log in Dir. So a miss costs one
// write, concurrent runs sharing Dir never disturb each other (each sees
// the others' entries from its next run on), and a run killed mid-write
// loses at most its last, unfinished line. An entry that cannot be read is
// a miss; a failure to store one does not fail the request.
type Cache struct {
	c CacheConfig

	mu     sync.Mutex
	index  map[string]cacheLoc // by key
	files  map[string]*os.File // open logs, by name
	own    *os.File            // this Cache's log, created on the first write
	size   int64               // of own
	closed bool
}

// cacheLoc says where an entry's response is.
type cacheLoc struct {
	file   string
	offset int64
	length int
	stored time.Time
}

// OpenCache opens the cache in c.Dir and indexes its entries.
func OpenCache(c CacheConfig) (*Cache, error) {
	if c.Dir == "" {
		return nil, errors.New("cache: no directory given")
	}
	if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("cache: %w", err)
	}
	cache := &Cache{c: c, index: map[string]cacheLoc{}, files: map[string]*os.File{}}
	logs, err := filepath.Glob(filepath.Join(c.Dir, "*.log"))
	if err != nil {
		return nil, fmt.Errorf("cache: %w", err)
	}
	for _, name := range logs {
		if err := cache.load(name); err != nil {
			cache.Close()
			return nil, fmt.Errorf("cache: read %s: %w", name, err)
		}
	}
	return cache, nil
}

// Middleware returns the cache as middleware for the model namespace
// names: its whole reference as resolved, server included, such as
// "openai:qwen2.5-7b@http://127.0.0.1:8000/v1" (package llm/providers
// writes it: providers.Namespace). Models that may answer differently
// must have different namespaces, or they share answers.
func (c *Cache) Middleware(namespace string) Middleware {
	return func(next Model) Model {
		return Func(func(ctx context.Context, req *Request) (*Response, error) {
			key, err := c.key(namespace, TrialFrom(ctx), req)
			if err != nil {
				return nil, fmt.Errorf("cache: %w", err)
			}
			if !c.c.Bypass {
				start := time.Now()
				if resp, ok := c.get(key); ok {
					resp.Cached = true
					resp.Usage = Usage{Calls: 1, CacheHits: 1}
					resp.Latency = time.Since(start)
					return resp, nil
				}
			}
			resp, err := next.Generate(ctx, req)
			if err != nil {
				return resp, err
			}
			if resp.Usage.Calls == 0 {
				resp.Usage.Calls = 1
			}
			c.put(key, resp)
			return resp, nil
		})
	}
}

// Close closes the cache's files. Requests after Close go to the model.
func (c *Cache) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var errs []error
	for _, f := range c.files {
		errs = append(errs, f.Close())
	}
	c.files, c.own, c.index, c.closed = map[string]*os.File{}, nil, map[string]cacheLoc{}, true
	return errors.Join(errs...)
}

// key returns the SHA-256, in hex, of the version, the namespace, the
// trial and the request as JSON (which compacts embedded JSON, so white
// space in a schema does not matter).
func (c *Cache) key(namespace string, trial int, req *Request) (string, error) {
	data, err := json.Marshal(struct {
		Version   int      `json:"v"`
		Namespace string   `json:"ns"`
		Trial     int      `json:"trial"`
		Request   *Request `json:"req"`
	}{cacheVersion, namespace, trial, req})
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}

// A log line is "<key> <stored, unix nanoseconds> <response JSON>\n"; JSON
// from encoding/json holds no raw newline.
const keyLen = 2 * sha256.Size

func (c *Cache) get(key string) (*Response, bool) {
	c.mu.Lock()
	loc, ok := c.index[key]
	f := c.files[loc.file]
	c.mu.Unlock()
	if !ok || f == nil || (c.c.TTL > 0 && time.Since(loc.stored) > c.c.TTL) {
		return nil, false
	}
	data := make([]byte, loc.length)
	if _, err := f.ReadAt(data, loc.offset); err != nil {
		return nil, false
	}
	var resp Response
	if json.Unmarshal(data, &resp) != nil {
		return nil, false
	}
	return &resp, true
}

func (c *Cache) put(key string, resp *Response) {
	data, err := json.Marshal(resp)
	if err != nil {
		return
	}
	stored := time.Now()
	prefix := key + " " + strconv.FormatInt(stored.UnixNano(), 10) + " "
	line := make([]byte, 0, len(prefix)+len(data)+1)
	line = append(append(append(line, prefix...), data...), '\n')

	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	if c.own == nil {
		name := filepath.Join(c.c.Dir, fmt.Sprintf("%d-%d-%08x.log", stored.UnixNano(), os.Getpid(), rand.Uint32()))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_APPEND|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return
		}
		c.own, c.files[name] = f, f
	}
	if _, err := c.own.Write(line); err != nil {
		return // the entry may be torn: it is not indexed, and loading skips it
	}
	c.index[key] = cacheLoc{file: c.own.Name(), offset: c.size + int64(len(prefix)), length: len(data), stored: stored}
	c.size += int64(len(line))
}

// load indexes the entries of the log at name. A line that is not a
// complete entry (a run killed mid-write) is skipped.
func (c *Cache) load(name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	c.files[name] = f
	r := bufio.NewReaderSize(f, 64<<10)
	var offset int64
	for {
		line, err := r.ReadBytes('\n')
		complete := err == nil
		if complete {
			if loc, key, ok := parseLogLine(line, name, offset); ok {
				c.index[key] = loc
			}
		}
		offset += int64(len(line))
		if err == io.EOF {
			return nil
		}
		if !complete {
			return err
		}
	}
}

// parseLogLine reads the key and stored time of a log line that starts at
// offset in file.
func parseLogLine(line []byte, file string, offset int64) (cacheLoc, string, bool) {
	if len(line) < keyLen+3 || line[keyLen] != ' ' {
		return cacheLoc{}, "", false
	}
	key := string(line[:keyLen])
	rest := line[keyLen+1:]
	sp := -1
	for i, b := range rest {
		if b == ' ' {
			sp = i
			break
		}
	}
	if sp < 0 {
		return cacheLoc{}, "", false
	}
	nanos, err := strconv.ParseInt(string(rest[:sp]), 10, 64)
	if err != nil {
		return cacheLoc{}, "", false
	}
	start := keyLen + 1 + sp + 1
	return cacheLoc{file: file, offset: offset + int64(start), length: len(line) - start - 1, stored: time.Unix(0, nanos)}, key, true
}
