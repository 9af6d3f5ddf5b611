package spec

import (
	"fmt"

	"go.yaml.in/yaml/v3"
)

// The types below are the suite format, as written in YAML (or JSON). The
// doc tags are the descriptions `gavel schema` gives editors.

// SuiteFile is a suite file.
type SuiteFile struct {
	Name         string     `yaml:"name" doc:"The suite's name, as reports show it."`
	Description  string     `yaml:"description" doc:"What the suite tests."`
	Agent        *AgentSpec `yaml:"agent" doc:"The agent under test."`
	Models       ModelsSpec `yaml:"models" doc:"The models that judge and play users, as provider:model references."`
	Threshold    *float64   `yaml:"threshold" doc:"The pass rate the suite must reach, above 0 and at most 1 (0.8 for 80%). Defaults to 1."`
	Gate         *GateSpec  `yaml:"gate" doc:"How the pass rate, a sample, is weighed against the threshold: the run is PASS when the pass rate's confidence interval reaches the threshold, FAIL when it lies below, INCONCLUSIVE when it straddles it (docs/statistics.md)."`
	Flaky        *FlakySpec `yaml:"flaky" doc:"How the suite treats its unstable cases: those that flip from run to run (gavel flaky lists them)."`
	Trials       int        `yaml:"trials" doc:"How many times each case runs. Defaults to 1."`
	Concurrency  int        `yaml:"concurrency" doc:"How many trials run at once. Defaults to 4."`
	Timeout      string     `yaml:"timeout" doc:"How long one trial's conversation may take, as a Go duration (90s, 5m). Defaults to 5m."`
	MaxFollowUps int        `yaml:"max_followups" doc:"Automatic answers to the agent's clarifying questions per round. Defaults to 2; -1 for none."`
	Workspace    string     `yaml:"workspace" doc:"The directory the agent works in, relative to the suite (${VAR} and ${VAR:-default} read the environment): the judges of files (file_exists, file_content, file_json), builds, commands with dir: workspace and agent_judge look there. The agent must be told it too, in its own configuration."`
	SharedPaths  []string   `yaml:"shared_paths" doc:"Globs of files every case depends on: a change to one selects every case."`
	// AllowSameFamilyJudge silences the judge-hierarchy warning.
	AllowSameFamilyJudge bool        `yaml:"allow_same_family_judge" doc:"Silence the warning that a judge model is the agent's own model or of its family (a model favours answers like its own)."`
	Cases                []CaseEntry `yaml:"cases" doc:"The cases: inline, or globs of YAML or JSON Lines files of cases."`
	// EveryCase is read by Load, from the file it names if it names one.
	EveryCase *EveryCaseSpec `yaml:"every_case" doc:"Judges every case gets besides its own (rules:, checks:, judges:), such as a style guide's hard rules; or the path of a YAML file holding them, relative to the suite, so that the agent's prompts and the tests read the same rules."`
	// Audit is what gavel audit holds the suite's model judges to.
	Audit *AuditSpec `yaml:"audit" doc:"The bars gavel audit holds the suite's model judges to (docs/audit.md): position flips, verbosity, unstable verdicts, the family gap and the self-test's accuracy. A bar left out is reported, not checked."`
	// Prices are read by Load into Loaded.Prices.
	Prices map[string]PriceSpec `yaml:"prices" doc:"Prices of models by the name their vendor gives them (my-model: {input: 0.5, output: 1.5}), in US dollars per million tokens: they add to Gavel's table of list prices, or replace its entries. A model without a price is reported unpriced: its cost is unknown, and a cost budget refuses to run."`
}

// GateSpec is how a suite's gate weighs its pass rate (gate:).
type GateSpec struct {
	Confidence   *float64 `yaml:"confidence" doc:"The confidence level of the run's intervals, between 0 and 1 (0.9 for 90%). Defaults to 0.95."`
	Inconclusive string   `yaml:"inconclusive" doc:"What an INCONCLUSIVE verdict does to the run: rate (the pass rate alone decides, as without intervals; the reports still say INCONCLUSIVE), pass, fail (exit code 1) or exit (exit code 6). Defaults to rate." enum:"rate,pass,fail,exit"`
}

