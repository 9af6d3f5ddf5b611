package llmjudge

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
)

// PairwiseConfig configures a Pairwise judge. The zero value is the
// defaults. Samples and Aggregate must be left unset: asking in both
// orders is how Pairwise checks itself.
type PairwiseConfig struct {
	Options
}

// Pairwise compares two responses to the same request and says which
// better meets the criteria. Models favour the response shown first (or
// second), so it asks twice, in both orders, and counts a preference only
// when both orders agree: a judge that always prefers the first response
// shown gives a tie.
type Pairwise struct {
	model    llm.Model
	s        settings
	prompt   *prompt
	criteria string
}

// Winner is the outcome of a comparison.
type Winner string

// The outcomes of a comparison.
const (
	WinnerA Winner = "a"
	WinnerB Winner = "b"
	Tie     Winner = "tie"
)

// A Preference is the model's answer in one order.
type Preference struct {
	// Choice is the answer as the model gave it: "A" for the response
	// shown first, "B" for the one shown second, or "tie".
	Choice string
	// Winner is Choice in terms of the transcripts compared.
	Winner    Winner
	Reasoning string
}

// PairwiseResult is the outcome of Compare.
type PairwiseResult struct {
	// Winner is a or b when both orders prefer it, else Tie.
	Winner Winner
	// Forward is the preference with a shown first; Reversed with b shown
	// first.
	Forward, Reversed Preference
	// Reasoning says how the winner was decided, then each order's
	// reasoning.
	Reasoning string
	// Usage is what both calls cost, re-asks included.
	Usage judge.Usage
}

var pairwiseSchema = verdictSchema("preference", objectSchema(
	property{"reasoning", `{"type":"string","description":"a brief comparison, written before the choice"}`},
	property{"winner", `{"type":"string","enum":["A","B","tie"],"description":"the response that better meets the criteria, or tie"}`},
))

// NewPairwise returns a Pairwise judge asking model which response better
// meets criteria. It is an error for the model to be nil, the criteria
// blank or the configuration out of range.
func NewPairwise(model llm.Model, criteria string, c PairwiseConfig) (*Pairwise, error) {
	const kind = "pairwise"
	s, err := c.resolve(kind, defaultMaxTokens, false)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", kind, err)
	}
	if len(c.Examples) > 0 {
		return nil, fmt.Errorf("%s: examples: %s takes none (an example would need the two responses compared and which people preferred)", s.name, kind)
	}
	if err := checkModel(model); err != nil {
		return nil, fmt.Errorf("%s: %w", s.name, err)
	}
	if strings.TrimSpace(criteria) == "" {
		return nil, fmt.Errorf("%s: %w", s.name, errEmptyCriteria)
	}
	p := &Pairwise{model: model, s: s, criteria: fence("criteria", criteria)}
	other := &judge.Transcript{Goal: sampleTranscript.Goal, FinalResponse: "I can't look orders up."}
	p.prompt, err = newPrompt(kind, c.Prompt, nil, p.data(sampleTranscript, other))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.name, err)
	}
	return p, nil
}

// data shows first as response A and second as response B.
func (p *Pairwise) data(first, second *judge.Transcript) PromptData {
	return PromptData{
		Goal:      fence("user_prompt", goalOf(first)),
		Criteria:  p.criteria,
		ResponseA: fence("response_a", first.Response()),
		ResponseB: fence("response_b", second.Response()),
		History:   historyOf(first),
	}
}

func (p *Pairwise) request(first, second *judge.Transcript) (llm.Request, error) {
	msgs, err := p.prompt.render(p.data(first, second))
	if err != nil {
		return llm.Request{}, fmt.Errorf("render the prompt: %w", err)
	}
	return p.s.request(msgs, pairwiseSchema), nil
}

// parsePreference reads {"reasoning": "…", "winner": "A" | "B" | "tie"};
// the choice's case does not matter.
func parsePreference(answer string) (Preference, error) {
	return unambiguous(answer, preferenceFormat, readPreference)
}

// preferenceFormat is the answer of a pairwise comparison.
var preferenceFormat = format{shape: shape{"winner": nil, "reasoning": nil}, decisions: []string{"winner"}, where: `"winner"`}

