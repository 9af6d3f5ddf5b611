package judge_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/judge"
)

func TestEachTurn(t *testing.T) {
	tr := &judge.Transcript{Goal: "chat", Turns: []judge.Turn{
		{Role: judge.RoleUser, Content: "hey"},
		{Role: judge.RoleAgent, Content: "hi there. what brings you here?"},
		{Role: judge.RoleUser, Content: "looking for someone"},
		{Role: judge.RoleAgent, Content: "Tell me MORE!!"},
		{Role: judge.RoleUser, Content: "ok"},
		{Role: judge.RoleAgent, Content: "good. what matters most to you?"},
	}}
	var seen []string
	lowercase := judge.Func(func(_ context.Context, t *judge.Transcript) (judge.Judgment, error) {
		seen = append(seen, t.Goal+" -> "+t.Response()+" after "+string(rune('0'+len(t.Context))))
		return judge.Verdict(strings.ToLower(t.Response()) == t.Response(), t.Response()), nil
	})
	got := judge.Run(context.Background(), judge.EachTurn(lowercase), tr)
	if got.Status != judge.StatusFail || len(got.Parts) != 3 {
		t.Fatalf("got %s with %d parts: %s", got.Status, len(got.Parts), got.Reasoning)
	}
	if got.Parts[1].Name != "turn 2" || got.Parts[1].Status != judge.StatusFail || got.Parts[0].Status != judge.StatusPass {
		t.Errorf("parts: %+v", got.Parts)
	}
	want := []string{
		"hey -> hi there. what brings you here? after 0",
		"looking for someone -> Tell me MORE!! after 2",
		"ok -> good. what matters most to you? after 4",
	}
	if strings.Join(seen, "\n") != strings.Join(want, "\n") {
		t.Errorf("the judge saw\n%s\nwant\n%s", strings.Join(seen, "\n"), strings.Join(want, "\n"))
	}
	if got := judge.Run(context.Background(), judge.EachTurn(lowercase), &judge.Transcript{}); got.Status != judge.StatusError {
		t.Errorf("no agent turn: got %s, want ERROR", got.Status)
	}
}
