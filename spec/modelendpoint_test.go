package spec_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/llmtest"
	"github.com/gavelhq/gavel/llm/providers"
	"github.com/gavelhq/gavel/mcp/mcptest"
	"github.com/gavelhq/gavel/report"
	"github.com/gavelhq/gavel/runner"
	"github.com/gavelhq/gavel/spec"
)

// chatAgent builds the example agent that calls its model over a
// vendor's HTTP API (examples/model-endpoint/cmd/chat-agent) and returns
// its path.
func chatAgent(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "chat-agent")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/gavelhq/gavel/examples/model-endpoint/cmd/chat-agent").CombinedOutput()
	if err != nil {
		t.Fatalf("building the chat agent: %v\n%s", err, out)
	}
	return bin
}

// echoVendor is a vendor's model behind the fake OpenAI server: it says
// what the user said last, and spends 100 input tokens a character of
// it and 10 output tokens, so that each trial's usage says whose
// message it answered.
func echoVendor(t *testing.T) *llmtest.OpenAIServer {
	srv := llmtest.NewOpenAIServer(llm.Func(func(_ context.Context, req *llm.Request) (*llm.Response, error) {
		last := req.Messages[len(req.Messages)-1].Content
		return &llm.Response{Text: "You said: " + last, FinishReason: llm.FinishStop,
			Usage: llm.Usage{InputTokens: 100 * int64(len(last)), OutputTokens: 10}}, nil
	}))
	srv.Latency = 20 * time.Millisecond // the agent's concurrent messages overlap, but for the endpoint
	t.Cleanup(srv.Close)
	return srv
}

// endpointEnv opens the suite's models as gavel run does (metered at
// list prices), with openai: at the fake vendor and ${GAVEL_ENDPOINT}
// the endpoint's address.
func endpointEnv(vendor *llmtest.OpenAIServer, listen string) spec.Env {
	env := testEnv()
	vars := map[string]string{"OPENAI_API_KEY": "sk-test", "GAVEL_ENDPOINT": listen}
	if vendor != nil {
		vars["OPENAI_BASE_URL"] = vendor.URL
	}
	env.Getenv = func(name string) string { return vars[name] }
	env.Registry = providers.Registry() // a script is local: free
	env.Registry["fake"] = testEnv().Registry["fake"]
	meter := llm.NewMeter(llm.DefaultPrices())
	env.Wrap = func(_ string, ref llm.Ref, m llm.Model) llm.Model {
		return providers.Wrap(m, ref, env.Getenv, meter, nil)
	}
	return env
}

// endpointCases have messages of different lengths, so that each
// trial's tokens say which message they answered.
const endpointCases = `cases:
  - {id: a, input: 'where is my order 12345?', rules: [{contains: 'You said: where is my order 12345?'}]}
  - {id: b, input: 'hi', rules: [{contains: 'You said: hi'}]}
  - {id: c, input: 'I would like a refund for the shoes I bought', rules: [{contains: 'You said: I would like a refund'}]}
  - {id: d, input: 'thanks!', rules: [{contains: 'You said: thanks!'}]}
`

// runSuite opens and runs the suite in dir.
func runSuite(t *testing.T, dir string, env spec.Env) *gavel.Run {
	t.Helper()
	b, err := spec.Open(dir, env)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	return runner.Run(ctx, b.Suite, runner.Config{Concurrency: b.Concurrency, Timeout: time.Minute})
}