// FlakySpec is how a suite treats its unstable cases.
type FlakySpec struct {
	QuarantineAfter int `yaml:"quarantine_after" doc:"Quarantine a case that was unstable (flaky, or not as in the run before) in each of its last this many runs: it runs and is reported, but does not gate, until one of its last this many runs is stable again. Needs the results database (its history). Defaults to 0: none is quarantined by itself (gavel quarantine quarantines by hand)."`
}

// ModelsSpec names the models by role. In every model reference of a
// suite, ${VAR} and ${VAR:-default} read the environment, so a suite can
// default to scripted models offline and take a vendor's from the
// environment.
type ModelsSpec struct {
	Agent    string `yaml:"agent" doc:"The model an http or exec agent runs on, when you know it: Gavel warns when a judge is that model or of its family, and reports name it. A builtin agent's model is agent.builtin.model."`
	Judge    string `yaml:"judge" doc:"The model of LLM judges, unless a judge names its own."`
	User     string `yaml:"user" doc:"The model that plays simulated users. Defaults to the judge model."`
	FollowUp string `yaml:"followup" doc:"The model that detects clarifying questions and answers them. Defaults to the judge model."`
}

// PriceSpec is what a model costs, in US dollars per million tokens, as a
// suite's prices: and a gavel run --prices file write it:
//
//	prices:
//	  my-model: {input: 0.5, output: 1.5, cached_input: 0.05}
type PriceSpec struct {
	Input       *float64 `yaml:"input" doc:"US dollars per million input tokens."`
	Output      *float64 `yaml:"output" doc:"US dollars per million output tokens."`
	CachedInput *float64 `yaml:"cached_input" doc:"US dollars per million input tokens read from the vendor's prompt cache. Defaults to the input price."`
}

// AgentSpec is the agent under test: exactly one kind (builtin, http,
// exec or go), with what any kind may have (mcp_proxy, restart).
type AgentSpec struct {
	Builtin *BuiltinSpec `yaml:"builtin" doc:"An agent defined here: a system prompt, a model and MCP tools."`
	HTTP    *HTTPSpec    `yaml:"http" doc:"An agent behind an HTTP API."`
	Exec    *ExecSpec    `yaml:"exec" doc:"A subprocess speaking JSON Lines (docs/exec-protocol.md)."`
	Go      string       `yaml:"go" doc:"An agent written in Go, by the name the Go test that runs the suite gives it (gaveltest.Config.Agents; spec.Env.Agents). The gavel command has no Go agents: such a suite runs under go test."`
	// MCPProxy is for http and exec agents that do not report their tool
	// calls: the agent is pointed at Gavel's proxy instead of its server.
	MCPProxy []MCPProxySpec `yaml:"mcp_proxy" doc:"MCP servers the agent reaches through Gavel's recording proxy, for an http or exec agent that does not report its tool calls."`
	// MockTools are tools Gavel serves with the answers the suite writes:
	// the builtin agent's, or, at MockListen, an http or exec agent's.
	MockTools  []MockToolSpec `yaml:"mock_tools" doc:"Tools Gavel serves itself, with the answers written here (package mock): a builtin agent has them beside its MCP servers; an http or exec agent reaches them as an MCP server at mock_listen. Calls to them are recorded and judged like real ones. No server process is needed."`
	MockListen string         `yaml:"mock_listen" doc:"For an http or exec agent: the address (host:port) where Gavel serves mock_tools as an MCP server over streamable HTTP; the agent's MCP URL is then http://host:port/mcp. ${VAR} and ${VAR:-default} read the environment."`
	// Faults are injected into the agent's tool calls on purpose.
	Faults []FaultSpec `yaml:"faults" doc:"Faults injected on purpose into the agent's tool calls (its MCP servers, its recording proxies, its mock tools), to see how it copes: the transcript marks each injected call, for a judge to ask whether the agent recovered, retried, apologised or made something up."`
	// ReplayTools answers the agent's tool calls from a stored run.
	ReplayTools *ReplayToolsSpec `yaml:"replay_tools" doc:"Replay the tool results a stored run recorded instead of calling the live servers (a builtin agent's MCP servers, the recording proxies; mock tools answer as written), so that every run, and every version of the agent, meets the same environment. A call is matched by its case, its trial, its tool and its arguments as JSON (key order and whitespace aside); identical calls get the recorded results in their order, then the last again. Calls the recorded run broke on purpose (faults) are not replayed. The transcript marks each replayed call. gavel run --replay-tools RUN does the same from the command line."`
	// ModelEndpoint serves the agent's own model calls: an http or exec
	// agent is pointed at it instead of its vendor.
	ModelEndpoint *ModelEndpointSpec `yaml:"model_endpoint" doc:"For an http or exec agent: an OpenAI- and Anthropic-compatible endpoint Gavel serves in front of the agent's model, for the agent to call instead of its vendor (its own configuration points it there: OPENAI_BASE_URL=http://host:port/v1, ANTHROPIC_BASE_URL=http://host:port). Its calls are then counted, priced and traced as the builtin agent's, cached when gavel run caches, and given faults; each is credited to the reply in flight, so the agent's messages are answered one at a time."`
	// Restart makes revivals restart the agent, of any kind.
	Restart *RestartSpec `yaml:"restart" doc:"A command that restarts the agent's process or server to revive a session (test_agent_revival, revive): it runs after the session is closed and before it is opened again, so that what the agent kept only in memory is gone. A restart runs alone: it waits until no other trial has a session open."`
}

