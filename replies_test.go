package gavel_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
)

// said is a transcript whose agent said reply, making calls.
func said(reply string, calls ...judge.ToolCall) *judge.Transcript {
	return &judge.Transcript{Status: judge.ExecSuccess, Turns: []judge.Turn{
		{Role: judge.RoleUser, Content: "hi"},
		{Role: judge.RoleAgent, Content: reply, ToolCalls: calls},
	}}
}

func caseOf(id string, trials ...gavel.Trial) gavel.CaseResult {
	return gavel.CaseResult{Case: &gavel.Case{ID: id, Name: "case " + id}, Trials: trials}
}

// Replies pairs the cases both runs have, in the head's order, with the
// lowest-numbered trial that has a transcript, and says which differ.
func TestReplies(t *testing.T) {
	get := judge.ToolCall{Name: "get", Arguments: json.RawMessage(`{ "id": 1 }`)}
	refused := judge.ToolCall{Name: "get", Arguments: json.RawMessage(`{"id":1}`), IsError: true}
	base := &gavel.Run{Cases: []gavel.CaseResult{
		caseOf("same", gavel.Trial{N: 1, Transcript: said("hello", get)}),
		caseOf("text", gavel.Trial{N: 1, Transcript: said("on Monday")}),
		caseOf("calls", gavel.Trial{N: 1, Transcript: said("ok", get)}),
		caseOf("missing", gavel.Trial{N: 1}),
		caseOf("removed", gavel.Trial{N: 1, Transcript: said("x")}),
	}}
	head := &gavel.Run{Cases: []gavel.CaseResult{
		caseOf("added", gavel.Trial{N: 1, Transcript: said("x")}),
		caseOf("calls", gavel.Trial{N: 1, Transcript: said("ok", refused)}),
		caseOf("text", gavel.Trial{N: 2, Transcript: said("on Monday")}, gavel.Trial{N: 1, Transcript: said("on Tuesday")}),
		caseOf("same", gavel.Trial{N: 1, Transcript: said("hello", judge.ToolCall{Name: "get", Arguments: json.RawMessage(`{"id":1}`)})}),
		caseOf("missing", gavel.Trial{N: 1, Transcript: said("x")}),
	}}
	type row struct {
		ID                   string
		BaseTrial, HeadTrial int
		Differs              bool
	}
	var got []row
	for _, p := range gavel.Replies(base, head) {
		got = append(got, row{p.ID, p.BaseTrial, p.HeadTrial, p.Differs})
	}
	want := []row{{"calls", 1, 1, true}, {"text", 1, 1, true}, {"same", 1, 1, false}, {"missing", 0, 1, true}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Replies (-want +got):\n%s", d)
	}
	if got := gavel.CallsOf(said("", get, refused)); !cmp.Equal(got, []string{`get({"id":1})`, `get({"id":1}) -> error`}) {
		t.Errorf("CallsOf = %q", got)
	}

	c := gavel.Comparison{Replies: gavel.Replies(base, head), Pairwise: &gavel.PairwiseTally{}}
	c.Replies[0].Pairwise = &gavel.PairwiseVerdict{Winner: gavel.PreferHead, Usage: judge.Usage{InputTokens: 10}}
	c.Replies[1].Pairwise = &gavel.PairwiseVerdict{Winner: gavel.PreferBase, Usage: judge.Usage{InputTokens: 5}}
	c.Replies[2].Pairwise = &gavel.PairwiseVerdict{Winner: gavel.PreferNeither}
	c.Replies[3].Pairwise = &gavel.PairwiseVerdict{Error: "only one run has a transcript"}
	c.TallyPairwise()
	if p := *c.Pairwise; p.Base != 1 || p.Head != 1 || p.Ties != 1 || p.Errors != 1 || p.Usage.InputTokens != 15 {
		t.Errorf("tally %+v, want one of each and 15 input tokens", p)
	}
}
