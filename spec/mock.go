package spec

import (
	"context"
	"encoding/json"
	"fmt"
	"net"

	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/mcp"
	"github.com/gavelhq/gavel/mock"
	"github.com/gavelhq/gavel/rule"
)

// mockTools builds the mock tools a suite declares; nil without any.
func (b *builder) mockTools(specs []MockToolSpec) *mock.Toolbox {
	if len(specs) == 0 {
		return nil
	}
	tools := make([]mock.Tool, 0, len(specs))
	for i, s := range specs {
		field := fmt.Sprintf("agent.mock_tools[%d]", i)
		t := mock.Tool{Name: s.Name, Description: s.Description}
		if s.InputSchema != nil {
			schema, err := json.Marshal(s.InputSchema)
			if err != nil {
				b.fail("%s.input_schema: %v", field, err)
			}
			t.InputSchema = schema
		}
		if len(s.Results) == 0 {
			b.fail("%s: give results: the answers of the tool, such as [{result: ok}]", field)
		}
		t.Results = b.mockResults(field, s.Results)
		tools = append(tools, t)
	}
	box, err := mock.New(tools)
	if err != nil {
		b.fail("agent.mock_tools: %v", err)
		return nil
	}
	return box
}

// mockResults builds the results of a mock tool, at field.
func (b *builder) mockResults(field string, specs []MockResultSpec) []mock.Result {
	var results []mock.Result
	for j, r := range specs {
		rfield := fmt.Sprintf("%s.results[%d]", field, j)
		res := mock.Result{Once: r.Once, Text: r.Error, Error: r.Error != ""}
		switch v := r.Result; {
		case r.Error != "" && v != nil:
			b.fail("%s: give result or error, not both", rfield)
		case r.Error != "":
		case v == nil:
			b.fail("%s: give result (the answer) or error (a failure, in words)", rfield)
		default:
			text, ok := v.(string)
			if !ok {
				data, err := json.Marshal(v)
				if err != nil {
					b.fail("%s.result: %v", rfield, err)
				}
				text = string(data)
			}
			res.Text = text
		}
		if r.When != nil {
			args, err := json.Marshal(r.When)
			if err == nil {
				res.When, err = rule.NewArgsMatcher(args, r.Exact, false)
			}
			if err != nil {
				b.fail("%s.when: %v", rfield, err)
			}
		}
		results = append(results, res)
	}
	return results
}

// caseMocks gives the case id its own answers of the suite's mock tools.
func (b *builder) caseMocks(id string, specs []CaseMockSpec) {
	if len(specs) > 0 && b.mocks == nil {
		b.fail("mock_tools: the suite declares no mock tools: declare each under agent.mock_tools (its description and schema), then give this case's answers here")
		return
	}
	for i, s := range specs {
		field := fmt.Sprintf("mock_tools[%d]", i)
		if len(s.Results) == 0 {
			b.fail("%s: give results: this case's answers of %s, such as [{error: the service is down}]", field, s.Name)
			continue
		}
		if err := b.mocks.SetCase(id, s.Name, b.mockResults(field, s.Results)); err != nil {
			b.fail("%s.name: %v", field, err)
		}
	}
}

// serveMocks serves box to an http or exec agent at listen, recording
// every call as a recording proxy does, and returns ag recorded.
func (b *builder) serveMocks(ag agent.Agent, box *mock.Toolbox, listen string, faults *mock.Injector) agent.Agent {
	listen = b.expand("agent.mock_listen", listen, plainValue)
	if _, _, err := net.SplitHostPort(listen); err != nil {
		b.fail("agent.mock_listen %q: an http or exec agent reaches its mock tools at an address Gavel serves them on: want host:port, such as 127.0.0.1:8789", listen)
		return ag
	}
	log := &mcp.Log{}
	p := &listeningProxy{name: "mock tools", listen: listen, log: log, announce: b.env.Stderr,
		make: inTurns(log, faulty(faults, func() (*mcp.Proxy, error) {
			return mcp.NewToolServer(context.Background(), "gavel-mock-tools", box, log)
		}))}
	b.out.closers = append(b.out.closers, p.Close)
	return &proxiedAgent{Agent: agent.Recorded(ag, log), proxies: []*listeningProxy{p}}
}

// faults builds the faults a suite injects into its agent's tool calls;
// nil without any.
func (b *builder) faults(specs []FaultSpec) *mock.Injector {
	if len(specs) == 0 {
		return nil
	}
	rules := make([]mock.FaultRule, len(specs))
	for i, s := range specs {
		rules[i] = mock.FaultRule{Tool: s.Tool, OnCall: s.OnCall, Rate: s.Rate, Seed: s.Seed,
			Fault: mcp.Fault{Kind: s.Kind, Message: s.Message, Delay: b.duration(fmt.Sprintf("agent.faults[%d].delay", i), s.Delay)}}
	}
	in, err := mock.NewInjector(rules)
	if err != nil {
		b.fail("agent.faults: %v", err)
		return nil
	}
	return in
}

// faulty returns make with faults set on each server it makes, when
// there are faults.
func faulty(faults *mock.Injector, make func() (*mcp.Proxy, error)) func() (*mcp.Proxy, error) {
	if faults == nil {
		return make
	}
	return func() (*mcp.Proxy, error) {
		p, err := make()
		if err == nil {
			p.SetFaults(faults.Fault)
		}
		return p, err
	}
}