// MockToolSpec is a mock tool: what the agent is told of it, and its
// answers.
type MockToolSpec struct {
	Name        string           `yaml:"name" doc:"The tool's name, as the agent calls it."`
	Description string           `yaml:"description" doc:"What the tool does, as the agent reads it."`
	InputSchema map[string]any   `yaml:"input_schema" doc:"The JSON Schema of its arguments. Defaults to any object."`
	Results     []MockResultSpec `yaml:"results" doc:"Its answers, tried in order for each call: the first whose when matches answers it. A call none matches is an error result that says so."`
}

// MockResultSpec is one answer of a mock tool.
type MockResultSpec struct {
	When   map[string]any `yaml:"when" doc:"The arguments it answers, matched as expected_tool_calls' args are (a subset, with the same matchers). Defaults to any arguments."`
	Exact  bool           `yaml:"exact" doc:"Match only calls with no other arguments than when's."`
	Once   bool           `yaml:"once" doc:"Answer one call of a trial only: results in a row, each once, answer the calls in order (fail the first call, then answer)."`
	Result any            `yaml:"result" doc:"The answer: text, or any other value, which the agent reads as JSON."`
	Error  string         `yaml:"error" doc:"Instead of result: the tool reports a failure, in these words (a failed call)."`
}

// FaultSpec is a fault injected on purpose into some tool calls.
type FaultSpec struct {
	Tool    string  `yaml:"tool" doc:"The tool whose calls suffer it. Defaults to every tool."`
	OnCall  int     `yaml:"on_call" doc:"The call it strikes: the Nth call of the tool in a trial (from 1)."`
	Rate    float64 `yaml:"rate" doc:"Instead of on_call: the share of calls it strikes, above 0 and at most 1, drawn with seed, so that runs are alike."`
	Seed    uint64  `yaml:"seed" doc:"Seeds the draws of rate. Defaults to 0."`
	Kind    string  `yaml:"kind" doc:"What the call suffers: error (an error result; the tool is not called), protocol_error (an MCP protocol error; the tool is not called), delay (the call waits delay first: past the agent's patience, it gives up), empty (the tool's result emptied) or truncate (cut in half)." enum:"error,protocol_error,delay,empty,truncate"`
	Message string  `yaml:"message" doc:"The words of an error or a protocol error. Defaults to a message that says the fault was injected."`
	Delay   string  `yaml:"delay" doc:"How long a delay waits, such as 30s."`
}

// ReplayToolsSpec says which stored run's tool results the agent's tools
// replay, and what becomes of a call that run did not make.
type ReplayToolsSpec struct {
	Run       string `yaml:"run" doc:"The stored run whose tool results are replayed: its id, its label (gavel run --run-label), a git branch (the newest finished run of this suite on it), or latest (the newest finished run of this suite). ${VAR} and ${VAR:-default} read the environment."`
	Unmatched string `yaml:"unmatched" doc:"A call the recorded run did not make: error (an error result that says so, marked in the transcript; the live server is not called) or live (the live server answers it). Defaults to error." enum:"error,live"`
}

