package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/llmtest"
	"github.com/gavelhq/gavel/report"
)

// fakeOpenAI starts the fake OpenAI server answering with model, and
// points the openai provider at it.
func fakeOpenAI(t *testing.T, model llm.Model) *llmtest.OpenAIServer {
	t.Helper()
	srv := llmtest.NewOpenAIServer(model)
	t.Cleanup(srv.Close)
	t.Setenv("OPENAI_API_KEY", "sk-test")
	t.Setenv("OPENAI_BASE_URL", srv.URL)
	return srv
}

// writeSuite writes a suite file into a directory of its own and returns
// its path.
func writeSuite(t *testing.T, yaml string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "gavel.yaml")
	if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// usageSuite tests a builtin agent on gpt-5-mini, judged by a rubric on
// the judge model; the follow-up detector asks the judge model too.
func usageSuite(judgeModel, extra string) string {
	return `name: usage
agent:
  builtin:
    model: openai:gpt-5-mini
    system_prompt: You are a support agent.
models: {judge: 'openai:` + judgeModel + `'}
` + extra + `cases:
  - {id: one, input: 'where is my order 12345?', judge_prompt: gives the delivery date}
  - {id: two, input: 'where is my order 777?', judge_prompt: gives the delivery date}
`
}

// Every token a model was paid for is counted once and everywhere: a
// judge whose answers stay malformed is an ERROR that still spent its
// three calls, and the trials' usage, the per-model table and the printed
// totals agree.
func TestUsageAddsUp(t *testing.T) {
	model := &llmtest.Scripted{Rules: []llmtest.Rule{
		{When: func(r *llm.Request) bool { return r.Model == "gpt-5-mini" }, Text: "Your order ships on Friday."},
		{When: func(r *llm.Request) bool { return r.ResponseSchema != nil && r.ResponseSchema.Name == "follow_up" },
			Text: `{"reasoning": "it answers", "needs_followup": false, "reply": ""}`},
		{Text: "I cannot answer in JSON today."}, // the rubric's answers: malformed every time
	}}
	srv := fakeOpenAI(t, model)
	suite := writeSuite(t, usageSuite("gpt-4.1-mini", ""))
	code, out, errs := gavelCmd(t, "run", "--quiet", "--no-cache", "--concurrency", "1", "--out", "report.json", suite)
	if code == eval.ExitPassed || code == eval.ExitUsage {
		t.Fatalf("exit %d, want a failed run (its judge could not judge)\n%s\n%s", code, out, errs)
	}
	data, err := os.ReadFile("report.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc report.JSONReport
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}

	var trials, models, roles tally
	for _, c := range doc.Cases {
		for _, tr := range c.Trials {
			if tr.Verdict.Status != "ERROR" || tr.Usage.Judge.OutputTokens == 0 {
				t.Errorf("trial %s#%d: verdict %s, judge usage %+v; want an ERROR that kept what the judge spent",
					tr.CaseID, tr.N, tr.Verdict.Status, tr.Usage.Judge)
			}
			trials.add(tr.Usage.Total().Tokens(), tr.Usage.Total().CostUSD)
		}
	}
	for _, u := range doc.Stats.Models {
		models.add(u.Tokens(), u.CostUSD)
	}
	total := doc.Stats.Usage.Total()
	roles.add(total.Tokens(), total.CostUSD)
	printed := printedTotals(t, out)

	if trials.tokens == 0 || trials != models || trials != roles || trials.tokens != printed.tokens || math.Abs(trials.cost-printed.cost) > 0.00005 {
		t.Errorf("what was spent does not add up:\ntrials    %+v\nmodels    %+v\nby role   %+v\nprinted   %+v\n%s", trials, models, roles, printed, out)
	}
	// An agent call and 3 rubric calls a trial; the agent asked nothing,
	// so the follow-up detector's model was not asked.
	if got := srv.Requests(); got != 8 {
		t.Errorf("the server got %d requests, want 8", got)
	}
}

// tally sums tokens and cost.
type tally struct {
	tokens int64
	cost   float64
}

func (t *tally) add(tokens int64, cost float64) {
	t.tokens += tokens
	t.cost = math.Round((t.cost+cost)*1e9) / 1e9
}

// printedTotals reads the text report's "Tokens:" and "Cost:" lines.
func printedTotals(t *testing.T, out string) tally {
	t.Helper()
	tokens := regexp.MustCompile(`(?m)^Tokens: ([0-9,]+)`).FindStringSubmatch(out)
	cost := regexp.MustCompile(`(?m)^Cost: \$([0-9.]+)`).FindStringSubmatch(out)
	if tokens == nil || cost == nil {
		t.Fatalf("no Tokens: or Cost: line in:\n%s", out)
	}
	n, _ := strconv.ParseInt(strings.ReplaceAll(tokens[1], ",", ""), 10, 64)
	usd, _ := strconv.ParseFloat(cost[1], 64)
	return tally{n, usd}
}