// An exec agent that calls its model over OpenAI's API or Anthropic's,
// plainly or streamed, is pointed at Gavel's model endpoint: each
// trial's agent usage is what its own calls spent, priced at the served
// model's list price, however many trials run at once, and the trial's
// models table names the model.
func TestModelEndpoint(t *testing.T) {
	bin := chatAgent(t)
	for _, tc := range []struct {
		name, env string
		script    bool // the endpoint serves a script, offline, instead of the vendor's gpt-5-mini
	}{
		{"openai", "'OPENAI_BASE_URL=http://${GAVEL_ENDPOINT}/v1', OPENAI_API_KEY=unused", false},
		{"openai streamed", "'OPENAI_BASE_URL=http://${GAVEL_ENDPOINT}/v1', OPENAI_API_KEY=unused, CHAT_AGENT_STREAM=1", false},
		{"anthropic", "CHAT_AGENT_API=anthropic, 'ANTHROPIC_BASE_URL=http://${GAVEL_ENDPOINT}', ANTHROPIC_API_KEY=unused", false},
		{"anthropic streamed", "CHAT_AGENT_API=anthropic, 'ANTHROPIC_BASE_URL=http://${GAVEL_ENDPOINT}', ANTHROPIC_API_KEY=unused, CHAT_AGENT_STREAM=1", false},
		{"script", "'OPENAI_BASE_URL=http://${GAVEL_ENDPOINT}/v1', OPENAI_API_KEY=unused", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vendor := echoVendor(t)
			listen := fmt.Sprintf("127.0.0.1:%d", mcptest.FreePort(t))
			model := "openai:gpt-5-mini"
			if tc.script {
				model = "script:echo.yaml"
			}
			dir := suiteDir(t, map[string]string{
				"echo.yaml": "name: echo-script\nrules:\n  - when: {user: '(?P<said>.+)'}\n    text: 'You said: ${said}'\n",
				"gavel.yaml": "concurrency: 2\nagent:\n  exec: {command: ['" + bin + "'], env: [" + tc.env + "]}\n" +
					"  model_endpoint: {listen: '${GAVEL_ENDPOINT}', model: '" + model + "'}\n" + endpointCases,
			})
			run := runSuite(t, dir, endpointEnv(vendor, listen))
			if run.Suite.Models["agent"] != model {
				t.Errorf("the suite's agent model is %q, want the endpoint's, %q", run.Suite.Models["agent"], model)
			}
			for _, cr := range run.Cases {
				tr := cr.Trials[0]
				if tr.Verdict.Status != judge.StatusPass {
					t.Errorf("%s: %s", cr.ID(), tr.Verdict.Summary())
					continue
				}
				in := int64(len(cr.Case.Script.Rounds[0].Prompt))
				want := judge.Usage{InputTokens: 100 * in, OutputTokens: 10, Calls: 1, CostUSD: (float64(100*in)*0.25 + 10*2) / 1e6}
				name := "gpt-5-mini"
				if tc.script {
					// A script costs nothing; it counts four characters a token.
					want, name = tr.Models["echo-script"], "echo-script"
					if want.Calls != 1 || want.InputTokens == 0 || want.CostUSD != 0 || want.Unpriced {
						t.Errorf("%s: the script's usage %+v, want one call, its tokens, no cost", cr.ID(), want)
					}
				}
				if tr.Usage.Agent != want || tr.Models[name] != want {
					t.Errorf("%s: agent usage %+v, models %+v; want %+v of %s", cr.ID(), tr.Usage.Agent, tr.Models, want, name)
				}
			}
			if !tc.script && vendor.Requests() != len(run.Cases) {
				t.Errorf("the vendor was asked %d times, want once a case", vendor.Requests())
			}
		})
	}
}

// An http agent is pointed at the endpoint as an exec agent is: its
// calls, made by its own server, are credited to its replies.
func TestModelEndpointForAnHTTPAgent(t *testing.T) {
	vendor := echoVendor(t)
	listen := fmt.Sprintf("127.0.0.1:%d", mcptest.FreePort(t))
	agentSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct{ Message string }
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		body, _ := json.Marshal(map[string]any{"model": "gpt-4o", "messages": []map[string]string{{"role": "user", "content": req.Message}}})
		resp, err := http.Post("http://"+listen+"/v1/chat/completions", "application/json", bytes.NewReader(body))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		var c struct {
			Choices []struct{ Message struct{ Content string } }
		}
		if err := json.NewDecoder(resp.Body).Decode(&c); err != nil || len(c.Choices) == 0 {
			http.Error(w, fmt.Sprintf("%s: %v", resp.Status, err), http.StatusBadGateway)
			return
		}
		json.NewEncoder(w).Encode(map[string]string{"reply": c.Choices[0].Message.Content})
	}))
	t.Cleanup(agentSrv.Close)
	dir := suiteDir(t, map[string]string{"gavel.yaml": "concurrency: 2\nagent:\n  http: {url: '" + agentSrv.URL + "'}\n" +
		"  model_endpoint: {listen: '${GAVEL_ENDPOINT}', model: openai:gpt-5-mini}\n" + endpointCases})
	run := runSuite(t, dir, endpointEnv(vendor, listen))
	for _, cr := range run.Cases {
		tr := cr.Trials[0]
		in := int64(len(cr.Case.Script.Rounds[0].Prompt))
		if tr.Verdict.Status != judge.StatusPass || tr.Usage.Agent.InputTokens != 100*in || tr.Usage.Agent.Calls != 1 || tr.Usage.Agent.CostUSD <= 0 {
			t.Errorf("%s: %s, agent usage %+v: want a pass, its own call's %d input tokens, priced", cr.ID(), tr.Verdict.Summary(), tr.Usage.Agent, 100*in)
		}
	}
}

