package mock

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/gateway"
)

// The faults an agent's model calls suffer on purpose (ModelFaultRule).
const (
	// ModelRateLimit answers 429 with a Retry-After header: the vendor's
	// rate limit. The model is not called.
	ModelRateLimit = "rate_limit"
	// ModelServerError answers 500: the vendor failed. The model is not
	// called.
	ModelServerError = "server_error"
	// ModelTruncate cuts the model's reply off as the token limit does:
	// finish reason length, its text cut in half, its tool calls'
	// arguments cut in the middle (gateway.Truncated). The model is
	// called, and what it spent is counted.
	ModelTruncate = "truncate"
)

// ModelFaultKinds are the kinds of ModelFaultRule.
var ModelFaultKinds = []string{ModelRateLimit, ModelServerError, ModelTruncate}

// A ModelFaultRule says which model calls of an agent suffer a fault on
// purpose: the OnCall-th call of each trial, or, without OnCall, each
// call at Rate, drawn from a generator seeded with Seed so that runs are
// alike.
type ModelFaultRule struct {
	OnCall int
	Rate   float64
	Seed   uint64
	// Kind is ModelRateLimit, ModelServerError or ModelTruncate.
	Kind string
	// RetryAfter is the Retry-After of a rate limit. Defaults to 1 s.
	RetryAfter time.Duration
	// Message is the words of a rate limit or a server error. Defaults
	// to a message that says the fault was injected.
	Message string
}

// ModelFaults returns the middleware that makes the calls rules choose
// suffer their fault (the first rule that applies): the model endpoint
// of an http or exec agent puts it in front of the agent's model, where
// the calls carry their trial (agent.ModelCalls), so that OnCall counts
// a trial's calls, and each fault is noted on the reply the call is
// credited to (agent.ModelFaultInjected). It refuses a rule that applies to no call, or of an
// unknown kind.
func ModelFaults(rules []ModelFaultRule) (llm.Middleware, error) {
	pick := &chooser{}
	for i, r := range rules {
		switch {
		case !slices.Contains(ModelFaultKinds, r.Kind):
			return nil, fmt.Errorf("fault %d: kind %q: want one of %v", i+1, r.Kind, ModelFaultKinds)
		case r.OnCall < 0 || (r.OnCall == 0 && !(r.Rate > 0 && r.Rate <= 1)):
			return nil, fmt.Errorf("fault %d: say which calls: on_call (the Nth model call of a trial, from 1) or a rate above 0 and at most 1", i+1)
		case r.RetryAfter < 0:
			return nil, fmt.Errorf("fault %d: retry_after cannot be negative", i+1)
		}
		pick.rules = append(pick.rules, strike{onCall: r.OnCall, rate: r.Rate, seed: r.Seed})
	}
	return func(next llm.Model) llm.Model {
		return llm.Func(func(ctx context.Context, req *llm.Request) (*llm.Response, error) {
			i := pick.choose(ctx, "")
			if i < 0 {
				return next.Generate(ctx, req)
			}
			r := rules[i]
			message := r.Message
			var err error
			switch r.Kind {
			case ModelRateLimit:
				if message == "" {
					message = "Rate limit reached for requests (a fault injected by Gavel). Please try again later."
				}
				retryAfter := r.RetryAfter
				if retryAfter == 0 {
					retryAfter = time.Second
				}
				agent.ModelFaultInjected(ctx, fmt.Sprintf("%s (429, Retry-After %v)", ModelRateLimit, retryAfter))
				return nil, &llm.APIError{Provider: "gavel", StatusCode: http.StatusTooManyRequests, Message: message, RetryAfter: retryAfter}
			case ModelServerError:
				if message == "" {
					message = "The server had an error while processing your request (a fault injected by Gavel)."
				}
				agent.ModelFaultInjected(ctx, ModelServerError+" (500)")
				return nil, &llm.APIError{Provider: "gavel", StatusCode: http.StatusInternalServerError, Message: message}
			}
			resp, err := next.Generate(ctx, req)
			if err != nil {
				return resp, err
			}
			agent.ModelFaultInjected(ctx, ModelTruncate)
			return gateway.Truncated(resp), nil
		})
	}, nil
}
