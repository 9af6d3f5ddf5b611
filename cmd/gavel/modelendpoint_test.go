package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/llm/llmtest"
	"github.com/gavelhq/gavel/mcp/mcptest"
	"github.com/gavelhq/gavel/report"
)

// An exec agent written without Gavel (examples/model-endpoint) calls its
// model through Gavel's model endpoint, which serves gpt-5-mini (here
// the fake OpenAI server, the vendor's stand-in): the report, text and
// JSON, has the agent's tokens, cost and calls, trial by trial and in
// all. A second run replays the agent's calls from the cache: the vendor
// is not asked again, and nothing is spent.
func TestModelEndpointReportsTheAgentsSpending(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the example's agent")
	}
	vendor := fakeOpenAI(t, &llmtest.Scripted{Name: "gpt-5-mini", Rules: []llmtest.Rule{
		{Match: "12345", Text: "Your order 12345 has shipped. It should reach you on Friday."},
		{Match: "refund", Text: "You can have a refund within 30 days of delivery. Which order is it?"},
		{Match: "hello", Text: "Hello! How can I help you with your orders today?"},
		{Text: "I can only help with orders. Is there an order I can look up for you?"},
	}})
	t.Setenv("GAVEL_AGENT_MODEL", "openai:gpt-5-mini")
	t.Setenv("GAVEL_MODEL_ENDPOINT", fmt.Sprintf("127.0.0.1:%d", mcptest.FreePort(t)))
	suite, err := filepath.Abs(filepath.Join("..", "..", "examples", "model-endpoint"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir()) // both runs share its .gavel/cache
	gavel := func(args ...string) (string, report.JSONReport) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		if code := run(append(args, "--out", "report.json", suite), stdio{strings.NewReader(""), &stdout, &stderr}); code != eval.ExitPassed {
			t.Fatalf("exit %d, want 0\n%s\n%s", code, stdout.String(), stderr.String())
		}
		data, err := os.ReadFile("report.json")
		if err != nil {
			t.Fatal(err)
		}
		var doc report.JSONReport
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		return stdout.String(), doc
	}

	out, doc := gavel("run")
	agent := doc.Stats.Usage.Agent
	if agent.Calls != 4 || agent.InputTokens == 0 || agent.OutputTokens == 0 || agent.CostUSD <= 0 || agent.Unpriced {
		t.Errorf("the run's agent usage %+v: want its 4 calls, their tokens and their cost at gpt-5-mini's price", agent)
	}
	for _, c := range doc.Cases {
		for _, tr := range c.Trials {
			if u := tr.Usage.Agent; u.Calls != 1 || u.CostUSD <= 0 || tr.Models["gpt-5-mini"] != u {
				t.Errorf("%s: agent usage %+v, models %+v: want its one call, priced, under gpt-5-mini", tr.CaseID, u, tr.Models)
			}
		}
	}
	if doc.Suite.Models["agent"] != "openai:gpt-5-mini" {
		t.Errorf("the report's agent model is %q", doc.Suite.Models["agent"])
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^Tokens: [0-9,]+ \(agent [0-9,]+; 4 calls\)$`),
		regexp.MustCompile(`(?m)^Cost: \$[0-9.]+ \(agent \$[0-9.]+\)$`),
	} {
		if !want.MatchString(out) {
			t.Errorf("the text report has no line matching %s:\n%s", want, out)
		}
	}
	t.Logf("first run:\n%s", out)

	asked := vendor.Requests()
	out, doc = gavel("run")
	if vendor.Requests() != asked {
		t.Errorf("the second run asked the vendor %d more times, want none: the cache replays the agent's calls", vendor.Requests()-asked)
	}
	if agent := doc.Stats.Usage.Agent; agent.Calls != 4 || agent.CacheHits != 4 || agent.CostUSD != 0 {
		t.Errorf("the second run's agent usage %+v: want 4 calls, all from the cache, free", agent)
	}
	t.Logf("second run:\n%s", out)
}
