package spec

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/agent"
	"github.com/gavelhq/gavel/audit"
	"github.com/gavelhq/gavel/conversation"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llmjudge"
	"github.com/gavelhq/gavel/mock"
	"github.com/gavelhq/gavel/rule"
	"github.com/gavelhq/gavel/secret"
	"github.com/gavelhq/gavel/sim"
	"github.com/gavelhq/gavel/stats"
)

// Env is what building a suite needs from the program.
type Env struct {
	// Registry opens model references by provider.
	Registry llm.Registry
	// Getenv reads the environment (keys, ${VAR} in headers). Defaults to
	// returning "".
	Getenv func(string) string
	// Wrap, if set, wraps every model opened, given its role ("agent",
	// "judge", "user"; the follow-up detector's model is a judge's, its
	// usage a role of its own) and its reference as resolved (${VAR}
	// expanded, a script's path absolute): retries, a cache (keyed by the
	// reference, so that models never share answers), a meter.
	Wrap func(role string, ref llm.Ref, m llm.Model) llm.Model
	// DryRun checks model references without opening the models, so that
	// a suite validates without keys. Probe, when set, is asked of each
	// model a dry run would open what opening it would refuse (a missing
	// key); its refusal is a warning. gavel validate sets it to the
	// providers' own checks.
	DryRun bool
	Probe  func(ref llm.Ref, getenv func(string) string) error
	// Stderr receives exec agents' standard error. Defaults to discarding
	// it (its tail is kept in errors anyway).
	Stderr io.Writer
	// Agents are the agents written in Go that a suite may test, by the
	// name its agent: {go: NAME} gives (gaveltest.Config.Agents passes
	// them). Without them, a suite with a Go agent is refused, unless
	// DryRun is set: then it is only warned that it needs the Go test
	// that passes its agent.
	Agents map[string]agent.Agent
	// ToolRecording reads the tool calls of the stored run ref names (a
	// run id, a run label, a git branch, or latest), of suite, and returns
	// them with the run's id, for a suite whose agent replays its tool
	// results (agent.replay_tools, ReplayTools). Package eval reads them
	// from the results database. Without it, such a suite is refused,
	// unless DryRun is set.
	ToolRecording func(suite, ref string) (id string, rec mock.Recording, err error)
	// ReplayTools, when set, makes the agent replay the tool results of
	// the stored run it names, as agent.replay_tools.run would (the
	// suite's unmatched applies): gavel run --replay-tools.
	ReplayTools string
	// Examples, when set, is given the examples of each LLM judge that
	// has some (examples:), with the file they were read from (absolute)
	// or "" when they are written in the suite, and returns those the
	// judge is given: gavel calibrate --compare-examples builds a suite's
	// judges without a file's examples, and with those of it that come
	// from no held-out case.
	Examples func(file string, examples []gavel.Example) []gavel.Example
}

// A Built suite is ready to run.
type Built struct {
	Suite       *gavel.Suite
	Concurrency int
	Timeout     time.Duration
	// FollowUps answers the agent's clarifying questions; nil when the
	// suite has no model for it.
	FollowUps conversation.Detector
	// cases are the cases as loaded, by id, for Definition.
	cases map[string]LoadedCase
	// refs are the model references by role as resolved, for ModelRef.
	refs map[string]string
	// Warnings are what is worth fixing but does not stop a run: a judge
	// that is the agent's own model or of its family. Programs print them
	// (gavel validate and gavel run do).
	Warnings Problems
	// Prices are the suite's prices: of models, to add to the default
	// table (see llm.DefaultPrices and llm.Prices.With).
	Prices llm.Prices
	// Models are the models the suite opens, each once, in the order
	// first opened: what a cost budget needs the prices of.
	Models []llm.Ref
	// ReplayedRun is the id of the stored run whose tool results the
	// agent's tools replay (agent.replay_tools); "" for none.
	ReplayedRun string
	// Audit is the suite's audit: block, checked, its reference model
	// read from the environment; nil without one.
	Audit *AuditSpec
	// AuditJudges are the suite's model judges as gavel audit probes
	// them, in the order the suite names them: the cases' own, then
	// every_case's (which judge every case).
	AuditJudges []audit.Judge

	closers []func() error
}

// ModelRef returns the model reference of role ("agent", "judge") as the
// suite resolved it, secrets included, to open the model again;
// Suite.Models shows it without them. "" when the suite names none.
func (b *Built) ModelRef(role string) string {
	return b.refs[role]
}

