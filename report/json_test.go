package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel"
)

// The JSON report decodes into JSONReport, the struct docs/report-json.md
// documents, and gives back what was written.
func TestJSONRoundTrips(t *testing.T) {
	run := fixture(t)
	opts := Options{Version: "v0.1.0"}
	out := write(t, JSON, run, opts)

	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields() // every field written is a documented one
	var got JSONReport
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("the report does not decode into JSONReport: %v", err)
	}
	// Indenting the report indents the tool calls' arguments too (they are
	// raw JSON): compare them as JSON values.
	sameJSON := cmp.Comparer(func(a, b json.RawMessage) bool {
		var ca, cb bytes.Buffer
		return json.Compact(&ca, a) == nil && json.Compact(&cb, b) == nil && ca.String() == cb.String()
	})
	if diff := cmp.Diff(newJSONReport(run, opts, true), got, sameJSON); diff != "" {
		t.Errorf("the report does not round-trip (-wrote +read):\n%s", diff)
	}
}

// Readers tell schemas apart by schema_version, so it must be there, and
// it must be a number.
func TestJSONHasSchemaVersion(t *testing.T) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal([]byte(write(t, JSON, fixture(t), Options{})), &top); err != nil {
		t.Fatal(err)
	}
	if got, want := string(top["schema_version"]), "1"; got != want {
		t.Errorf("schema_version is %q, want %q", got, want)
	}
	for _, key := range []string{"gavel_version", "suite", "started", "duration_ns", "interrupted", "passed", "stats", "cases"} {
		if _, ok := top[key]; !ok {
			t.Errorf("the report has no %q", key)
		}
	}
}

// The JSON report keeps agent text exactly, control characters included:
// it is the record, and JSON escapes them.
func TestJSONKeepsTextExactly(t *testing.T) {
	var got JSONReport
	if err := json.Unmarshal([]byte(write(t, JSON, fixture(t), Options{})), &got); err != nil {
		t.Fatal(err)
	}
	reply := got.Cases[6].Trials[0].Transcript.Response()
	if want := "<script>alert(1)</script> It is sunny ]]> \x1b[31mred\x1b[0m \x00| pipe | and ``code``"; reply != want {
		t.Errorf("reply %q, want %q", reply, want)
	}
	if got.Cases[4].PassRate != nil {
		t.Errorf("the skipped case has pass rate %v, want null", *got.Cases[4].PassRate)
	}
}

// Every field the report writes is documented in docs/report-json.md.
func TestJSONFieldsAreDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "report-json.md"))
	if err != nil {
		t.Fatal(err)
	}
	var report any
	if err := json.Unmarshal([]byte(write(t, JSON, fixture(t), Options{Version: "v0.1.0"})), &report); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			for key, e := range v {
				if !seen[key] && !strings.Contains(string(doc), "`"+key+"`") {
					t.Errorf("field %q is not documented in docs/report-json.md", key)
				}
				seen[key] = true
				_, isMap := e.(map[string]any)
				switch {
				case key == "metadata" || key == "models" || key == "arguments":
					// free-form: its keys are data, not fields
				case key == "cases" && isMap:
					// stats.cases: counts by outcome
				default:
					walk(e)
				}
			}
		}
	}
	walk(report)
}

// Streaming the JSON report a case at a time writes the bytes encoding
// it whole writes: with cases, with none, with one, and of a shard.
func TestJSONStreamIsWhole(t *testing.T) {
	full := fixture(t)
	one := *full
	one.Cases = full.Cases[:1]
	none := *full
	none.Cases = nil
	for name, run := range map[string]*gavel.Run{"fixture": full, "one case": &one, "no case": &none, "shard": full} {
		opts := Options{Version: "v0.1.0"}
		if name == "shard" { // the shard's field comes before the cases
			opts.Shard = &Shard{Index: 1, Count: 2, Selection: "sha256:00"}
		}
		var whole bytes.Buffer
		enc := jsonEncoder(&whole, "")
		if err := enc.Encode(newJSONReport(run, opts, true)); err != nil {
			t.Fatal(err)
		}
		var streamed bytes.Buffer
		if err := Stream(&streamed, JSON, run, opts); err != nil {
			t.Fatalf("%s: Stream: %v", name, err)
		}
		if diff := cmp.Diff(whole.String(), streamed.String()); diff != "" {
			t.Errorf("%s: the streamed report differs from the whole one (-whole +streamed):\n%s", name, diff)
		}
	}
}

// A traced trial's trace id is in the JSON report, so that a reader can
// find its spans.
func TestJSONTraceID(t *testing.T) {
	run := fixture(t)
	run.Cases[0].Trials[0].TraceID = "4bf92f3577b34da6a3ce929d0e0e4736"
	var got JSONReport
	if err := json.Unmarshal([]byte(write(t, JSON, run, Options{})), &got); err != nil {
		t.Fatal(err)
	}
	if id := got.Cases[0].Trials[0].TraceID; id != "4bf92f3577b34da6a3ce929d0e0e4736" {
		t.Errorf("trace_id %q, want the trial's", id)
	}
	if !strings.Contains(write(t, JSON, run, Options{}), `"trace_id": "4bf92f3577b34da6a3ce929d0e0e4736"`) {
		t.Error(`no "trace_id" field in the JSON report`)
	}
}