// Faults on the endpoint: a rate limit on the first call of each trial,
// which the agent waits out (its Retry-After) and asks again, spending
// one call; a reply cut off by the token limit, which the agent passes
// on, its turn marked so in the transcript and the report. Each turn
// says which faults its model calls suffered.
func TestModelEndpointFaults(t *testing.T) {
	bin := chatAgent(t)
	suite := func(fault string) string {
		return "concurrency: 2\nagent:\n  exec: {command: ['" + bin + "'], env: ['OPENAI_BASE_URL=http://${GAVEL_ENDPOINT}/v1', OPENAI_API_KEY=unused]}\n" +
			"  model_endpoint:\n    listen: '${GAVEL_ENDPOINT}'\n    model: openai:gpt-5-mini\n    faults: [" + fault + "]\n" + endpointCases
	}
	t.Run("rate limit", func(t *testing.T) {
		vendor := echoVendor(t)
		listen := fmt.Sprintf("127.0.0.1:%d", mcptest.FreePort(t))
		run := runSuite(t, suiteDir(t, map[string]string{"gavel.yaml": suite("{on_call: 1, kind: rate_limit, retry_after: 10ms}")}), endpointEnv(vendor, listen))
		for _, cr := range run.Cases {
			tr := cr.Trials[0]
			if tr.Verdict.Status != judge.StatusPass || tr.Usage.Agent.Calls != 1 {
				t.Errorf("%s: %s, %d calls: want a pass after the agent asked again, one call spent", cr.ID(), tr.Verdict.Summary(), tr.Usage.Agent.Calls)
			}
			turn := tr.Transcript.Turns[len(tr.Transcript.Turns)-1]
			if want := "agent (faults injected into its model calls: rate_limit (429, Retry-After 10ms))"; report.Speaker(turn) != want {
				t.Errorf("%s: the report says %q, want %q", cr.ID(), report.Speaker(turn), want)
			}
		}
		if vendor.Requests() != len(run.Cases) {
			t.Errorf("the vendor was asked %d times, want once a case: a rate limit Gavel injects calls no model", vendor.Requests())
		}
	})
	t.Run("truncate", func(t *testing.T) {
		vendor := echoVendor(t)
		listen := fmt.Sprintf("127.0.0.1:%d", mcptest.FreePort(t))
		dir := suiteDir(t, map[string]string{"gavel.yaml": strings.ReplaceAll(suite("{on_call: 1, kind: truncate}"), "contains: 'You said: ", "contains: 'You ")})
		run := runSuite(t, dir, endpointEnv(vendor, listen))
		for _, cr := range run.Cases {
			tr := cr.Trials[0]
			turn := tr.Transcript.Turns[len(tr.Transcript.Turns)-1]
			full := "You said: " + cr.Case.Script.Rounds[0].Prompt
			if turn.FinishReason != "length" || turn.Content != full[:len(full)/2] || tr.Usage.Agent.OutputTokens != 10 {
				t.Errorf("%s: the agent's turn %q (finish %q, usage %+v), want %q cut in half, finish length, its tokens spent", cr.ID(), turn.Content, turn.FinishReason, tr.Usage.Agent, full)
			}
			if s := report.Speaker(turn); s != "agent (cut off by the token limit: finish_reason length) (faults injected into its model calls: truncate)" {
				t.Errorf("%s: the report says %q", cr.ID(), s)
			}
		}
	})
}

// An endpoint in front of a builtin agent, without an address or a
// model, or with the agent's model named twice, is refused, saying what
// to write.
func TestModelEndpointProblems(t *testing.T) {
	for _, tc := range []struct{ agent, want string }{
		{"agent:\n  builtin: {model: 'fake:agent'}\n  model_endpoint: {listen: '127.0.0.1:8790'}\n",
			"agent.model_endpoint: a builtin agent calls its model (agent.builtin.model) itself"},
		{"agent:\n  exec: {command: [cat]}\n  model_endpoint: {model: 'fake:agent'}\n",
			`agent.model_endpoint.listen "": want the host:port Gavel serves the agent's model on`},
		{"agent:\n  exec: {command: [cat]}\n  model_endpoint: {listen: '127.0.0.1:8790'}\n",
			"agent.model_endpoint: give model, the model that answers the agent"},
		{"agent:\n  exec: {command: [cat]}\n  model_endpoint: {listen: '127.0.0.1:8790', model: 'fake:a'}\nmodels: {agent: 'fake:b'}\n",
			"agent.model_endpoint.model and models.agent both name the agent's model"},
		{"agent:\n  exec: {command: [cat]}\n  model_endpoint: {listen: '127.0.0.1:8790', model: 'fake:a', faults: [{kind: truncate}]}\n",
			"agent.model_endpoint.faults: fault 1: say which calls"},
		{"agent:\n  exec: {command: [cat]}\n  model_endpoint: {listen: '127.0.0.1:8790', model: 'fake:a', faults: [{on_call: 1, kind: rate_limit, retry_after: soon}]}\n",
			`agent.model_endpoint.faults[0].retry_after "soon": want a positive duration`},
	} {
		dir := suiteDir(t, map[string]string{"gavel.yaml": tc.agent + "cases:\n  - {id: a, input: hi, rules: [{contains: hi}]}\n"})
		env := testEnv()
		env.DryRun = true
		_, err := spec.Open(dir, env)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.agent, err, tc.want)
		}
	}
}