// Definition returns the case of id as written, in YAML, for the store;
// nil for no such case.
func (b *Built) Definition(id string) []byte {
	return b.cases[id].YAML()
}

// Close releases what running the suite started (MCP servers).
func (b *Built) Close() error {
	var errs []error
	for _, c := range b.closers {
		errs = append(errs, c())
	}
	return errors.Join(errs...)
}

// Build turns a loaded suite into one ready to run. It reports every
// problem at once, as Problems: a case id used twice, a case with nothing
// to say or nothing to judge, an unknown rule or judge, a threshold out of
// range, a model reference that cannot be opened.
func Build(l *Loaded, env Env) (*Built, error) {
	b := newBuilder(l, env)
	b.out.Suite = b.suite()
	if len(b.problems) > 0 {
		_ = b.out.Close()
		return nil, b.problems.sorted()
	}
	return b.out, nil
}

func newBuilder(l *Loaded, env Env) *builder {
	if env.Getenv == nil {
		env.Getenv = func(string) string { return "" }
	}
	if env.Stderr == nil {
		env.Stderr = io.Discard
	}
	secrets := &secret.Set{}
	env.Stderr = secrets.Writer(env.Stderr) // what exec agents write there
	return &builder{l: l, env: env, models: map[string]llm.Model{}, probed: map[string]bool{}, seen: map[string]string{}, secrets: secrets,
		out: &Built{cases: map[string]LoadedCase{}, Prices: l.Prices, refs: map[string]string{}}}
}

// A builder builds one suite, collecting problems as it goes.
type builder struct {
	l        *Loaded
	env      Env
	models   map[string]llm.Model
	out      *Built
	problems Problems
	// secrets are the secrets the suite reads from the environment
	// (expand): its Suite's, and hidden in its problems and warnings.
	secrets *secret.Set
	// judges are the judge models the suite names, each with the first
	// place that names it, for the hierarchy check.
	judges []namedModel
	// judgeRef is the judge model last opened, read from the environment;
	// opened is what the LLM judge item being built opened (its model and
	// options), for gavel audit; nil until it opens one.
	judgeRef string
	opened   *openedJudge

	// unrevivable, if set, says why the agent cannot be revived.
	unrevivable string
	// noEvents, if set, says why the agent cannot take events.
	noEvents string
	// mocks are the suite's mock tools, to which cases add answers; nil
	// without any.
	mocks *mock.Toolbox

	// at is where the problems being found are: the suite file, or a case.
	atFile   string
	atLine   int
	atOffset int // added to the lines of a case's nodes: see LoadedCase.offset
	atCase   string
	// every are the suite's every_case judges, built once for every case.
	every struct {
		hard, llm []judge.Judge
		words     []string
		bad       int // items that could not be built
		programs  int // program judges among them
	}

	// seen are the ids of the cases built, with where each was written.
	seen map[string]string

	// probed holds the model references a dry run's Probe refused.
	probed map[string]bool
	// followUp is true while the follow-up detector's model is opened: it
	// grades nothing, so it is no judge model to warn about.
	followUp bool
	// badItems counts the judges of the case being built that could not
	// be read: a case with one has something to judge.
	badItems int
	// round is the round whose judges are being built: 0 for the case's,
	// everyCaseRound for every_case's.
	round int
	// programs counts the program judges built; persistent are the
	// persistent ones by command line, env, directory and timeout, whose
	// process the items that name the same share.
	programs   int
	persistent map[string]*rule.Program
	// exampleFiles are the files of examples read, by absolute path:
	// the judges that name one share it.
	exampleFiles map[string]exampleFile
}

// fail records a problem at the current place.
//
// A problem of the suite file's own fields that starts with the field's
// path ("agent.builtin.mcp[0].transport ...") is placed at that field.
func (b *builder) fail(format string, args ...any) {
	b.problems = append(b.problems, b.problemAt(b.secrets.Redact(fmt.Sprintf(format, args...))))
}

// problemAt places msg where the builder is: the case being built, else
// the field its message begins with.
func (b *builder) problemAt(msg string) Problem {
	p := Problem{File: b.atFile, Line: b.atLine, Message: msg}
	if b.atCase != "" {
		p.Message = fmt.Sprintf("case %s: %s", b.atCase, msg)
	} else if p.Line == 0 && p.File == b.l.File {
		if n := fieldNode(b.l.root, leadingPath(msg)); n != nil {
			p.Line, p.Column = n.Line, n.Column
		}
	}
	return p
}