// ModelEndpointSpec is the model endpoint Gavel serves an http or exec
// agent (agent.model_endpoint).
type ModelEndpointSpec struct {
	Listen string           `yaml:"listen" doc:"The address (host:port) Gavel serves the endpoint on: POST /v1/chat/completions (OpenAI's Chat Completions) and POST /v1/messages (Anthropic's Messages), streamed or not. ${VAR} and ${VAR:-default} read the environment."`
	Model  string           `yaml:"model" doc:"The model that answers every call, whatever model the agent asks for, as provider:model (openai:gpt-5-mini; script:models/agent.yaml offline). It is the agent's model of the suite: reports name it and price its calls. Defaults to models.agent. ${VAR} and ${VAR:-default} read the environment."`
	Faults []ModelFaultSpec `yaml:"faults" doc:"Faults injected on purpose into the agent's model calls, to see how it copes: a rate limit, a server error, a reply cut off by the token limit."`
}

// ModelFaultSpec is a fault injected on purpose into some of the agent's
// model calls.
type ModelFaultSpec struct {
	OnCall     int     `yaml:"on_call" doc:"The call it strikes: the Nth model call of a trial (from 1)."`
	Rate       float64 `yaml:"rate" doc:"Instead of on_call: the share of calls it strikes, above 0 and at most 1, drawn with seed, so that runs are alike."`
	Seed       uint64  `yaml:"seed" doc:"Seeds the draws of rate. Defaults to 0."`
	Kind       string  `yaml:"kind" doc:"What the call suffers: rate_limit (a 429 with a Retry-After header; the model is not called), server_error (a 500; the model is not called) or truncate (the model's reply cut off by the token limit: finish_reason length, its text and tool arguments cut in half)." enum:"rate_limit,server_error,truncate"`
	RetryAfter string  `yaml:"retry_after" doc:"The Retry-After of a rate_limit, such as 2s or 500ms. Defaults to 1s."`
	Message    string  `yaml:"message" doc:"The words of a rate_limit or a server_error. Defaults to a message that says the fault was injected."`
}

// RestartSpec is a command that restarts the agent.
type RestartSpec struct {
	Command []string `yaml:"command" doc:"The command, run in the suite's directory without a shell ([sh, -c, '...'] for one). It must exit 0 once the old process has stopped; a server it starts in the background should send its output to a file. ${VAR} and ${VAR:-default} read the environment."`
	Env     []string `yaml:"env" doc:"Extra environment of the command, NAME=value. ${VAR} and ${VAR:-default} read the environment."`
	Ready   string   `yaml:"ready" doc:"A URL asked (GET) after the command until it answers with a status below 500. Defaults to the http agent's url; none for other agents. ${VAR} and ${VAR:-default} read the environment."`
	Timeout string   `yaml:"timeout" doc:"How long the command and the wait for ready may take together. Defaults to 1m."`
}

// MCPProxySpec is a recording proxy: Gavel listens on Listen, serves the
// upstream server's tools there over streamable HTTP, and records every
// call into the transcript.
type MCPProxySpec struct {
	MCPSpec `yaml:",inline"`
	Listen  string `yaml:"listen" doc:"The address the proxy listens on, host:port; the agent's MCP URL is then http://host:port/mcp. ${VAR} and ${VAR:-default} read the environment."`
}

// BuiltinSpec defines a builtin agent.
type BuiltinSpec struct {
	SystemPrompt string            `yaml:"system_prompt" doc:"The system prompt; {today} (the date a session opened, 2024-05-20), {now} (the time, RFC 3339), {locale} and vars are filled in."`
	Model        string            `yaml:"model" doc:"The agent's model, as provider:model. ${VAR} and ${VAR:-default} read the environment."`
	Vars         map[string]string `yaml:"vars" doc:"Values for {name} placeholders of the system prompt."`
	Locale       string            `yaml:"locale" doc:"The locale for {locale}."`
	Now          string            `yaml:"now" doc:"A fixed time for {today} and {now}, so that the prompt reads the same on every run: an RFC 3339 time (2024-05-20T09:30:00+02:00; {today} is the date in its offset) or a date (2024-05-20, midnight UTC). ${VAR} and ${VAR:-default} read the environment. A case's now replaces it. Defaults to the real clock."`
	MaxTurns     int               `yaml:"max_turns" doc:"Model calls per user message at most. Defaults to 6."`
	MaxTokens    int               `yaml:"max_tokens" doc:"The most tokens one model call may write. A reply cut off by it while calling tools ends the trial as an ERROR, its calls not run. Defaults to the provider's limit (4096 for anthropic; the server's own for openai)."`
	MCP          []MCPSpec         `yaml:"mcp" doc:"The MCP servers whose tools the agent may call."`
}

