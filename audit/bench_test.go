package audit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The six bias types of the OffsetBias paper, as EvalBiasBench spells
// them; Gavel's own set holds 7 pairs of each.
var biasTypes = []string{"concreteness", "content_continuation", "empty reference",
	"familiar knowledge preference bias", "length bias", "nested_instruction"}

func TestBiasBench(t *testing.T) {
	ps := BiasBench()
	types := map[string]int{}
	seen := map[string]bool{}
	for _, p := range ps {
		types[p.Bias]++
		if p.Better == p.Worse {
			t.Errorf("a %s pair has the same response twice: %+v", p.Bias, p)
		}
		if seen[p.Instruction] {
			t.Errorf("the instruction %q is asked twice", p.Instruction)
		}
		seen[p.Instruction] = true
	}
	if len(ps) != 42 || len(types) != len(biasTypes) {
		t.Errorf("got %d pairs in %d bias types, want 42 in %d: %v", len(ps), len(types), len(biasTypes), types)
	}
	for i, bias := range biasTypes {
		if types[bias] != 7 {
			t.Errorf("%s: got %d pairs, want 7", bias, types[bias])
		}
		if i*7 < len(ps) && ps[i*7].Bias != bias {
			t.Errorf("pair %d is of %q, want the types in alphabetical order (%q)", i*7, ps[i*7].Bias, bias)
		}
	}
}

func TestReadBench(t *testing.T) {
	ps, err := ReadBench(filepath.Join("testdata", "small-bench.json"))
	if err != nil {
		t.Fatal(err)
	}
	// Label 2 names response2 the better one.
	want := []BenchPair{
		{"empty reference", "Shorten the sentence I pasted below to ten words.",
			"No sentence came with your message: paste it and I will shorten it.", "The meeting moved to Thursday because the room was booked."},
		{"length bias", "What is 7 times 8?", "56", "Multiplying 7 by 8 means adding 7 eight times: 7, 14, 21, 28, 35, 42, 49, 54. So 7 times 8 is 54."},
		{"length bias", "Name the largest planet of the solar system in one word.", "Jupiter",
			"Saturn, with its famous rings, is the largest planet of the solar system, about 120,000 km across."},
	}
	if len(ps) != len(want) {
		t.Fatalf("got %d pairs, want %d: %+v", len(ps), len(want), ps)
	}
	for i := range want {
		if ps[i] != want[i] {
			t.Errorf("pair %d: got %+v, want %+v", i, ps[i], want[i])
		}
	}
}

// A file a user brings that does not read says which file, and where.
func TestReadBenchNamesTheFileAndThePair(t *testing.T) {
	pair := func(fields string) string {
		return `{"length bias": [` + "\n" + `{"instruction": "i", "response1": "r", "response2": "s", "label": 1},` + "\n" + `{` + fields + `}]}`
	}
	for _, tc := range []struct {
		name, data string
		want       []string
	}{
		{"a label of 3", pair(`"instruction": "i", "response1": "r", "response2": "s", "label": 3`),
			[]string{`"length bias", pair 2: label 3: want 1 or 2`}},
		{"no label", pair(`"instruction": "i", "response1": "r", "response2": "s"`),
			[]string{`"length bias", pair 2: label 0: want 1 or 2`}},
		{"an empty response", pair(`"instruction": "i", "response1": " ", "response2": "s", "label": 1`),
			[]string{`"length bias", pair 2: "response1" is missing or empty`}},
		{"no instruction", pair(`"response1": "r", "response2": "s", "label": 2`),
			[]string{`"length bias", pair 2: "instruction" is missing or empty`}},
		{"a label in quotes", pair(`"instruction": "i", "response1": "r", "response2": "s", "label": "1"`),
			[]string{"line 3:", `"label" is a JSON string, want a JSON number`}},
		{"broken JSON", "{\n\"length bias\": [\n{\"instruction\": \"i\",,}]}", []string{"line 3:", "invalid character ','"}},
		{"pairs not in a list", `{"length bias": {"instruction": "i"}}`, []string{`line 1: a JSON object where a JSON array is wanted (an object of bias type to its pairs`}},
		{"a list, not an object", `[{"instruction": "i"}]`, []string{"line 1: a JSON array where a JSON object is wanted"}},
		{"no pairs", `{"length bias": []}`, []string{"it holds no pair: want an object of bias type"}},
		{"an empty file", ``, []string{"unexpected end of JSON input"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "mine.json")
			if err := os.WriteFile(path, []byte(tc.data), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := ReadBench(path)
			if err == nil {
				t.Fatal("it was read; want an error")
			}
			for _, w := range append([]string{"the bias benchmark " + path + ": "}, tc.want...) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
	if _, err := ReadBench(filepath.Join(t.TempDir(), "absent.json")); err == nil || !strings.Contains(err.Error(), "absent.json") {
		t.Errorf("a missing file: error %v, want one naming it", err)
	}
}