// failAt records a problem at a line and column of the current file
// (0 for the current line); offset, for a case on a line of a JSON Lines
// file, is added to the line.
func (b *builder) failAt(line, column int, format string, args ...any) {
	if line == 0 {
		b.fail(format, args...)
		return
	}
	msg := b.secrets.Redact(fmt.Sprintf(format, args...))
	if b.atCase != "" {
		msg = fmt.Sprintf("case %s: %s", b.atCase, msg)
	}
	b.problems = append(b.problems, Problem{File: b.atFile, Line: line + b.atOffset, Column: column, Message: msg})
}

func (b *builder) suite() *gavel.Suite {
	s := b.suiteHead()
	for _, lc := range b.l.Cases {
		if c := b.addCase(lc); c != nil {
			s.Cases = append(s.Cases, c)
			b.out.cases[c.ID] = lc
		}
	}
	b.suiteEnd(s)
	return s
}

// suiteHead builds what the suite's cases need: the agent, the models,
// the follow-up detector and the judges of every case.
func (b *builder) suiteHead() *gavel.Suite {
	f := b.l.Suite
	b.atFile = b.l.File
	s := &gavel.Suite{
		Name:        f.Name,
		Description: f.Description,
		File:        b.l.File,
		Threshold:   1,
		Trials:      f.Trials,
		SharedPaths: f.SharedPaths,
		Models:      map[string]string{},
		Secrets:     b.secrets,
	}
	if s.Name == "" {
		s.Name = strings.TrimSuffix(filepath.Base(b.l.Dir), "/")
	}
	if f.Threshold != nil {
		if !(*f.Threshold > 0 && *f.Threshold <= 1) { // NaN too
			b.fail("threshold %v is out of range: it is a pass rate, above 0 and at most 1 (0.8 for 80%%)", *f.Threshold)
		}
		s.Threshold = *f.Threshold
	}
	if f.Gate != nil {
		s.Gate = b.gate(*f.Gate)
	}
	b.out.Audit = b.auditBlock(f.Audit)
	if f.Flaky != nil {
		if f.Flaky.QuarantineAfter < 0 {
			b.fail("flaky.quarantine_after %d: want a number of runs, or 0 for none", f.Flaky.QuarantineAfter)
		}
		s.Flaky.QuarantineAfter = max(0, f.Flaky.QuarantineAfter)
	}
	if f.Trials < 0 {
		b.fail("trials %d: the times each case runs cannot be negative; remove it for the default, 1", f.Trials)
	}
	if f.Concurrency < 0 {
		b.fail("concurrency %d: trials talking with the agent at once cannot be negative; remove it for the default, 4", f.Concurrency)
	}
	b.out.Concurrency = f.Concurrency
	b.out.Timeout = b.duration("timeout", f.Timeout)
	for role, ref := range map[string]string{"agent": f.Models.Agent, "judge": f.Models.Judge, "user": f.Models.User, "followup": f.Models.FollowUp} {
		if ref != "" {
			s.Models[role] = b.expand("models."+role, ref, addressValue)
		}
	}
	if f.Agent == nil {
		b.fail("no agent: say which agent to test under agent: (builtin, http, exec or go)")
	} else {
		if f.Models.Agent != "" && f.Agent.Builtin != nil {
			b.fail("models.agent is for http and exec agents: a builtin agent's model is agent.builtin.model; remove models.agent")
		}
		s.Agent = b.agent(*f.Agent, s.Models, s.Name)
	}
	if ref := cmp.Or(f.Models.FollowUp, f.Models.Judge); ref != "" {
		field := "models.followup"
		if f.Models.FollowUp == "" {
			field = "models.judge" // the follow-up detector's too
		}
		b.followUp = true
		m := b.model("judge", ref, field)
		b.followUp = false
		if m != nil {
			if d, err := llmjudge.NewFollowUp(m, llmjudge.FollowUpConfig{}); err != nil {
				b.fail("follow-up detector: %v", err)
			} else {
				b.out.FollowUps = d
			}
		}
	}
	b.every.hard, b.every.llm, b.every.words = b.everyCase()
	b.every.bad, b.badItems = b.badItems, 0
	b.every.programs = b.programs
	if len(b.l.Suite.Cases) == 0 { // entries that load no case are reported by Load
		b.fail("the suite has no cases: list them under cases:, inline or as files")
	}
	for role, ref := range s.Models { // every secret of the suite's head is known
		b.out.refs[role], s.Models[role] = ref, b.shown(ref)
	}
	return s
}

