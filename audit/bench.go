package audit

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llmjudge"
)

// The self-test: EvalBiasBench (Park et al., "OffsetBias: Leveraging
// Debiased Data for Tuning Evaluators", 2024; NCSOFT, BSD-3-Clause),
// shipped whole in evalbiasbench/ with its licence and a README saying
// where it comes from. Each of its 80 pairs answers one instruction
// twice, the better response first, the worse one built to tempt a
// biased judge (longer, more concrete-sounding, continuing the text
// instead of answering it…).

//go:embed biasbench/biasbench.json
var evalBiasBench []byte

// A BenchPair is one pair of a bias benchmark: an instruction, two
// responses, and which is better.
type BenchPair struct {
	// Bias is the kind of bias the worse response tempts ("length bias").
	Bias        string
	Instruction string
	// Better and Worse are the responses.
	Better, Worse string
}

// EvalBiasBench returns EvalBiasBench's 80 pairs, bias type by bias type
// in the order the file lists them. It panics if the embedded file does
// not read: a test checks it does.
func EvalBiasBench() []BenchPair {
	ps, err := parseBench(evalBiasBench)
	if err != nil {
		panic(fmt.Sprintf("audit: the embedded EvalBiasBench: %v", err))
	}
	return ps
}

// parseBench reads EvalBiasBench's file: an object of bias type to its
// items, each {bias, instruction, response1, response2, label}, label 1
// or 2 naming the better response.
func parseBench(data []byte) ([]BenchPair, error) {
	var byType map[string][]struct {
		Bias        string `json:"bias"`
		Instruction string `json:"instruction"`
		Response1   string `json:"response1"`
		Response2   string `json:"response2"`
		Label       int    `json:"label"`
	}
	if err := json.Unmarshal(data, &byType); err != nil {
		return nil, err
	}
	types := make([]string, 0, len(byType))
	for t := range byType {
		types = append(types, t)
	}
	slices.Sort(types)
	var out []BenchPair
	for _, t := range types {
		for i, it := range byType[t] {
			p := BenchPair{Bias: t, Instruction: it.Instruction}
			switch it.Label {
			case 1:
				p.Better, p.Worse = it.Response1, it.Response2
			case 2:
				p.Better, p.Worse = it.Response2, it.Response1
			default:
				return nil, fmt.Errorf("%s[%d]: label %d: want 1 or 2", t, i, it.Label)
			}
			out = append(out, p)
		}
	}
	return out, nil
}

// benchCriteria is what the self-test's pairwise judge is asked: the
// benchmark's own question, which response follows the instruction
// better, in words that favour neither length nor style.
const benchCriteria = "Which response better follows the instruction: it does what the instruction asks, " +
	"and what it says is accurate and helpful."

// SelfTest is one judge model's result on the self-test.
type SelfTest struct {
	// Model is the judge model's reference.
	Model string `json:"model"`
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

// SelfTestOf scores a model's results on a benchmark (errors aside).
func SelfTestOf(model string, results []BenchResult, errors int) SelfTest {
	st := SelfTest{Model: model, Pairs: len(results), Errors: errors}
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
	model string

	mu      sync.Mutex
	results []BenchResult
	order   []int // each result's index among the pairs, to report in order
	errors  int
}

// startSelfTest asks m's pairwise judge every pair of bench, the better
// response as a (shown first in the first order, second in the other).
func startSelfTest(w *workers, m modelRef, bench []BenchPair) (*selfTestRun, error) {
	p, err := llmjudge.NewPairwise(m.m, benchCriteria, llmjudge.PairwiseConfig{Options: llmjudge.Options{Name: "self-test"}})
	if err != nil {
		return nil, fmt.Errorf("self-test of %s: %w", m.ref, err)
	}
	r := &selfTestRun{model: m.ref}
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
	return SelfTestOf(r.model, sorted, r.errors)
}