// MCPSpec is an MCP server: a command (stdio) or a URL (streamable HTTP
// or SSE), not both. ${VAR} and ${VAR:-default} in the command, the URL
// and the headers' values read the environment.
type MCPSpec struct {
	Name      string            `yaml:"name" doc:"A name for messages."`
	Command   []string          `yaml:"command" doc:"The command of a stdio server, run in the suite's directory. ${VAR} and ${VAR:-default} read the environment."`
	Env       []string          `yaml:"env" doc:"Extra environment of the command, NAME=value. Only for a command. ${VAR} and ${VAR:-default} read the environment."`
	URL       string            `yaml:"url" doc:"The URL of an HTTP server: its streamable-HTTP endpoint (often ending in /mcp), or its SSE stream (often /sse) with transport sse. ${VAR} and ${VAR:-default} read the environment."`
	Transport string            `yaml:"transport" doc:"streamable or sse, for a url. Defaults to streamable, falling back to sse when the server refuses it with a 4xx (the MCP spec's backwards compatibility); set it to use one only. A command always speaks stdio. ${VAR} and ${VAR:-default} read the environment."`
	Headers   map[string]string `yaml:"headers" doc:"HTTP headers sent to a url server (Authorization: 'Bearer ${TOKEN}'); ${VAR} and ${VAR:-default} read the environment, and their values are never printed."`
	Timeout   string            `yaml:"timeout" doc:"How long starting and connecting may take, and each request afterwards. Defaults to 1m."`
	Share     string            `yaml:"share" doc:"Which trials share one connection to the server (for a command, one process of it): run (every trial of the run, the default: what one trial stores in a server, later trials see), case (the trials of one case), or trial (each trial its own, closed once it is judged). A recording proxy (mcp_proxy) serves a whole run at its address, so it takes run only."`
}

// HTTPSpec defines an HTTP agent.
type HTTPSpec struct {
	URL      string            `yaml:"url" doc:"Where messages are POSTed. ${VAR} and ${VAR:-default} read the environment."`
	EventURL string            `yaml:"event_url" doc:"Where events are POSTed, if the agent takes them. ${VAR} and ${VAR:-default} read the environment."`
	Headers  map[string]string `yaml:"headers" doc:"HTTP headers; ${VAR} reads the environment (never printed)."`
	Request  string            `yaml:"request" doc:"A template of the request body. Defaults to {session_id, message, metadata}."`
	Reply    map[string]string `yaml:"reply" doc:"JSON pointers into the reply: text, tool_calls, input_tokens, output_tokens, cached_tokens, cost_usd."`
	Timeout  string            `yaml:"timeout" doc:"How long a request may take. Defaults to 2m."`
	Open     *HTTPRequestSpec  `yaml:"open" doc:"A request sent when a session opens: at the start of each trial, and to revive a session. It must be answered with a 2xx status."`
	Close    *HTTPRequestSpec  `yaml:"close" doc:"A request sent when a session closes: at the end of each trial, and to revive a session. It must be answered with a 2xx status. Without it (or agent.restart), a case cannot revive the session: the agent would never be told."`
}

// HTTPRequestSpec is a request an http agent is sent about a session.
type HTTPRequestSpec struct {
	Method  string            `yaml:"method" doc:"The HTTP method. Defaults to POST."`
	URL     string            `yaml:"url" doc:"A URL, or a path resolved against the agent's url (/close). A template: {{path .SessionID}} is the session id escaped for a path. ${VAR} and ${VAR:-default} read the environment."`
	Headers map[string]string `yaml:"headers" doc:"HTTP headers added to the agent's; ${VAR} reads the environment (never printed)."`
	Body    string            `yaml:"body" doc:"A template of the JSON body, such as {\"id\": {{json .SessionID}}}. Defaults to {session_id} for POST, PUT and PATCH, none otherwise."`
}

// ExecSpec defines an exec agent.
type ExecSpec struct {
	Command []string `yaml:"command" doc:"The command, run in the suite's directory."`
	Env     []string `yaml:"env" doc:"Extra environment, NAME=value. ${VAR} and ${VAR:-default} read the environment."`
	Mode    string   `yaml:"mode" doc:"shared (one process serves every session; a revival keeps it) or per-session (a process per session; a revival starts a new one). Defaults to shared."`
	Timeout string   `yaml:"timeout" doc:"How long a request may take. Defaults to 2m."`
}