// addCase builds a case of the suite, and refuses an id the suite used
// already; nil when the case cannot be built.
func (b *builder) addCase(lc LoadedCase) *gavel.Case {
	c := b.buildCase(lc)
	if c == nil {
		return nil
	}
	if first, dup := b.seen[c.ID]; dup {
		b.atFile, b.atLine, b.atCase = lc.File, lc.Line, ""
		b.fail("case id %q is used twice: first at %s", c.ID, first)
		return nil
	}
	b.seen[c.ID] = lc.Source()
	return c
}

// suiteEnd finishes the suite once its cases are built: the warnings
// that look at them all.
func (b *builder) suiteEnd(s *gavel.Suite) {
	if !b.l.Suite.AllowSameFamilyJudge {
		judges := make([]namedModel, len(b.judges))
		for i, j := range b.judges {
			judges[i] = namedModel{ref: b.shown(j.ref), at: j.at}
		}
		b.out.Warnings = append(b.out.Warnings, hierarchyWarnings(judges, s.Models["agent"])...)
	}
}

// duration parses a Go duration setting; "" is 0.
func (b *builder) duration(field, s string) time.Duration {
	if s == "" {
		return 0
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		b.fail("%s %q: want a positive duration such as 90s or 5m", field, s)
	}
	return d
}

// model opens ref for role, once per role and ref. field names where the
// reference was written, for messages. A "script:" path is relative to
// the suite.
func (b *builder) model(role, ref, field string) llm.Model {
	if ref == "" {
		b.fail("%s: no model: set models.judge in the suite (or the judge's own model:)", field)
		return nil
	}
	ref = b.expand(field, ref, addressValue)
	if role == "judge" && !b.followUp { // the follow-up detector grades nothing
		b.judges = append(b.judges, namedModel{ref: ref, at: Problem{File: b.atFile, Line: b.atLine}})
		b.judgeRef = ref
	}
	key := role + "\x00" + ref
	if m, ok := b.models[key]; ok {
		return m
	}
	parsed, err := llm.ParseRef(ref)
	if err != nil {
		b.fail("%s: %v", field, err)
		return nil
	}
	if parsed.Provider == "script" && !filepath.IsAbs(parsed.Model) {
		parsed.Model = filepath.Join(b.l.Dir, parsed.Model)
	}
	opener, ok := b.env.Registry[parsed.Provider]
	if !ok {
		b.fail("%s: unknown model provider %q in %q: known are %s", field, parsed.Provider, ref, strings.Join(b.providers(), ", "))
		return nil
	}
	var m llm.Model = llm.Func(func(context.Context, *llm.Request) (*llm.Response, error) {
		return nil, errors.New("a dry run calls no model")
	})
	switch {
	case !b.env.DryRun || parsed.Provider == "script":
		if m, err = opener(parsed, b.env.Getenv); err != nil {
			b.fail("%s: %v", field, err)
			return nil
		}
	case b.env.Probe != nil:
		// A dry run (gavel validate) opens no model, but says what a run
		// would refuse (a missing API key), as a warning: a suite
		// validates without keys.
		if err := b.env.Probe(parsed, b.env.Getenv); err != nil && !b.probed[ref] {
			b.probed[ref] = true // said once, where it is first named
			w := b.problemAt(b.secrets.Redact(fmt.Sprintf("%s: %v: gavel run will refuse it", field, err)))
			w.Message = "warning: " + w.Message
			b.out.Warnings = append(b.out.Warnings, w)
		}
	}
	if b.env.Wrap != nil {
		m = b.env.Wrap(role, parsed, m)
	}
	if !slices.Contains(b.out.Models, parsed) {
		b.out.Models = append(b.out.Models, parsed)
	}
	b.models[key] = m
	return m
}

