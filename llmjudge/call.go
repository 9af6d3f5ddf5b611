package llmjudge

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/gavelhq/gavel/llm"
)

// ask sends req to m and parses the answer. A malformed answer is re-asked
// up to retries times: the bad answer and a user message that states the
// parse error are appended to the conversation. It returns the usage of
// every call it made, also when it fails.
func ask[V any](ctx context.Context, m llm.Model, req llm.Request, retries int, parse func(string) (V, error)) (V, llm.Usage, error) {
	var zero V
	var usage llm.Usage
	msgs := req.Messages
	var last error
	for attempt := 0; attempt <= retries; attempt++ {
		r := req
		r.Messages = msgs
		resp, err := m.Generate(ctx, &r)
		if err != nil {
			return zero, usage, fmt.Errorf("ask the model: %w", err)
		}
		if resp == nil {
			return zero, usage, errors.New("ask the model: no response and no error")
		}
		usage = usage.Add(resp.Usage)
		v, err := parse(resp.Text)
		if err == nil {
			return v, usage, nil
		}
		if resp.FinishReason == llm.FinishLength {
			err = fmt.Errorf("%w (the answer was cut off at the token limit: keep the reasoning short)", err)
		}
		last = err
		msgs = append(slices.Clip(msgs),
			llm.Message{Role: llm.RoleAssistant, Content: resp.Text},
			llm.Message{Role: llm.RoleUser, Content: reask(err)})
	}
	return zero, usage, fmt.Errorf("the model's answer could not be used after %d attempt(s): %w", retries+1, last)
}

// reask is the message that asks again after a malformed answer.
func reask(err error) string {
	return "Your answer could not be used: " + err.Error() + ".\n\nAnswer again with only the JSON object the instructions describe, with every field, and nothing else."
}

// sample asks k times, each sample with its own llm.Request.Trial (the
// request's trial and the sample's index combined) so that a cache keeps
// samples and trials independent. Any sample that fails fails the whole.
func sample[V any](ctx context.Context, m llm.Model, req llm.Request, s settings, parse func(string) (V, error)) ([]V, llm.Usage, error) {
	var out []V
	var usage llm.Usage
	for i := range s.samples {
		r := req
		r.Trial = req.Trial*maxSamples + i
		v, u, err := ask(ctx, m, r, s.retries, parse)
		usage = usage.Add(u)
		if err != nil {
			if s.samples > 1 {
				err = fmt.Errorf("sample %d of %d: %w", i+1, s.samples, err)
			}
			return nil, usage, err
		}
		out = append(out, v)
	}
	return out, usage, nil
}
