package judge

import (
	"encoding/json"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// A Transcript is everything about one trial of one case: what the agent
// was asked, every turn of the conversation, every tool call, how the
// execution ended and what it cost. Judges read transcripts and nothing
// else, so a stored transcript can be judged again later.
//
// Transcripts round-trip through JSON: marshalling one, unmarshalling the
// bytes and marshalling again gives the same bytes. Times keep their instant
// and their offset; store them in UTC for values that also compare equal
// with ==.
type Transcript struct {
	// CaseID and Trial say which case and which trial of it this is.
	CaseID string `json:"case_id,omitempty"`
	Trial  int    `json:"trial,omitempty"`

	// Goal is what the agent was asked to achieve: the case's prompt, or a
	// simulated user's goal.
	Goal string `json:"goal,omitempty"`

	// Context is conversation that came before Turns: judges are shown it
	// so that they understand what Turns refer to, but they judge Turns.
	// Round fills it: a round's judges see the earlier rounds as Context.
	Context []Turn `json:"context,omitempty"`

	// Turns are the conversation in order.
	Turns []Turn `json:"turns,omitempty"`

	// FinalResponse is the agent's answer that the case is judged on. When
	// it is empty, Response falls back to the last agent turn.
	FinalResponse string `json:"final_response,omitempty"`

	// SessionID is the id the agent's session was opened with.
	SessionID string `json:"session_id,omitempty"`

	// Revivals mark where the session was closed and reopened with the same
	// id.
	Revivals []Revival `json:"revivals,omitempty"`

	// Workspace is the directory the agent worked in, if any. Workspace
	// judges resolve relative paths against it.
	Workspace string `json:"workspace,omitempty"`

	// Status says how the execution ended; Error says why when it did not
	// succeed.
	Status ExecStatus `json:"status,omitempty"`
	Error  string     `json:"error,omitempty"`
	// Cause, when the execution did not succeed, says whether a service
	// could not be reached (the agent, or a model it or a simulated user
	// needed; a timeout counts) or the run was stopped at once (see
	// CauseOf); "" for any other failure.
	Cause Cause `json:"cause,omitempty"`

	Started  time.Time     `json:"started,omitzero"`
	Duration time.Duration `json:"duration_ns,omitempty"`

	// Usage is what the agent under test spent (not the judges).
	Usage Usage `json:"usage,omitzero"`

	// Metadata is free-form; Gavel neither reads nor changes it.
	Metadata map[string]string `json:"metadata,omitempty"`
}

// A Turn is one message of the conversation.
type Turn struct {
	Role    Role      `json:"role"`
	Content string    `json:"content"`
	Time    time.Time `json:"time,omitzero"`

	// Latency is how long the agent took to produce this turn.
	Latency time.Duration `json:"latency_ns,omitempty"`

	// ToolCalls are the calls the agent made while producing this turn, in
	// the order it made them.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`

	// Usage is what producing this turn cost.
	Usage Usage `json:"usage,omitzero"`

	// FinishReason is why the model stopped writing an agent turn, when the
	// agent says (the builtin agent does): "stop" (a natural end),
	// "tool_calls", "length" (cut off by the token limit), "filtered" (a
	// content filter or a refusal), or a vendor's own reason. For a turn made
	// of several model calls (a ReAct loop), it is the last call's reason,
	// unless an earlier call stopped abnormally (see AbnormalFinish): the
	// first such reason is kept, so that it stays visible.
	FinishReason string `json:"finish_reason,omitempty"`

	// ModelFaults, on an agent turn, are the faults Gavel injected on
	// purpose into the model calls the agent made through Gavel's model
	// endpoint while producing it (a suite's agent.model_endpoint.faults),
	// in order: "rate_limit (429, Retry-After 1s)", "server_error (500)",
	// "truncate".
	ModelFaults []string `json:"model_faults,omitempty"`

	// Round is the round of the case the turn belongs to, counting from 1;
	// 0 when the conversation was not divided into rounds.
	Round int `json:"round,omitempty"`

	// Origin says who wrote a user turn when it was not the case's author.
	Origin Origin `json:"origin,omitempty"`

	// FollowUp, on an agent turn, is the check of whether the reply asked
	// the user for clarification, when the conversation made one.
	FollowUp *FollowUpCheck `json:"followup,omitempty"`
}

// A FollowUpCheck records one decision on whether an agent's reply asked
// the user for clarification instead of answering, so that an automatic
// answer is sent (seed 000's follow-up detection): who decided, what,
// why, and what deciding cost.
type FollowUpCheck struct {
	// By says what decided: FollowUpByPreCheck or FollowUpByModel.
	By string `json:"by"`
	// NeedsFollowUp is true when the reply asks for clarification: the
	// next user turn of the round, if any, is the automatic answer
	// (Origin OriginFollowUp).
	NeedsFollowUp bool `json:"needs_followup"`
	// Reason says why: the pre-check's rule, or the model's reasoning.
	Reason string `json:"reason,omitempty"`
	// Error says why the model could not tell; the conversation then
	// ended.
	Error string `json:"error,omitempty"`
	// Usage is what the check cost: nothing for a pre-check.
	Usage Usage `json:"usage,omitzero"`
}

// Who decides a FollowUpCheck.
const (
	// FollowUpByPreCheck: a deterministic rule found that the reply asks
	// nothing (it has no question mark), so no model was asked.
	FollowUpByPreCheck = "pre-check"
	// FollowUpByModel: the follow-up detector's model decided.
	FollowUpByModel = "model"
)

// AbnormalFinish reports whether the model stopped writing the turn for a
// reason other than a natural end or a tool call: cut off by the token
// limit, filtered, or a reason Gavel does not know. A turn whose agent does
// not say (FinishReason empty) finished normally as far as anyone knows.
func (t Turn) AbnormalFinish() bool {
	switch t.FinishReason {
	case "", "stop", "tool_calls":
		return false
	}
	return true
}

// Origin says who wrote a user turn that the case did not spell out.
type Origin string

// The origins of user turns. The zero value is the case's own text.
const (
	// OriginFollowUp is an automatic answer to the agent's request for
	// clarification, from the case's hints or a model.
	OriginFollowUp Origin = "followup"
	// OriginSimulated is a simulated user's message, written by a model
	// playing a persona.
	OriginSimulated Origin = "simulated"
)

// Role says who spoke a turn.
type Role string

// The roles of a turn.
const (
	RoleUser   Role = "user"   // the user, real or simulated
	RoleAgent  Role = "agent"  // the agent under test
	RoleSystem Role = "system" // instructions given to the agent
	RoleEvent  Role = "event"  // a proactive event dispatched to the agent
)

// A ToolCall is one call of a tool by the agent.
type ToolCall struct {
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	Result    string          `json:"result,omitempty"`
	// IsError is true when the tool reported a failure (MCP's isError). It
	// is a failed call, not a crash of the agent.
	IsError  bool          `json:"is_error,omitempty"`
	Duration time.Duration `json:"duration_ns,omitempty"`
	// Injected, when set, says what fault Gavel injected into the call on
	// purpose (a suite's faults): "error", "protocol_error", "delay 30s",
	// "empty", "truncated". The result is then what the agent got, not
	// what the tool answered.
	Injected string `json:"injected,omitempty"`
	// Replayed, when set, says that the live server was not called: the
	// result is a recorded run's (ReplayRecorded, a suite's replay_tools),
	// or the recorded run made no such call and the suite refuses calls
	// it did not make (ReplayUnmatched: an error result that says so).
	Replayed string `json:"replayed,omitempty"`
}

// What a ToolCall's Replayed says.
const (
	// ReplayRecorded: the result is the one a recorded run got.
	ReplayRecorded = "recorded"
	// ReplayUnmatched: the recorded run made no such call, and the call
	// was refused with an error result that says so.
	ReplayUnmatched = "unmatched"
)

// A Revival marks that the session was closed and reopened, with the same
// id, before the turn at index BeforeTurn.
type Revival struct {
	BeforeTurn int       `json:"before_turn"`
	Time       time.Time `json:"time,omitzero"`
	// How says what was done to the agent, as its adapter tells it:
	// "session closed and reopened from its checkpoint", "agent restarted
	// by command between closing and reopening the session". Empty in
	// transcripts recorded before Gavel said.
	How string `json:"how,omitempty"`
}

// Description says how the session was revived, for reports: How, or for
// a transcript that does not say, that it was revived in a way not
// recorded.
func (r Revival) Description() string {
	if r.How == "" {
		return "session revived (how was not recorded)"
	}
	return r.How
}

// ExecStatus says how the execution of a trial ended.
type ExecStatus string

// The ways an execution ends. The zero value means unknown.
const (
	ExecSuccess   ExecStatus = "SUCCESS"
	ExecFailed    ExecStatus = "FAILED"
	ExecTimeout   ExecStatus = "TIMEOUT"
	ExecCancelled ExecStatus = "CANCELLED"
	ExecUnknown   ExecStatus = "UNKNOWN"
)

// Usage counts tokens and money.
type Usage struct {
	InputTokens  int64 `json:"input_tokens,omitempty"`
	OutputTokens int64 `json:"output_tokens,omitempty"`
	// CachedTokens is how many of InputTokens were read from the vendor's
	// prompt cache.
	CachedTokens int64   `json:"cached_tokens,omitempty"`
	CostUSD      float64 `json:"cost_usd,omitempty"`
	// Calls is how many model calls were made (0 when nobody counted
	// them: an agent that reports its own usage).
	Calls int64 `json:"calls,omitempty"`
	// CacheHits is how many of Calls Gavel's cache answered instead of
	// the model: they cost no tokens and no money.
	CacheHits int64 `json:"cache_hits,omitempty"`
	// Unpriced is true when some of the tokens were spent on a model
	// without a price: CostUSD then counts only the priced ones, a lower
	// bound of the true cost, and reports show it as such.
	Unpriced bool `json:"unpriced,omitempty"`
	// Unreported is true when some of what was spent was never reported:
	// an http or exec agent's reply that gave no token count, a
	// conversation imported without usage. The tokens and the cost then
	// count only what was reported, lower bounds, and reports show them
	// as such ("unreported" when nothing was): unknown is not 0. A
	// provider that reports 0 tokens reported 0.
	Unreported bool `json:"unreported,omitempty"`
}

// Add returns the sum of u and v. The sum is unpriced when either is,
// and unreported when either is. A count too large for an int64
// saturates at math.MaxInt64 ("at least that many"), never wraps around
// to a negative one: every sum of usage (a transcript's, a trial's, a
// run's, by role or model, what a budget is checked against) is made
// with Add.
func (u Usage) Add(v Usage) Usage {
	return Usage{
		InputTokens:  addCount(u.InputTokens, v.InputTokens),
		OutputTokens: addCount(u.OutputTokens, v.OutputTokens),
		CachedTokens: addCount(u.CachedTokens, v.CachedTokens),
		CostUSD:      u.CostUSD + v.CostUSD,
		Calls:        addCount(u.Calls, v.Calls),
		CacheHits:    addCount(u.CacheHits, v.CacheHits),
		Unpriced:     u.Unpriced || v.Unpriced,
		Unreported:   u.Unreported || v.Unreported,
	}
}

// Tokens returns input plus output tokens, saturating as Add does.
func (u Usage) Tokens() int64 { return addCount(u.InputTokens, u.OutputTokens) }

// addCount adds two counts, saturating at the int64 bounds: 2^62 + 2^62
// tokens wrapped around to a negative total, below any budget. It is
// llm's addCount (judge and llm import nothing of each other, so each
// keeps the four lines); TestUsageSumsSaturate holds both to one table.
func addCount(a, b int64) int64 {
	s := a + b
	switch {
	case a > 0 && b > 0 && s < 0:
		return math.MaxInt64
	case a < 0 && b < 0 && s >= 0:
		return math.MinInt64
	}
	return s
}

// Response returns the answer the case is judged on: FinalResponse, or the
// content of the last agent turn when FinalResponse is empty.
func (t *Transcript) Response() string {
	if t == nil {
		return ""
	}
	if t.FinalResponse != "" {
		return t.FinalResponse
	}
	for i := len(t.Turns) - 1; i >= 0; i-- {
		if t.Turns[i].Role == RoleAgent {
			return t.Turns[i].Content
		}
	}
	return ""
}

// AgentTurns returns the turns spoken by the agent, in order.
func (t *Transcript) AgentTurns() []Turn {
	if t == nil {
		return nil
	}
	var out []Turn
	for _, turn := range t.Turns {
		if turn.Role == RoleAgent {
			out = append(out, turn)
		}
	}
	return out
}

// ToolCalls returns every tool call of every turn, in order.
func (t *Transcript) ToolCalls() []ToolCall {
	if t == nil {
		return nil
	}
	var out []ToolCall
	for _, turn := range t.Turns {
		out = append(out, turn.ToolCalls...)
	}
	return out
}

// RoundCount returns the number of the last round that has turns: 0 when
// the conversation was not divided into rounds.
func (t *Transcript) RoundCount() int {
	if t == nil {
		return 0
	}
	n := 0
	for _, turn := range t.Turns {
		n = max(n, turn.Round)
	}
	return n
}

// Round returns the part of t that round n's judges judge: the turns of
// round n as Turns, everything before them as Context, and the revivals
// among them. Its Goal is the round's first message from the case (or t's
// Goal when a simulated user wrote them all), so LLM judges weigh the
// round's answer against the round's request; its Response is the round's
// last agent turn. Its Status is t's for the round where the execution
// ended and later ones, and SUCCESS for the rounds that completed before.
// Round returns a transcript with no turns when round n has none.
func (t *Transcript) Round(n int) *Transcript {
	if t == nil {
		return nil
	}
	start, end := len(t.Turns), len(t.Turns)
	for i, turn := range t.Turns {
		if turn.Round == n {
			start = min(start, i)
			end = i + 1
		}
	}
	r := *t
	r.FinalResponse, r.Usage, r.Revivals = "", Usage{}, nil
	r.Context = append(slices.Clip(t.Context), t.Turns[:start]...)
	r.Turns = t.Turns[start:end:end]
	if start == len(t.Turns) {
		r.Turns = nil
	}
	for _, rv := range t.Revivals {
		if rv.BeforeTurn >= start && rv.BeforeTurn < end {
			rv.BeforeTurn -= start
			r.Revivals = append(r.Revivals, rv)
		}
	}
	goalFound := false
	for _, turn := range r.Turns {
		r.Usage = r.Usage.Add(turn.Usage)
		if turn.Role == RoleUser && turn.Origin == "" && !goalFound {
			r.Goal, goalFound = turn.Content, true
		}
	}
	if n < t.RoundCount() {
		r.Status, r.Error = ExecSuccess, ""
	}
	return &r
}

// WorkspacePath resolves p against the transcript's workspace: an absolute
// p is returned cleaned, a relative one is joined to Workspace. It reports
// false when p is relative and there is no workspace (or no transcript).
// A p that climbs out of the workspace with ".." is allowed: the case's
// author wrote it.
func (t *Transcript) WorkspacePath(p string) (string, bool) {
	if filepath.IsAbs(p) {
		return filepath.Clean(p), true
	}
	if t == nil || t.Workspace == "" {
		return "", false
	}
	return filepath.Join(t.Workspace, p), true
}

// IsEmpty reports whether there is nothing to judge: no transcript, or one
// with no turns and no final response.
func (t *Transcript) IsEmpty() bool {
	return t == nil || (len(t.Turns) == 0 && strings.TrimSpace(t.FinalResponse) == "")
}