func (b *builder) providers() []string {
	var out []string
	for p := range b.env.Registry {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// abs resolves a path relative to the suite's directory.
func (b *builder) abs(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(b.l.Dir, p)
}

// gate reads a suite's gate: block.
func (b *builder) gate(g GateSpec) gavel.GateConfig {
	var c gavel.GateConfig
	if g.Confidence != nil {
		if err := stats.CheckLevel(*g.Confidence); err != nil {
			b.fail("gate.confidence: %v", err)
		}
		c.Confidence = *g.Confidence
	}
	var err error
	if c.Inconclusive, err = gavel.ParseInconclusive(g.Inconclusive); err != nil {
		b.fail("gate.inconclusive: %v", err)
	}
	return c
}

// dsn fills in the environment variables of field, a database's dsn
// (passed on as written before, so ${VAR} named no database), and resolves
// an SQLite file relative to the suite; server URLs and file: URIs are
// left alone.
func (b *builder) dsn(field, dsn string) string {
	dsn = b.expand(field, dsn, addressValue) // a password in it is a secret
	if strings.Contains(dsn, "://") || strings.HasPrefix(dsn, "file:") || dsn == ":memory:" {
		return dsn
	}
	return b.abs(dsn)
}

func (b *builder) buildCase(lc LoadedCase) *gavel.Case {
	cs := lc.Spec
	id := cmp.Or(strings.TrimSpace(cs.ID), strings.TrimSpace(cs.Name)) // the seeds name cases
	b.atFile, b.atLine, b.atOffset, b.atCase = lc.File, lc.Line, lc.offset, id
	b.badItems = 0
	defer func() { b.atCase, b.atOffset = "", 0 }()
	if id == "" {
		b.atCase = "(no id)"
		b.fail("the case has no id: give it an id (or a name), unique in the suite")
		return nil
	}
	c := &gavel.Case{
		ID: id, Name: cs.Name, Description: cs.Description, Tags: cs.Tags, Difficulty: cs.Difficulty,
		Metadata: cs.Metadata, Paths: cs.Paths, Source: lc.Source(), Trials: cs.Trials, Critical: cs.Critical,
	}
	if cs.Trials < 0 {
		b.fail("trials %d is negative", cs.Trials)
	}
	b.caseMocks(id, cs.MockTools)
	c.Script.MaxFollowUps = b.l.Suite.MaxFollowUps
	if cs.MaxFollowUps != nil {
		c.Script.MaxFollowUps = *cs.MaxFollowUps
	}
	c.Script.Rounds = b.rounds(cs)
	c.Script.Now = b.caseNow(cs.Now)
	if w := b.l.Suite.Workspace; w != "" {
		c.Script.Workspace = b.abs(b.expand("workspace", w, plainValue))
	}
	b.checkRevival(c.Script)
	b.checkEvents(c.Script)

	var hard, soft []judge.Judge
	var expected []string
	programs := b.programs
	add := func(round int, e Expectations) {
		h, s, words := b.expectations(e, round)
		if round > 0 && len(h) > 0 {
			h = []judge.Judge{judge.InRound(round, allOf(h))}
		}
		if round > 0 && len(s) > 0 {
			s = []judge.Judge{judge.InRound(round, allOf(s))}
		}
		hard, soft = append(hard, h...), append(soft, s...)
		expected = append(expected, words...)
	}
	add(0, cs.Expectations)
	for i, r := range cs.Rounds {
		add(i+1, r.Expectations)
	}
	hard, soft = append(hard, b.every.hard...), append(soft, b.every.llm...)
	if len(b.every.words) > 0 {
		expected = append(expected, b.everyCaseWords())
	}
	switch {
	case len(hard) == 0 && len(soft) == 0 && b.badItems+b.every.bad > 0:
	case len(hard) == 0 && len(soft) == 0:
		b.fail("nothing to judge: give expected_tool_calls, expected_tools, forbidden_tools, forbidden_tool_calls, rules, checks, expected_response_traits, judge_prompt or judges")
	case len(soft) == 0:
		c.Judge = allOf(hard)
	case len(hard) == 0:
		c.Judge = allOf(soft)
	default:
		c.Judge = judge.Tiered(allOf(hard), allOf(soft))
	}
	if c.Judge != nil && (b.programs > programs || b.every.programs > 0) {
		c.Judge = withCase(rule.ProgramCase{ID: c.ID, Name: c.Name, Description: c.Description, Input: c.Input(), Tags: c.Tags, Metadata: c.Metadata}, c.Judge)
	}
	c.Expected = strings.Join(expected, "; ")
	if err := c.Script.Validate(); err != nil && len(c.Script.Rounds) > 0 {
		b.fail("%v", err)
	}
	return c
}

// allOf is judge.All, or the judge itself when there is one.
func allOf(js []judge.Judge) judge.Judge {
	if len(js) == 1 {
		return js[0]
	}
	return judge.All(js...)
}

// rounds builds a case's conversation.
func (b *builder) rounds(cs *CaseSpec) []conversation.Round {
	input := cmp.Or(cs.Input, cs.Prompt)
	if cs.Input != "" && cs.Prompt != "" && cs.Input != cs.Prompt {
		b.fail("input and prompt say different things: they are the same field, give one")
	}
	var rounds []conversation.Round
	switch kinds := countTrue(input != "", len(cs.Rounds) > 0, cs.Persona != nil); {
	case kinds == 0:
		b.fail("nothing to say to the agent: give input (or prompt), rounds or a persona")
		return nil
	case kinds > 1:
		b.fail("give one of input (or prompt), rounds and persona, not several")
		return nil
	case input != "":
		rounds = []conversation.Round{{Prompt: input}}
	case cs.Persona != nil:
		rounds = []conversation.Round{b.persona(*cs.Persona)}
	default:
		for i, r := range cs.Rounds {
			round := conversation.Round{Prompt: r.Prompt, Revive: r.Revive || (cs.TestAgentRevival && i > 0), Hints: r.Hints, Setup: b.steps(r.Setup)}
			if r.Event != nil {
				payload, err := r.Event.Payload.JSON()
				if err != nil {
					payload = nil
				}
				round.Event = &agent.Event{Name: r.Event.Name, Payload: payload}
			}
			rounds = append(rounds, round)
		}
	}
	rounds[0].Setup = append(b.steps(cs.Setup), rounds[0].Setup...)
	rounds[0].Hints = append(slices.Clone(cs.Hints), rounds[0].Hints...)
	if (len(cs.Hints) > 0 || slices.ContainsFunc(cs.Rounds, func(r RoundSpec) bool { return len(r.Hints) > 0 })) && b.out.FollowUps == nil {
		b.fail("hints need a model to notice the agent's questions: set models.followup or models.judge")
	}
	return rounds
}

func countTrue(bs ...bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

func (b *builder) persona(p PersonaSpec) conversation.Round {
	ref := cmp.Or(p.Model, cmp.Or(b.l.Suite.Models.User, b.l.Suite.Models.Judge))
	m := b.model("user", ref, "persona.model")
	if m == nil {
		return conversation.Round{Prompt: p.Opening}
	}
	u, err := sim.NewUser(sim.UserConfig{Model: m, MaxTurns: p.MaxTurns, StopSignal: p.StopSignal, Persona: sim.Persona{
		Name: p.Name, Background: p.Background, Traits: p.Traits, Goal: p.Goal, Knows: p.Knows, Secrets: p.Secrets,
	}})
	if err != nil {
		b.fail("persona: %v", err)
		return conversation.Round{Prompt: p.Opening}
	}
	return conversation.Round{User: u, Prompt: p.Opening}
}

// Validate checks the suite at path as Open does, without keeping it: it
// builds each case as it is read and lets it go, so that a suite of any
// size, its JSON Lines files read a line at a time, is checked in the
// memory of one case (and of the ids seen). It returns what it found of
// a valid suite, or every problem, as Problems.
func Validate(path string, env Env) (*Validation, error) {
	l, fieldProblems, problems, err := loadSuiteFile(path)
	if err != nil {
		return nil, err // no suite file at all
	}
	if l.Unreadable {
		return nil, problems.sorted()
	}
	b := newBuilder(l, env)
	defer b.out.Close()
	s := b.suiteHead()
	v := &Validation{File: l.File}
	problems = append(problems, l.eachCase(fieldProblems, func(lc LoadedCase) {
		if b.addCase(lc) != nil {
			v.Cases++
		}
	})...)
	b.suiteEnd(s)
	if problems = append(problems, b.problems...); len(problems) > 0 {
		return nil, problems.sorted()
	}
	v.Warnings = b.out.Warnings
	return v, nil
}

// A Validation is what Validate found of a valid suite.
type Validation struct {
	// File is the suite file; Cases how many cases it has.
	File  string
	Cases int
	// Warnings are what is worth fixing but does not stop a run (see
	// Built.Warnings).
	Warnings Problems
}

// Open loads and builds the suite at path, reporting the problems of both
// steps together, so that a user sees every mistake in one go.
func Open(path string, env Env) (*Built, error) {
	l, err := Load(path)
	var problems Problems
	if !errors.As(err, &problems) && err != nil {
		return nil, err // no suite file at all
	}
	if l.Unreadable {
		return nil, problems.sorted()
	}
	b, err := Build(l, env)
	var more Problems
	if errors.As(err, &more) {
		problems = append(problems, more...)
	} else if err != nil {
		return nil, err
	}
	if len(problems) > 0 {
		if b != nil {
			_ = b.Close()
		}
		return nil, problems.sorted()
	}
	return b, nil
}
