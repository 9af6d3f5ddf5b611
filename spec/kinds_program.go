package spec

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/rule"
)

// A judge written in any language: a program that reads the trial as JSON
// and answers a judgment (docs/program-judges.md). The kind is program:,
// not script: (a scripted model's provider, script:models/x.yaml) nor
// exec: (an agent's), so that a suite never reads as if one were the
// other.

type programJudge struct {
	Program   []string `yaml:"program" doc:"The judge's command, run without a shell: it reads the trial as JSON on stdin and writes a judgment as JSON on stdout (docs/program-judges.md). ${VAR} and ${VAR:-default} read the environment."`
	Dir       string   `yaml:"dir" doc:"Where it runs, relative to the suite. Defaults to the suite's directory. (The agent's workspace, if any, is in the trial's JSON.)"`
	Env       []string `yaml:"env" doc:"Extra environment, NAME=value; ${VAR} reads the environment, and its values are hidden in what is written."`
	Timeout   string   `yaml:"timeout" doc:"How long a judgment may take. Defaults to 1m."`
	Mode      string   `yaml:"mode" enum:"once,persistent" doc:"once: a process per judgment. persistent: one process judges every trial, a JSON object per line each way, matched by id; the judges that name the same program, env, dir and timeout share it. Defaults to once."`
	Threshold *float64 `yaml:"threshold" minimum:"0" maximum:"1" doc:"The passing score, 0..1: the program may answer a score alone, and a status it gives must agree with it. Without it the program answers a status."`
}

func (c *programJudge) build(b *builder) (judge.Judge, error) {
	cfg := rule.ProgramConfig{
		Args: b.expandAll("program", c.Program, secretValue), Dir: b.l.Dir, Env: b.expandAll("env", c.Env, secretValue),
		Mode: c.Mode, Threshold: c.Threshold, Round: max(b.round, 0),
	}
	if c.Dir != "" {
		cfg.Dir = b.abs(c.Dir)
	}
	if c.Timeout != "" {
		d, err := parseDuration("timeout", c.Timeout)
		if err != nil {
			return nil, err
		}
		cfg.Timeout = d
	}
	if err := threshold(c.Threshold); err != nil {
		return nil, err
	}
	switch c.Mode {
	case "", rule.ProgramOnce, rule.ProgramPersistent:
	default:
		return nil, fmt.Errorf("mode %q: want once (a process per judgment) or persistent (one process for every trial)", c.Mode)
	}
	b.programs++
	// The items that name one persistent program share its process.
	key := fmt.Sprintf("%q", [][]string{cfg.Args, cfg.Env, {cfg.Dir, cfg.Timeout.String()}})
	if first, ok := b.persistent[key]; ok && c.Mode == rule.ProgramPersistent {
		return first.With(cfg.Round, cfg.Threshold)
	}
	p, err := rule.NewProgram(cfg)
	if err != nil {
		return nil, err
	}
	b.out.closers = append(b.out.closers, p.Close)
	if c.Mode == rule.ProgramPersistent {
		if b.persistent == nil {
			b.persistent = map[string]*rule.Program{}
		}
		b.persistent[key] = p
	}
	if name := cfg.Args[0]; filepath.Base(name) == name {
		if _, err := exec.LookPath(name); err != nil {
			b.out.Warnings = append(b.out.Warnings, b.problemAt(b.secrets.Redact(fmt.Sprintf(
				"warning: program: %s is not in PATH: every trial the judge is given will be an ERROR until it is installed", name))))
		}
	}
	return p, nil
}

func (c *programJudge) words() string { return "program " + strings.Join(c.Program, " ") + " passes" }

// withCase tells the program judges of a case's judge which case it is.
func withCase(c rule.ProgramCase, j judge.Judge) judge.Judge {
	return judge.Func(func(ctx context.Context, t *judge.Transcript) (judge.Judgment, error) {
		return j.Judge(rule.WithProgramCase(ctx, c), t)
	})
}

var _ = register[programJudge](kind{name: "program", group: "Programs", runsLocally: true, library: []string{"rule.NewProgram"},
	doc:     "A judge in any language: a program reads the trial (the case, the turns, the tool calls) as JSON on stdin and answers a status or a score, its reasoning and checks as JSON on stdout, once per trial or as a long-running process. An answer that is malformed or contradicts itself is an ERROR, never a PASS. docs/program-judges.md has the JSON and judges in Python and JavaScript.",
	example: "program: [python3, judges/cancel_policy.py]\nmode: persistent"})