// CaseEntry is an item of a suite's cases: an inline case, or a glob of
// case files.
type CaseEntry struct {
	Glob string
	Case *CaseSpec
	line int
	node *yaml.Node // the inline case, as written
	bad  bool       // neither: reported by the decoder
	// errs are the inline case's decoding errors: kept here, so that the
	// rest of the case is still built and its problems reported too.
	errs error
}

// UnmarshalYAML reads a glob (a string) or an inline case (a mapping).
func (e *CaseEntry) UnmarshalYAML(n *yaml.Node) error {
	e.line = n.Line
	switch n.Kind {
	case yaml.ScalarNode:
		return n.Decode(&e.Glob)
	case yaml.MappingNode:
		e.Case, e.node = new(CaseSpec), n
		err := n.Decode(e.Case)
		if _, ok := err.(*yaml.TypeError); ok {
			e.errs = err // returned, the error would drop the whole case
			return nil
		}
		return err
	}
	// A TypeError lets the rest of the suite file decode.
	e.bad = true
	return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: a case is a mapping, or a glob of case files", n.Line)}}
}

// CaseSpec is a case. The seeds' schemas load as written: input or
// prompt; expected_tool_calls, expected_tools, expected_response_traits;
// judge_prompt and judge_threshold; rounds; test_agent_revival.
type CaseSpec struct {
	ID          string   `yaml:"id" doc:"A unique id within the suite. Defaults to the name."`
	Name        string   `yaml:"name" doc:"A short title."`
	Description string   `yaml:"description" doc:"What the case checks, and why."`
	Tags        []string `yaml:"tags" doc:"Labels for selecting and slicing (--tag)."`
	Difficulty  string   `yaml:"difficulty" doc:"easy, medium, hard: free text."`
	Metadata    Metadata `yaml:"metadata" doc:"Provenance: source, owner, review date. A value may be a mapping or a list (kept as its JSON); a scalar is kept as written."`
	Paths       []string `yaml:"paths" doc:"Globs of the code the case covers (--changed-since)."`

	Input   string       `yaml:"input" doc:"The user's message (a single-prompt case)."`
	Prompt  string       `yaml:"prompt" doc:"Same as input."`
	Rounds  []RoundSpec  `yaml:"rounds" doc:"A multi-round thread, in order."`
	Persona *PersonaSpec `yaml:"persona" doc:"A simulated user who talks to the agent."`

	Now string `yaml:"now" doc:"The time it is for the agent in this case, instead of agent.builtin.now or the real clock: an RFC 3339 time or a date, as agent.builtin.now. A builtin agent's {today} and {now} read it; a Go agent may (agent.Now). An http or exec agent keeps its own clock, so it is refused for them. ${VAR} and ${VAR:-default} read the environment."`

	TestAgentRevival bool `yaml:"test_agent_revival" doc:"Revive the session before each round after the first: close it and reopen it with the same id (and restart the agent if agent.restart is set). The agent must be revivable: an http agent needs close or agent.restart."`
	MaxFollowUps     *int `yaml:"max_followups" doc:"Automatic answers to clarifying questions per round. Defaults to the suite's."`
	Trials           int  `yaml:"trials" doc:"How many times the case runs. Defaults to the suite's."`
	Critical         bool `yaml:"critical" doc:"Any failure of this case fails the run's gate (and gavel compare, gavel run --baseline), whatever the pass rate and its statistics: for what the agent must never do. Defaults to false."`

	Expectations `yaml:",inline"`

	Hints []string   `yaml:"hints" doc:"Answers to the agent's clarifying questions, in order."`
	Setup []StepSpec `yaml:"setup" doc:"Steps run before the first round."`

	MockTools []CaseMockSpec `yaml:"mock_tools" doc:"This case's own answers of the suite's mock tools (agent.mock_tools), tried before the suite's in its trials: a tool that fails in this case only, an order only this case knows. A case cannot add a tool: the agent's tools are the suite's."`
}

// CaseMockSpec is a case's own answers of one of the suite's mock tools.
type CaseMockSpec struct {
	Name    string           `yaml:"name" doc:"The mock tool, as agent.mock_tools names it."`
	Results []MockResultSpec `yaml:"results" doc:"This case's answers, tried in order before the suite's: the first whose when matches answers."`
}

