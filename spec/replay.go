package spec

import (
	"cmp"
	"slices"

	"github.com/gavelhq/gavel/mcp"
	"github.com/gavelhq/gavel/mock"
)

// replay builds the replay of the agent's tool results that the suite
// of name suite asks for (agent.replay_tools), or Env.ReplayTools; nil
// without one, and in a dry run, which opens no database.
func (b *builder) replay(s *ReplayToolsSpec, suite string) *mock.Replay {
	if s == nil && b.env.ReplayTools == "" {
		return nil
	}
	field, ref, unmatched := "agent.replay_tools.run", "", ""
	if s != nil {
		ref, unmatched = b.expand(field, s.Run, plainValue), s.Unmatched
	}
	if b.env.ReplayTools != "" {
		field, ref = "--replay-tools", b.env.ReplayTools
	}
	if !slices.Contains(mock.UnmatchedModes, cmp.Or(unmatched, mock.UnmatchedError)) {
		b.fail("agent.replay_tools.unmatched %q: want error (a call the recorded run did not make gets an error result) or live (the live server answers it)", unmatched)
		return nil
	}
	if ref == "" {
		b.fail("agent.replay_tools.run: say which stored run's tool results to replay: its id, its label, a git branch, or latest")
		return nil
	}
	if b.env.DryRun {
		return nil
	}
	if b.env.ToolRecording == nil {
		b.fail("%s: replaying tool results needs the results database the run is kept in, and none was given: run the suite with gavel run (--db), or give gaveltest.Config.Store", field)
		return nil
	}
	id, rec, err := b.env.ToolRecording(suite, ref)
	if err != nil {
		b.fail("%s %q: %v", field, ref, err)
		return nil
	}
	r, err := mock.NewReplay(id, rec, unmatched)
	if err != nil {
		b.fail("agent.replay_tools: %v", err)
		return nil
	}
	b.out.ReplayedRun = id
	return r
}

// replayNothing warns of a replay asked of an agent whose tool calls
// Gavel does not reach: it has no MCP server of its own (a builtin
// agent's) or behind a recording proxy, so nothing would be replayed.
func (b *builder) replayNothing(a AgentSpec) {
	if a.ReplayTools == nil && b.env.ReplayTools == "" || len(a.MCPProxy) > 0 || a.Builtin != nil && len(a.Builtin.MCP) > 0 {
		return
	}
	field := "agent.replay_tools"
	if a.ReplayTools == nil {
		field = "--replay-tools"
	}
	p := b.problemAt(field + ": the agent has no MCP server that Gavel calls (agent.builtin.mcp) or records (agent.mcp_proxy), so nothing is replayed; mock tools answer as the suite writes them")
	p.Message = "warning: " + p.Message
	b.out.Warnings = append(b.out.Warnings, p)
}

// replaying returns make with replay set on each proxy it makes, when
// there is a replay. A proxy's calls are matched by the trial of the turn
// under way (inTurns).
func replaying(replay *mock.Replay, make func() (*mcp.Proxy, error)) func() (*mcp.Proxy, error) {
	if replay == nil {
		return make
	}
	return func() (*mcp.Proxy, error) {
		p, err := make()
		if err == nil {
			p.SetReplay(replay.Answer)
		}
		return p, err
	}
}
