package audit

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llmjudge"
)

// The self-test asks each judge model which response of every pair of a
// bias benchmark is better. Gavel ships its own (biasbench/, written for
// Gavel under its licence): 42 pairs, 7 in each of the six bias types the
// OffsetBias paper names (Park et al., "OffsetBias: Leveraging Debiased
// Data for Tuning Evaluators", 2024). Each pair answers one instruction
// twice, one response right, the other built to tempt a biased judge
// (longer, more concrete-sounding, continuing the text instead of
// answering it…). The file has the format of that paper's EvalBiasBench,
// so a user can self-test on it instead (ReadBench).

//go:embed biasbench/biasbench.json
var biasBench []byte

// BiasBenchName names Gavel's own bias set in reports.
const BiasBenchName = "Gavel's bias set"

// A BenchPair is one pair of a bias benchmark: an instruction, two
// responses, and which is better.
type BenchPair struct {
	// Bias is the kind of bias the worse response tempts ("length bias").
	Bias        string
	Instruction string
	// Better and Worse are the responses.
	Better, Worse string
}

// BiasBench returns Gavel's own bias set, bias type by bias type in
// alphabetical order. It panics if the embedded file does not read: a
// test checks it does.
func BiasBench() []BenchPair {
	ps, err := ParseBench(biasBench)
	if err != nil {
		panic(fmt.Sprintf("audit: the embedded bias set: %v", err))
	}
	return ps
}

// ReadBench reads a bias benchmark file in EvalBiasBench's format (see
// ParseBench); its errors name the file, and the pair that is wrong.
func ReadBench(path string) ([]BenchPair, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("the bias benchmark: %w", err)
	}
	ps, err := ParseBench(data)
	if err != nil {
		return nil, fmt.Errorf("the bias benchmark %s: %w", path, err)
	}
	return ps, nil
}

// benchFormat is what a bias benchmark file holds, for error messages.
const benchFormat = `an object of bias type to its pairs, each {"instruction", "response1", "response2", "label": 1 or 2}`

// ParseBench reads a bias benchmark in EvalBiasBench's format: an object
// of bias type to its pairs, each {bias, instruction, response1,
// response2, label}, label 1 or 2 naming the better response. It returns
// the pairs bias type by bias type, in alphabetical order, and refuses a
// file with no pair, or a pair with an empty field or another label.
func ParseBench(data []byte) ([]BenchPair, error) {
	var byType map[string][]struct {
		Bias        string `json:"bias"`
		Instruction string `json:"instruction"`
		Response1   string `json:"response1"`
		Response2   string `json:"response2"`
		Label       int    `json:"label"`
	}
	if err := json.Unmarshal(data, &byType); err != nil {
		return nil, jsonError(data, err)
	}
	types := make([]string, 0, len(byType))
	for t := range byType {
		types = append(types, t)
	}
	slices.Sort(types)
	var out []BenchPair
	for _, t := range types {
		for i, it := range byType[t] {
			at := fmt.Sprintf("%q, pair %d", t, i+1)
			for _, f := range []struct{ name, value string }{{"instruction", it.Instruction}, {"response1", it.Response1}, {"response2", it.Response2}} {
				if strings.TrimSpace(f.value) == "" {
					return nil, fmt.Errorf("%s: %q is missing or empty", at, f.name)
				}
			}
			p := BenchPair{Bias: t, Instruction: it.Instruction}
			switch it.Label {
			case 1:
				p.Better, p.Worse = it.Response1, it.Response2
			case 2:
				p.Better, p.Worse = it.Response2, it.Response1
			default:
				return nil, fmt.Errorf("%s: label %d: want 1 or 2, the better response", at, it.Label)
			}
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("it holds no pair: want %s", benchFormat)
	}
	return out, nil
}

// jsonError says where in data a JSON error is, by line.
func jsonError(data []byte, err error) error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return fmt.Errorf("line %d: %v", lineAt(data, syntax.Offset), err)
	case errors.As(err, &typ) && typ.Field != "":
		return fmt.Errorf("line %d: %q is a JSON %s, want a JSON %s", lineAt(data, typ.Offset), typ.Field, typ.Value, jsonKind(typ.Type))
	case errors.As(err, &typ):
		return fmt.Errorf("line %d: a JSON %s where a JSON %s is wanted (%s)", lineAt(data, typ.Offset), typ.Value, jsonKind(typ.Type), benchFormat)
	}
	return err
}

// jsonKind is the JSON name of the kind of value t reads.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int:
		return "number"
	case reflect.Slice:
		return "array"
	case reflect.Map, reflect.Struct:
		return "object"
	}
	return t.Kind().String()
}

