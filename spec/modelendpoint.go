package spec

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/gateway"
	"github.com/gavelhq/gavel/mock"
)

// modelEndpoint serves the agent's model at e.Listen, in the vendors'
// wire formats, for an http or exec agent to call instead of its vendor,
// and returns ag with the calls credited to its replies
// (agent.ModelCalls). The model is the suite's agent model: opened for
// the "agent" role, it is metered, priced, cached and traced as the
// builtin agent's. The endpoint starts when the first session opens.
func (b *builder) modelEndpoint(ag agent.Agent, e ModelEndpointSpec, models map[string]string) agent.Agent {
	const field = "agent.model_endpoint"
	listen := b.expand(field+".listen", e.Listen, plainValue)
	if _, _, err := net.SplitHostPort(listen); err != nil {
		b.fail("%s.listen %q: want the host:port Gavel serves the agent's model on, such as 127.0.0.1:8790 (the agent's OPENAI_BASE_URL is then http://127.0.0.1:8790/v1)", field, listen)
		return ag
	}
	ref, refField := e.Model, field+".model"
	switch {
	case ref == "" && models["agent"] == "":
		b.fail("%s: give model, the model that answers the agent (such as openai:gpt-5-mini, or script:models/agent.yaml offline), or models.agent", field)
		return ag
	case ref == "":
		ref, refField = models["agent"], "models.agent"
	case models["agent"] != "":
		b.fail("%s.model and models.agent both name the agent's model: keep model_endpoint.model and remove models.agent", field)
		return ag
	}
	models["agent"] = b.expand(refField, ref, addressValue)
	m := b.model("agent", ref, refField)
	if m == nil {
		return ag
	}
	if faults := b.modelFaults(e.Faults); faults != nil {
		m = faults(m)
	}
	calls := &agent.ModelCalls{}
	ep := &listeningEndpoint{listen: listen, model: b.shown(models["agent"]), handler: gateway.New(calls.Model(m), gateway.Config{}), announce: b.env.Stderr}
	b.out.closers = append(b.out.closers, ep.Close)
	return &endpointAgent{Agent: agent.Credit(ag, calls), endpoint: ep}
}

// modelFaults builds the faults injected into the agent's model calls;
// nil without any.
func (b *builder) modelFaults(specs []ModelFaultSpec) llm.Middleware {
	if len(specs) == 0 {
		return nil
	}
	rules := make([]mock.ModelFaultRule, len(specs))
	for i, s := range specs {
		rules[i] = mock.ModelFaultRule{OnCall: s.OnCall, Rate: s.Rate, Seed: s.Seed, Kind: s.Kind, Message: s.Message,
			RetryAfter: b.duration(fmt.Sprintf("agent.model_endpoint.faults[%d].retry_after", i), s.RetryAfter)}
	}
	faults, err := mock.ModelFaults(rules)
	if err != nil {
		b.fail("agent.model_endpoint.faults: %v", err)
		return nil
	}
	return faults
}

// endpointAgent starts its model endpoint before opening its first
// session.
type endpointAgent struct {
	agent.Agent
	endpoint *listeningEndpoint
}

// Revival is the credited agent's.
func (a *endpointAgent) Revival() (string, error) { return agent.Revival(a.Agent) }

// TakesEvents is the credited agent's.
func (a *endpointAgent) TakesEvents() error { return agent.TakesEvents(a.Agent) }

func (a *endpointAgent) Open(ctx context.Context, sessionID string) (agent.Session, error) {
	if err := a.endpoint.start(); err != nil {
		return nil, err
	}
	return a.Agent.Open(ctx, sessionID)
}

// A listeningEndpoint is the model endpoint served on a fixed address,
// started once, on first use, for the whole run.
type listeningEndpoint struct {
	listen   string
	model    string // the model served, as reports show it
	handler  http.Handler
	announce io.Writer

	once   sync.Once
	err    error
	server *http.Server
}

func (e *listeningEndpoint) start() error {
	e.once.Do(func() { e.err = e.serve() })
	return e.err
}

func (e *listeningEndpoint) serve() error {
	ln, err := net.Listen("tcp", e.listen)
	if err != nil {
		return fmt.Errorf("agent.model_endpoint: listen on %s: %w (is another program using the port?)", e.listen, err)
	}
	e.server = &http.Server{Handler: e.handler, ReadHeaderTimeout: 10 * time.Second}
	go e.server.Serve(ln)
	fmt.Fprintf(e.announce, "gavel: serving the agent's model %s at http://%s/v1 (OpenAI's chat completions, Anthropic's messages)\n", e.model, ln.Addr())
	return nil
}

// Close stops serving.
func (e *listeningEndpoint) Close() error {
	if e.server == nil {
		return nil
	}
	if err := e.server.Close(); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
