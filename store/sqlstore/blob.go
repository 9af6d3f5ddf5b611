package sqlstore

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"sync"
)

// Transcripts and verdicts are kept whole, as JSON compressed with gzip:
// a transcript's text compresses several times over, and nothing of it is
// cut.

var gzipWriters = sync.Pool{New: func() any {
	w, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed)
	return w
}}

// compress returns v as gzip-compressed JSON.
func compress(v any) ([]byte, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.Grow(len(raw)/4 + 64)
	w := gzipWriters.Get().(*gzip.Writer)
	defer gzipWriters.Put(w)
	w.Reset(&buf)
	if _, err := w.Write(raw); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// decompress reads gzip-compressed JSON into v.
func decompress(blob []byte, v any) error {
	r, err := gzip.NewReader(bytes.NewReader(blob))
	if err != nil {
		return fmt.Errorf("decompress: %w", err)
	}
	raw, err := io.ReadAll(r)
	if err != nil {
		return fmt.Errorf("decompress: %w", err)
	}
	return json.Unmarshal(raw, v)
}