// RoundSpec is one round of a thread.
type RoundSpec struct {
	Prompt string     `yaml:"prompt" doc:"The user's message."`
	Event  *EventSpec `yaml:"event" doc:"An event dispatched to the agent instead of a message. An http agent takes events only with event_url; an exec agent as an event request; a builtin agent's model reads it as a user message, [event NAME] and the payload as compact JSON ([event reminder_due] {\"id\":7}), so say in its system prompt what events mean."`
	Revive bool       `yaml:"revive" doc:"Revive the session before this round: close it and reopen it with the same id (and restart the agent if agent.restart is set)."`
	Hints  []string   `yaml:"hints" doc:"Answers to the agent's clarifying questions in this round."`
	Setup  []StepSpec `yaml:"setup" doc:"Steps run before this round."`

	Expectations `yaml:",inline"`
}

// EventSpec is a proactive event.
type EventSpec struct {
	Name    string `yaml:"name" doc:"The event's name."`
	Payload Value  `yaml:"payload" doc:"Any value, sent as JSON, each scalar of the type written (2024-05-20 and 01234 are strings)."`
}

// PersonaSpec is a simulated user.
type PersonaSpec struct {
	Name       string   `yaml:"name" doc:"Who they are."`
	Background string   `yaml:"background" doc:"Their situation."`
	Traits     []string `yaml:"traits" doc:"How they write: casual texter, lowercase, short messages."`
	Goal       string   `yaml:"goal" doc:"What they want; they stop when it is reached."`
	Knows      []string `yaml:"knows" doc:"Facts they share when it makes sense."`
	Secrets    []string `yaml:"secrets" doc:"Facts they must never reveal."`
	MaxTurns   int      `yaml:"max_turns" doc:"Messages they send at most. Defaults to 10."`
	Opening    string   `yaml:"opening" doc:"Their first message, if the case writes it."`
	Model      string   `yaml:"model" doc:"The model playing them. Defaults to the suite's user model."`
	StopSignal string   `yaml:"stop_signal" doc:"What their model writes to end the conversation, goal reached or giving up (it is told to); what comes before it is sent as their last message. Defaults to <<DONE>>."`
}

// Expectations are what a case, or one round, is judged on. Deterministic
// ones run first; LLM judges run only when they all pass.
type Expectations struct {
	ToolCallExpectations   `yaml:",inline"` // expected_tool_calls and the like: spec/toolcalls.go
	ExpectedTools          []string         `yaml:"expected_tools" doc:"Tools the agent must call, any arguments. A failed call (MCP isError, or a result matching tool_error_result) does not count."`
	ForbiddenTools         []string         `yaml:"forbidden_tools" doc:"Tools the agent must not call. A failed call (MCP isError, or a result matching tool_error_result) is not counted: the tool did nothing; forbidden_tool_calls with must_succeed: false forbids the attempt."`
	ExpectedResponseTraits []string         `yaml:"expected_response_traits" doc:"Traits of the response an LLM judge checks one by one."`
	JudgePrompt            string           `yaml:"judge_prompt" doc:"Criteria an LLM judge scores the response against (a rubric)."`
	JudgeThreshold         *float64         `yaml:"judge_threshold" doc:"The rubric's passing score, 0..1 (0: every score passes; the score is recorded). Defaults to 0.7."`
	Rules                  []JudgeSpec      `yaml:"rules" doc:"Judges of any kind (docs/judges.md): usually the deterministic ones, such as contains, regex, forbidden_phrases, json_schema."`
	Judges                 []JudgeSpec      `yaml:"judges" doc:"Judges of any kind (docs/judges.md): usually the ones that ask a model, such as rubric, criteria, pairwise and jury. Wherever a judge is listed, one that asks no model runs first, and the ones that ask a model run only when all of those pass."`
	Checks                 []JudgeSpec      `yaml:"checks" doc:"Judges of any kind (docs/judges.md): usually checks of the world after the conversation, such as sql, command, file_content and build."`
}

// StepSpec is a setup step: exactly one kind.
type StepSpec struct {
	SQL     *SQLStepSpec `yaml:"sql" doc:"A statement run on a database."`
	Command []string     `yaml:"command" doc:"A command that must exit 0, run in the suite's directory."`
}

// SQLStepSpec is an SQL setup step.
type SQLStepSpec struct {
	DSN       string `yaml:"dsn" doc:"postgres://… or an SQLite file, relative to the suite."`
	Statement string `yaml:"statement" doc:"The statement, e.g. an UPDATE writing a past timestamp."`
}
