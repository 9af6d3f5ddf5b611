package sqlstore

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel/judge"
)

func TestCompress(t *testing.T) {
	in := &judge.Transcript{Goal: "hello", FinalResponse: strings.Repeat("the same words again ", 5000)}
	blob, err := compress(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(blob) > len(in.FinalResponse)/10 {
		t.Errorf("%d bytes compressed to %d: want at least ten times smaller", len(in.FinalResponse), len(blob))
	}
	var out judge.Transcript
	if err := decompress(blob, &out); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(in, &out); d != "" {
		t.Errorf("round trip (-in +out):\n%s", d)
	}
	if err := decompress([]byte("not gzip"), &out); err == nil || !strings.Contains(err.Error(), "decompress") {
		t.Errorf("decompress of garbage: %v, want an error", err)
	}
}
