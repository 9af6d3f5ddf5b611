package eval

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/providers"
	"github.com/gavelhq/gavel/llmjudge"
	"github.com/gavelhq/gavel/secret"
	"github.com/gavelhq/gavel/store"
)

// OpenPairwise opens a pairwise judge of criteria on the model ref, wrapped
// as gavel run wraps models (meter, cache, retries). A "script:" path is
// relative to dir (the suite's directory). It returns an error a user can
// fix when the reference is empty or cannot be opened.
func OpenPairwise(ref, dir, criteria string, m *Models, meter *llm.Meter) (*llmjudge.Pairwise, error) {
	if ref == "" {
		return nil, fmt.Errorf("--pairwise needs a model: give --model provider:model (the runs name no judge model)")
	}
	parsed, err := llm.ParseRef(ref)
	if err != nil {
		return nil, fmt.Errorf("--model %s: %w", ref, err)
	}
	if parsed.Provider == "script" && !filepath.IsAbs(parsed.Model) && dir != "" {
		parsed.Model = filepath.Join(dir, parsed.Model)
	}
	open, ok := providers.Registry()[parsed.Provider]
	if !ok {
		return nil, fmt.Errorf("--model %s: unknown model provider %q", ref, parsed.Provider)
	}
	model, err := open(parsed, os.Getenv)
	if err != nil {
		return nil, fmt.Errorf("--model %s: %w", ref, err)
	}
	p, err := llmjudge.NewPairwise(m.Wrapper(meter)("judge", parsed, model), criteria, llmjudge.PairwiseConfig{})
	if err != nil {
		return nil, fmt.Errorf("--pairwise: %w", err)
	}
	return p, nil
}

// pairwiseConcurrency is how many pairs of replies are judged at once.
const pairwiseConcurrency = 4

// JudgePairs asks p which reply of each pair is better, base (a) or head
// (b), in both orders, and sets each pair's Pairwise. Identical replies
// (and tool calls) are a tie without asking; a pair with a side missing
// cannot be judged.
func JudgePairs(ctx context.Context, p *llmjudge.Pairwise, pairs []gavel.ReplyPair) {
	sem := make(chan struct{}, pairwiseConcurrency)
	var wg sync.WaitGroup
	for i := range pairs {
		pair := &pairs[i]
		switch {
		case pair.Base == nil || pair.Head == nil:
			pair.Pairwise = &gavel.PairwiseVerdict{Error: "only one run has a transcript of this case"}
			continue
		case !pair.Differs:
			pair.Pairwise = &gavel.PairwiseVerdict{Winner: gavel.PreferNeither, Reasoning: "the same replies and tool calls: not sent to the judge"}
			continue
		}
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			pair.Pairwise = comparePair(ctx, p, pair.Base, pair.Head, pair.HeadTrial)
		})
	}
	wg.Wait()
}

// comparePair asks p which of base's and head's replies is better.
func comparePair(ctx context.Context, p *llmjudge.Pairwise, base, head *judge.Transcript, trial int) *gavel.PairwiseVerdict {
	res, err := p.Compare(llm.WithTrial(ctx, trial), base, head)
	v := &gavel.PairwiseVerdict{Reasoning: res.Reasoning, Usage: res.Usage}
	if err != nil {
		v.Error = err.Error()
		return v
	}
	switch res.Winner {
	case llmjudge.WinnerA:
		v.Winner = gavel.PreferBase
	case llmjudge.WinnerB:
		v.Winner = gavel.PreferHead
	default:
		v.Winner = gavel.PreferNeither
	}
	return v
}

// AskPairwise asks a pairwise judge of criteria which reply of each case
// of c is better, run A's or run B's (head), and tallies the wins in c
// (gavel compare --pairwise). ref is the judge's model; empty, head's
// judge model, whose "script:" path is relative to head's suite. A
// mistake of the user's is a *PairwiseError.
func AskPairwise(ctx context.Context, c *gavel.Comparison, head store.RunInfo, criteria, ref string) error {
	dir := ""
	if ref == "" {
		ref = head.Models["judge"]
		if strings.Contains(ref, secret.Marker) || strings.Contains(ref, "${") {
			return &PairwiseError{fmt.Errorf("run %s stored its judge model with its secrets hidden (%s): name the model with --model", head.ID, ref)}
		}
		if head.SuiteFile != "" {
			dir = filepath.Dir(head.SuiteFile)
		}
	}
	m, err := OpenModels(DefaultCacheDir(), false, false)
	if err != nil {
		return fmt.Errorf("the model cache: %w", err)
	}
	defer m.Close()
	p, err := OpenPairwise(ref, dir, criteria, m, llm.NewMeter(llm.DefaultPrices()))
	if err != nil {
		return &PairwiseError{err}
	}
	JudgePairs(ctx, p, c.Replies)
	c.Pairwise = &gavel.PairwiseTally{Criteria: criteria, Model: ref}
	c.TallyPairwise()
	return nil
}

// A PairwiseError is a mistake of the user's that keeps AskPairwise from
// asking: no model to ask, or one that cannot be opened.
type PairwiseError struct{ Err error }

func (e *PairwiseError) Error() string { return e.Err.Error() }
func (e *PairwiseError) Unwrap() error { return e.Err }