// lineAt is the line of data the byte offset is on, from 1.
func lineAt(data []byte, offset int64) int {
	return 1 + bytes.Count(data[:min(int(offset), len(data))], []byte("\n"))
}

// benchCriteria is what the self-test's pairwise judge is asked: the
// benchmark's own question, which response follows the instruction
// better, in words that favour neither length nor style.
const benchCriteria = "Which response better follows the instruction: it does what the instruction asks, " +
	"and what it says is accurate and helpful."

// SelfTest is one judge model's result on the self-test.
type SelfTest struct {
	// Model is the judge model's reference; Bench names the benchmark.
	Model string `json:"model"`
	Bench string `json:"bench"`
	// Pairs is how many pairs were compared (both orders each); Correct,
	// how many the better response won in both orders; Errors, how many
	// could not be compared.
	Pairs   int `json:"pairs"`
	Correct int `json:"correct"`
	Errors  int `json:"errors"`
	// Accuracy is Correct / Pairs compared (errors left out); nil with
	// none.
	Accuracy *float64 `json:"accuracy,omitempty"`
	// Position is how many comparisons flipped with the order.
	Position Position `json:"position"`
	// ByBias is the accuracy per bias type, in the benchmark's order.
	ByBias []BiasAccuracy `json:"by_bias"`
}

// BiasAccuracy is a judge model's accuracy on one bias type.
type BiasAccuracy struct {
	Bias     string   `json:"bias"`
	Pairs    int      `json:"pairs"`
	Correct  int      `json:"correct"`
	Accuracy *float64 `json:"accuracy,omitempty"`
}

// A BenchResult is one pair's outcome: the better response won in both
// orders (Correct), and whether the orders disagreed.
type BenchResult struct {
	Bias    string
	Correct bool
	Compare Comparison
}

// SelfTestOf scores a model's results on the benchmark bench (errors
// aside).
func SelfTestOf(model, bench string, results []BenchResult, errors int) SelfTest {
	st := SelfTest{Model: model, Bench: bench, Pairs: len(results), Errors: errors}
	var cs []Comparison
	for _, r := range results {
		i := slices.IndexFunc(st.ByBias, func(b BiasAccuracy) bool { return b.Bias == r.Bias })
		if i < 0 {
			st.ByBias = append(st.ByBias, BiasAccuracy{Bias: r.Bias})
			i = len(st.ByBias) - 1
		}
		st.ByBias[i].Pairs++
		if r.Correct {
			st.Correct++
			st.ByBias[i].Correct++
		}
		cs = append(cs, r.Compare)
	}
	for i := range st.ByBias {
		st.ByBias[i].Accuracy = share(st.ByBias[i].Correct, st.ByBias[i].Pairs)
	}
	st.Accuracy = share(st.Correct, st.Pairs)
	st.Position = PositionOf(cs)
	return st
}

// A selfTestRun is one model's self-test under way.
type selfTestRun struct {
	model, bench string

	mu      sync.Mutex
	results []BenchResult
	order   []int // each result's index among the pairs, to report in order
	errors  int
}

// startSelfTest asks m's pairwise judge every pair of bench (called
// name), the better response as a (shown first in the first order,
// second in the other).
func startSelfTest(w *workers, m modelRef, name string, bench []BenchPair) (*selfTestRun, error) {
	p, err := llmjudge.NewPairwise(m.m, benchCriteria, llmjudge.PairwiseConfig{Options: llmjudge.Options{Name: "self-test"}})
	if err != nil {
		return nil, fmt.Errorf("self-test of %s: %w", m.ref, err)
	}
	r := &selfTestRun{model: m.ref, bench: name}
	for i, pair := range bench {
		w.do(func(ctx context.Context) {
			a := &judge.Transcript{Goal: pair.Instruction, FinalResponse: pair.Better}
			b := &judge.Transcript{Goal: pair.Instruction, FinalResponse: pair.Worse}
			res, err := p.Compare(ctx, a, b)
			r.mu.Lock()
			defer r.mu.Unlock()
			if err != nil {
				r.errors++
				return
			}
			r.results = append(r.results, BenchResult{Bias: pair.Bias, Correct: res.Winner == llmjudge.WinnerA,
				Compare: Comparison{Forward: res.Forward.Winner, Reversed: res.Reversed.Winner}})
			r.order = append(r.order, i)
		})
	}
	return r, nil
}

func (r *selfTestRun) report() SelfTest {
	r.mu.Lock()
	defer r.mu.Unlock()
	idx := make([]int, len(r.results))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return r.order[a] - r.order[b] })
	sorted := make([]BenchResult, len(idx))
	for i, k := range idx {
		sorted[i] = r.results[k]
	}
	return SelfTestOf(r.model, r.bench, sorted, r.errors)
}
