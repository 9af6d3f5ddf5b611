package web

import (
	"strings"
	"testing"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
)

// A trial answered from Gavel's cache says so: in its summary, its usage
// table and on each turn the cache answered, in whole or in part.
func TestTrialViewMarksCacheHits(t *testing.T) {
	hits := judge.Usage{Calls: 2, CacheHits: 2}
	partly := judge.Usage{InputTokens: 500, OutputTokens: 50, Calls: 3, CacheHits: 1}
	agent := hits.Add(partly)
	tr := gavel.Trial{CaseID: "a", N: 2, Usage: gavel.RoleUsage{Agent: agent},
		Transcript: &judge.Transcript{CaseID: "a", Trial: 2, Status: judge.ExecSuccess, Usage: agent, Turns: []judge.Turn{
			{Role: judge.RoleUser, Content: "hello", Round: 1},
			{Role: judge.RoleAgent, Content: "hi", Round: 1, Usage: hits},
			{Role: judge.RoleUser, Content: "and?", Round: 1},
			{Role: judge.RoleAgent, Content: "well", Round: 1, Usage: partly},
		}}}
	tv := newTrialView(tr, 2)

	var b strings.Builder
	if err := pages()["case_result.tmpl"].ExecuteTemplate(&b, "content", caseResultData{Trials: []trialView{tv}}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{
		"550 tokens (5 calls, 3 answered from the cache)",
		`<td class="num">5 (3 from the cache)</td>`,
		"round 1 · agent (answered from the cache)",
		"round 1 · agent (1 of 3 model calls answered from the cache)",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q:\n%s", want, page)
		}
	}
}