// readPreference reads a preference answer's fields.
func readPreference(m map[string]any) (Preference, error) {
	choice, err := text(m, "winner", true)
	if err != nil {
		return Preference{}, err
	}
	switch strings.ToLower(choice) {
	case "a":
		choice = "A"
	case "b":
		choice = "B"
	case "tie":
		choice = "tie"
	default:
		return Preference{}, fmt.Errorf(`"winner" is %s, want "A", "B" or "tie"`, quoteShort(choice))
	}
	reasoning, err := text(m, "reasoning", true)
	if err != nil {
		return Preference{}, err
	}
	return Preference{Choice: choice, Reasoning: reasoning}, nil
}

// Compare asks which of a's and b's responses better meets the criteria,
// in both orders. The two transcripts must answer the same goal. It
// returns an error when it could not compare: the model failed, or an
// answer was still malformed after the re-asks.
func (p *Pairwise) Compare(ctx context.Context, a, b *judge.Transcript) (PairwiseResult, error) {
	var out PairwiseResult
	if a == nil || b == nil {
		return out, fmt.Errorf("%s: compare needs two transcripts", p.s.name)
	}
	if goalOf(a) != goalOf(b) {
		return out, fmt.Errorf("%s: the transcripts answer different requests (%s, %s): compare responses to the same case", p.s.name, quoteShort(goalOf(a)), quoteShort(goalOf(b)))
	}
	var usage llm.Usage
	prefs := make([]Preference, 2)
	for i, order := range [][2]*judge.Transcript{{a, b}, {b, a}} {
		req, err := p.request(order[0], order[1])
		if err != nil {
			return out, fmt.Errorf("%s: %w", p.s.name, err)
		}
		pref, u, err := ask(ctx, p.model, req, p.s.retries, parsePreference)
		usage = usage.Add(u)
		out.Usage = judgeUsage(usage)
		if err != nil {
			return out, fmt.Errorf("%s: %w", p.s.name, err)
		}
		pref.Winner = mapChoice(pref.Choice, i == 1)
		prefs[i] = pref
	}
	out.Forward, out.Reversed = prefs[0], prefs[1]
	switch f, r := out.Forward.Winner, out.Reversed.Winner; {
	case f == r && f == Tie:
		out.Winner, out.Reasoning = Tie, "a tie in both orders"
	case f == r:
		out.Winner, out.Reasoning = f, fmt.Sprintf("%s wins in both orders", f)
	default:
		out.Winner = Tie
		out.Reasoning = fmt.Sprintf("a tie: the orders disagree (a shown first: %s; b shown first: %s), so the preference may be position bias", f, r)
	}
	out.Reasoning += "\na shown first: " + out.Forward.Reasoning + "\nb shown first: " + out.Reversed.Reasoning
	return out, nil
}

// mapChoice turns a positional choice into a winner; reversed says b was
// shown first.
func mapChoice(choice string, reversed bool) Winner {
	switch {
	case choice == "tie":
		return Tie
	case (choice == "A") != reversed:
		return WinnerA
	}
	return WinnerB
}

// Against returns a judge that compares each transcript it is given with
// baseline (a stored transcript of the same case, from the version being
// replaced) and passes unless the baseline wins: the new response is at
// least as good. Its score is categorical: win, tie or loss.
func (p *Pairwise) Against(baseline *judge.Transcript) judge.Judge {
	return judge.Func(func(ctx context.Context, t *judge.Transcript) (judge.Judgment, error) {
		out := judge.Judgment{Name: p.s.name, Prompt: p.prompt.version}
		if baseline == nil {
			return out, errors.New(p.s.name + ": no baseline transcript to compare with")
		}
		res, err := p.Compare(ctx, t, baseline)
		out.Usage = res.Usage
		if err != nil {
			return out, err
		}
		label, verdict := "tie", "no better than the baseline, and no worse: "
		switch res.Winner {
		case WinnerA:
			label, verdict = "win", "better than the baseline: "
		case WinnerB:
			label, verdict = "loss", "worse than the baseline: "
		}
		score, err := judge.Category(label, []judge.Label{{Name: "loss", Value: 0}, {Name: "tie", Value: 0.5}, {Name: "win", Value: 1}})
		if err != nil {
			return out, err
		}
		// It passes at a tie or better: the least passing value is a tie's.
		out.Status, out.Score = judge.StatusPass, score
		out.Threshold = judge.AtLeast(score.Normalized(), 0.5)
		if res.Winner == WinnerB {
			out.Status = judge.StatusFail
		}
		out.Reasoning = verdict + "(a is this response, b the baseline) " + res.Reasoning
		return out, nil
	})
}