// A cost budget cannot stop what it cannot price: with a model Gavel has
// no price for, --max-cost-usd refuses to run (exit 2, nothing called)
// and says how to give the price; with the price given in the suite or
// with --prices, the run goes ahead and its cost is known.
func TestCostBudgetNeedsPrices(t *testing.T) {
	model := &llmtest.Scripted{Rules: []llmtest.Rule{
		{When: func(r *llm.Request) bool { return r.ResponseSchema != nil && r.ResponseSchema.Name == "verdict" },
			Text: `{"reasoning": "gives the date", "score": 0.9}`},
		{When: func(r *llm.Request) bool { return r.ResponseSchema != nil && r.ResponseSchema.Name == "follow_up" },
			Text: `{"reasoning": "it answers", "needs_followup": false, "reply": ""}`},
		{Text: "Your order ships on Friday."},
	}}
	srv := fakeOpenAI(t, model)
	unpriced := writeSuite(t, usageSuite("my-judge", ""))

	code, out, errs := gavelCmd(t, "run", "--quiet", "--no-cache", "--max-cost-usd", "1", unpriced)
	if code != eval.ExitUsage || srv.Requests() != 0 {
		t.Fatalf("exit %d after %d requests, want 2 before any\n%s\n%s", code, srv.Requests(), out, errs)
	}
	for _, want := range []string{"--max-cost-usd", `"my-judge" has no price`, "prices:", "--prices"} {
		if !strings.Contains(errs, want) {
			t.Errorf("the refusal lacks %q:\n%s", want, errs)
		}
	}

	// Without a budget it runs, its cost shown as unknown.
	code, out, errs = gavelCmd(t, "run", "--quiet", "--no-cache", unpriced)
	if code != eval.ExitPassed || !strings.Contains(out, "+ unpriced") || !strings.Contains(out, "Unpriced: my-judge has no price") {
		t.Errorf("exit %d, want 0 and the cost shown as a lower bound:\n%s\n%s", code, out, errs)
	}

	priced := writeSuite(t, usageSuite("my-judge", "prices:\n  my-judge: {input: 0.5, output: 1.5}\n"))
	prices := filepath.Join(t.TempDir(), "prices.json")
	if err := os.WriteFile(prices, []byte(`{"my-judge": {"input": 0.5, "output": 1.5}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, args := range map[string][]string{
		"suite prices": {priced},
		"--prices":     {"--prices", prices, unpriced},
	} {
		t.Run(name, func(t *testing.T) {
			code, out, errs := gavelCmd(t, append([]string{"run", "--quiet", "--no-cache", "--max-cost-usd", "1"}, args...)...)
			if code != eval.ExitPassed || strings.Contains(out, "unpriced") {
				t.Errorf("exit %d, want 0 with every cost known:\n%s\n%s", code, out, errs)
			}
		})
	}

	// A prices file with a mistake is a usage error.
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(bad, []byte("my-judge: {input: 0.5}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs = gavelCmd(t, "run", "--quiet", "--prices", bad, unpriced)
	if code != eval.ExitUsage || !strings.Contains(errs, "give both input and output") {
		t.Errorf("exit %d, want 2 with the file's problem:\n%s", code, errs)
	}
}

// A case failed by a hard rule costs no judge token, with the suite's
// defaults (up to 2 automatic follow-ups a round, the follow-up detector
// on the judge's model): the LLM judge never runs, and the follow-up
// pre-check sees that the reply asks nothing, so no model is asked. The
// decision is in the transcript.
func TestHardFailSpendsNoJudgeTokens(t *testing.T) {
	model := &llmtest.Scripted{Rules: []llmtest.Rule{
		{When: func(r *llm.Request) bool { return r.Model == "gpt-5-mini" }, Text: "Your order ships on Friday."},
		{When: func(r *llm.Request) bool { return r.ResponseSchema != nil && r.ResponseSchema.Name == "follow_up" },
			Text: `{"reasoning": "it answers", "needs_followup": false, "reply": ""}`},
		{Text: `{"reasoning": "would be paid for", "score": 1}`},
	}}
	srv := fakeOpenAI(t, model)
	suite := writeSuite(t, `name: hard
agent:
  builtin:
    model: openai:gpt-5-mini
    system_prompt: You are a support agent.
models: {judge: 'openai:gpt-4.1-mini'}
cases:
  - id: refund
    input: I want a refund for order 12345
    rules: [{contains: refund}]
    judge_prompt: explains the refund policy
`)
	code, out, errs := gavelCmd(t, "run", "--quiet", "--no-cache", "--out", "report.json", suite)
	if code != eval.ExitFailed {
		t.Fatalf("exit %d, want 1 (the hard rule fails)\n%s\n%s", code, out, errs)
	}
	data, err := os.ReadFile("report.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc report.JSONReport
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	tr := doc.Cases[0].Trials[0]
	if tr.Usage.Judge.Tokens() != 0 || tr.Usage.FollowUp.Tokens() != 0 || srv.Requests() != 1 {
		t.Errorf("judge usage %+v, follow-up usage %+v, %d requests: want nothing spent but the agent's one call",
			tr.Usage.Judge, tr.Usage.FollowUp, srv.Requests())
	}
	reply := tr.Transcript.Turns[len(tr.Transcript.Turns)-1]
	if reply.FollowUp == nil || reply.FollowUp.By != judge.FollowUpByPreCheck || reply.FollowUp.NeedsFollowUp {
		t.Errorf("the reply's follow-up check is %+v, want the pre-check's: none needed", reply.FollowUp)
	}
}

// usageAgent writes, into a directory of its own, an exec agent
// (docs/exec-protocol.md) that answers every message "hi" with the usage
// given as JSON, and a suite of one case, run trials times, that tests it.
func usageAgent(t *testing.T, usage string, trials int) string {
	t.Helper()
	dir := t.TempDir()
	agent := `import json, sys
for line in sys.stdin:
    req = json.loads(line)
    answer = {"type": "ok", "id": req["id"]}
    if req["type"] == "message":
        answer = {"type": "reply", "id": req["id"], "text": "hi", "usage": json.loads(sys.argv[1])}
    print(json.dumps(answer), flush=True)
`
	if err := os.WriteFile(filepath.Join(dir, "agent.py"), []byte(agent), 0o644); err != nil {
		t.Fatal(err)
	}
	suite := fmt.Sprintf(`agent: {exec: {command: [python3, agent.py, '%s']}}
trials: %d
max_followups: -1
cases:
  - {id: greets, input: hello, rules: [{contains: hi}]}
`, usage, trials)
	if err := os.WriteFile(filepath.Join(dir, "gavel.yaml"), []byte(suite), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// A token budget holds whatever an agent reports: a count no reply can
// spend (2^62 tokens, whose sum wrapped to a negative total that never
// reached the budget: 20 PASSes, "Tokens: 0", exit 0) makes the trial an
// ERROR that names it, never a number in the totals; a count that is
// possible but large stops the run at the budget.
func TestTokenBudgetHoldsAgainstHugeCounts(t *testing.T) {
	tests := []struct {
		name      string
		usage     string
		wantCode  int
		want      []string
		unwanted  []string
		wantTrial string // the status of every trial that ran
		ran       int
	}{
		{
			name:      "2^62 tokens each way",
			usage:     `{"input_tokens": 4611686018427387904, "output_tokens": 4611686018427387904}`,
			wantCode:  eval.ExitFailed,
			want:      []string{"/usage/input_tokens is 4611686018427387904", "more than"},
			unwanted:  []string{"Tokens: -", "4,611,686,018,427,387,904", "9,223,372,036,854,775,807"},
			wantTrial: "ERROR",
			ran:       20,
		},
		{
			name:      "half a trillion tokens each way",
			usage:     `{"input_tokens": 500000000000, "output_tokens": 500000000000}`,
			wantCode:  eval.ExitIncomplete,
			want:      []string{"Tokens: 1,000,000,000,000", "Incomplete: the budget of 1000 tokens was spent"},
			wantTrial: "PASS",
			ran:       1,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := usageAgent(t, tc.usage, 20)
			code, out, errs := gavelCmd(t, "run", "--no-cache", "--concurrency", "1", "--max-tokens", "1000", "--out", "report.json", dir)
			if code != tc.wantCode {
				t.Errorf("exit %d, want %d\n%s%s", code, tc.wantCode, out, errs)
			}
			for _, want := range tc.want {
				if !strings.Contains(out, want) {
					t.Errorf("the report lacks %q:\n%s", want, out)
				}
			}
			for _, unwanted := range tc.unwanted {
				if strings.Contains(out, unwanted) {
					t.Errorf("the report shows %q:\n%s", unwanted, out)
				}
			}
			data, err := os.ReadFile("report.json")
			if err != nil {
				t.Fatal(err)
			}
			var doc report.JSONReport
			if err := json.Unmarshal(data, &doc); err != nil {
				t.Fatal(err)
			}
			ran := 0
			for _, c := range doc.Cases {
				for _, tr := range c.Trials {
					ran++
					if string(tr.Verdict.Status) != tc.wantTrial {
						t.Errorf("trial %d: %s (%s), want %s", tr.N, tr.Verdict.Status, tr.Verdict.Reasoning, tc.wantTrial)
					}
					if n := tr.Usage.Total().Tokens(); n < 0 {
						t.Errorf("trial %d spent %d tokens", tr.N, n)
					}
				}
			}
			if ran != tc.ran {
				t.Errorf("%d trials ran, want %d", ran, tc.ran)
			}
		})
	}
}
