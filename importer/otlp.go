package importer

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
)

// The OTLP JSON encoding (ExportTraceServiceRequest), as far as it is
// read: resource spans, scope spans, spans, their attributes and events.
type (
	otlpRequest struct {
		ResourceSpans []otlpResourceSpans `json:"resourceSpans"`
	}
	otlpResourceSpans struct {
		Resource struct {
			Attributes []otlpKeyValue `json:"attributes"`
		} `json:"resource"`
		ScopeSpans []struct {
			Spans []otlpSpan `json:"spans"`
		} `json:"scopeSpans"`
	}
	otlpSpan struct {
		TraceID    string         `json:"traceId"`
		SpanID     string         `json:"spanId"`
		Name       string         `json:"name"`
		Start      otlpTime       `json:"startTimeUnixNano"`
		End        otlpTime       `json:"endTimeUnixNano"`
		Attributes []otlpKeyValue `json:"attributes"`
		Events     []struct {
			Time       otlpTime       `json:"timeUnixNano"`
			Name       string         `json:"name"`
			Attributes []otlpKeyValue `json:"attributes"`
		} `json:"events"`
		Status struct {
			Code    json.RawMessage `json:"code"`
			Message string          `json:"message"`
		} `json:"status"`
	}
	otlpKeyValue struct {
		Key   string    `json:"key"`
		Value otlpValue `json:"value"`
	}
	// otlpValue is an AnyValue: one of its members is set.
	otlpValue struct {
		String *string          `json:"stringValue"`
		Int    *json.RawMessage `json:"intValue"` // a string in OTLP JSON, a number from some writers
		Double *float64         `json:"doubleValue"`
		Bool   *bool            `json:"boolValue"`
		Array  *struct {
			Values []otlpValue `json:"values"`
		} `json:"arrayValue"`
		KVList *struct {
			Values []otlpKeyValue `json:"values"`
		} `json:"kvlistValue"`
	}
	// otlpTime is nanoseconds since the epoch: a string in OTLP JSON, a
	// number from some writers.
	otlpTime int64
)

func (t *otlpTime) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	if s == "" || s == "null" {
		return nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return fmt.Errorf("a time is nanoseconds since the epoch, got %s", b)
	}
	*t = otlpTime(n)
	return nil
}

func (t otlpTime) time() time.Time {
	if t == 0 {
		return time.Time{}
	}
	return time.Unix(0, int64(t)).UTC()
}

// text is the value as text: a string as it is, a number or a boolean
// written out, a list or map as JSON.
func (v otlpValue) text() string {
	switch {
	case v.String != nil:
		return *v.String
	case v.Int != nil:
		return strings.Trim(string(*v.Int), `"`)
	case v.Double != nil:
		return strconv.FormatFloat(*v.Double, 'f', -1, 64)
	case v.Bool != nil:
		return strconv.FormatBool(*v.Bool)
	}
	b, _ := json.Marshal(v.plain())
	return string(b)
}

// plain is the value as plain Go values, for JSON.
func (v otlpValue) plain() any {
	switch {
	case v.Array != nil:
		out := make([]any, len(v.Array.Values))
		for i, e := range v.Array.Values {
			out[i] = e.plain()
		}
		return out
	case v.KVList != nil:
		out := map[string]any{}
		for _, kv := range v.KVList.Values {
			out[kv.Key] = kv.Value.plain()
		}
		return out
	case v.Int != nil:
		n, _ := strconv.ParseInt(v.text(), 10, 64)
		return n
	case v.Double != nil:
		return *v.Double
	case v.Bool != nil:
		return *v.Bool
	case v.String != nil:
		return *v.String
	}
	return nil
}

// attrs is a span's attributes by key.
type attrs map[string]otlpValue

func attrsOf(kvs []otlpKeyValue) attrs {
	a := attrs{}
	for _, kv := range kvs {
		a[kv.Key] = kv.Value
	}
	return a
}

func (a attrs) str(key string) string {
	if v, ok := a[key]; ok {
		return v.text()
	}
	return ""
}

// count reads a token count attribute as the providers read a vendor's
// (llm.ReadCount): 0 when absent, a problem when it is not a count a call
// can spend (a negative one, one beyond MaxTokenCount, text).
func (a attrs) count(key string) (int64, string) {
	v, ok := a[key]
	if !ok {
		return 0, ""
	}
	raw := json.RawMessage(v.text()) // an intValue's or doubleValue's digits
	if v.Int == nil && v.Double == nil {
		raw, _ = json.Marshal(v.text())
	}
	return llm.ReadCount(raw)
}

// genAI reports whether any attribute is a gen_ai.* one.
func (a attrs) genAI() bool {
	for k := range a {
		if strings.HasPrefix(k, "gen_ai.") {
			return true
		}
	}
	return false
}

// A span is one span read, with where it is.
type span struct {
	otlpSpan
	attrs    attrs
	resource attrs
	path     string // its JSON path, for problems
	line     int    // the line its request starts on (JSON Lines files), else 0
	order    int
}

func (s *span) operation() string { return s.attrs.str("gen_ai.operation.name") }

// usage is what the span's gen_ai.usage attributes count, or the problems
// of the counts that no call can have, at the attribute, naming the
// conversation (key) of file path the span is in.
func (s *span) usage(path, key string) (judge.Usage, Problems) {
	var u judge.Usage
	var problems Problems
	for _, c := range []struct {
		attr string
		dst  *int64
	}{
		{"gen_ai.usage.input_tokens", &u.InputTokens},
		{"gen_ai.usage.output_tokens", &u.OutputTokens},
	} {
		var problem string
		if *c.dst, problem = s.attrs.count(c.attr); problem != "" {
			problems = append(problems, Problem{File: path, Line: s.line, Path: s.path + ".attributes[" + c.attr + "]", Message: key + ": " + problem})
		}
	}
	return u, problems
}

func (s *span) failed() bool {
	code := strings.Trim(string(s.Status.Code), `"`)
	return code == "2" || code == "STATUS_CODE_ERROR" || s.attrs.str("error.type") != ""
}

// readOTLP reads OTLP JSON: one ExportTraceServiceRequest, or several one
// after another (the collector's file exporter writes one a line).
func readOTLP(path string, data []byte) ([]Case, Problems) {
	var spans []*span
	var problems Problems
	dec := json.NewDecoder(bytes.NewReader(data))
	requests := 0
	for {
		var req otlpRequest
		offset := dec.InputOffset()
		err := dec.Decode(&req)
		if errors.Is(err, io.EOF) {
			break
		}
		start := lineAt(data, offset+int64(len(data[offset:])-len(bytes.TrimLeft(data[offset:], " \t\r\n"))))
		if err != nil {
			line, msg := jsonProblem(data, 0, err)
			problems = append(problems, Problem{File: path, Line: line, Message: msg})
			break
		}
		requests++
		prefix := ""
		if requests > 1 || dec.More() {
			prefix = fmt.Sprintf("request %d: ", requests)
		}
		for i, rs := range req.ResourceSpans {
			resource := attrsOf(rs.Resource.Attributes)
			for j, ss := range rs.ScopeSpans {
				for k, s := range ss.Spans {
					sp := &span{otlpSpan: s, attrs: attrsOf(s.Attributes), resource: resource, order: len(spans),
						path: fmt.Sprintf("%sresourceSpans[%d].scopeSpans[%d].spans[%d]", prefix, i, j, k)}
					if requests > 1 || dec.More() {
						sp.line = start
					}
					spans = append(spans, sp)
				}
			}
		}
	}
	if len(problems) > 0 {
		return nil, problems
	}

	// Conversations: by gen_ai.conversation.id, else by trace; only
	// spans with gen_ai attributes count.
	groups := map[string][]*span{}
	var keys []string
	for _, s := range spans {
		if !s.attrs.genAI() {
			continue
		}
		if s.TraceID == "" {
			problems = append(problems, Problem{File: path, Line: s.line, Path: s.path + ".traceId", Message: "the span has no trace id"})
			continue
		}
		key := "trace " + s.TraceID
		if c := s.attrs.str("gen_ai.conversation.id"); c != "" {
			key = "conversation " + c
		}
		if groups[key] == nil {
			keys = append(keys, key)
		}
		groups[key] = append(groups[key], s)
	}
	// A trace whose spans name a conversation on some spans only joins it.
	for _, key := range keys {
		if !strings.HasPrefix(key, "conversation ") {
			continue
		}
		for _, s := range groups[key] {
			if other := "trace " + s.TraceID; groups[other] != nil {
				groups[key] = append(groups[key], groups[other]...)
				delete(groups, other)
			}
		}
	}
	var cases []Case
	for _, key := range keys {
		g := groups[key]
		if g == nil {
			continue
		}
		slices.SortStableFunc(g, func(a, b *span) int { return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.order, b.order)) })
		c, ps := otlpCase(path, key, g)
		problems = append(problems, ps...)
		if len(ps) == 0 {
			cases = append(cases, c)
		}
	}
	return cases, problems
}

// A message is one message of a conversation, whatever format said it.
type message struct {
	role    string // system, user, assistant, tool
	text    string
	calls   []judge.ToolCall
	results []toolResult
}

type toolResult struct {
	id, name, text string
	isError        bool
}

// otlpCase makes one conversation of a group of spans, in time order.
func otlpCase(path, key string, spans []*span) (Case, Problems) {
	var problems Problems
	var msgs []message
	// outputs[i] is the index in msgs of chat span i's first output, and
	// its usage and end: to give a turn its usage, and tool spans without
	// a call in the messages their turn.
	type output struct {
		at    int
		usage judge.Usage
		end   otlpTime
	}
	var outputs []output
	// made[i] is when msgs[i] was said: the end of the model call whose
	// output it was, or the start of the first whose input it was in.
	var made []otlpTime
	var tools []*span
	var usageTotal, agentUsage judge.Usage
	meta := map[string]string{}
	var started, ended otlpTime
	status, errText := judge.ExecSuccess, ""
	for _, s := range spans {
		if started == 0 || (s.Start != 0 && s.Start < started) {
			started = s.Start
		}
		ended = max(ended, s.End)
		for _, kv := range []struct{ meta, attr string }{
			{"trace_id", ""}, {"conversation_id", "gen_ai.conversation.id"}, {"agent", "gen_ai.agent.name"},
			{"model", "gen_ai.request.model"}, {"provider", "gen_ai.provider.name"}, {"provider", "gen_ai.system"},
			{"case_id", "gavel.case_id"}, {"case_id", "case_id"},
		} {
			v := s.attrs.str(kv.attr)
			if kv.attr == "" {
				v = s.TraceID
			}
			if v != "" && meta[kv.meta] == "" {
				meta[kv.meta] = v
			}
		}
		if v := s.resource.str("service.name"); v != "" && meta["service"] == "" {
			meta["service"] = v
		}
		op := s.operation()
		if op == "execute_tool" || (op == "" && s.attrs.str("gen_ai.tool.name") != "") {
			tools = append(tools, s)
			continue
		}
		if s.failed() && (op == "invoke_agent" || op == "chat" || op == "text_completion" || op == "generate_content") {
			status, errText = judge.ExecFailed, cmp.Or(s.Status.Message, s.attrs.str("error.type"), "the span's status is ERROR")
		}
		u, ps := s.usage(path, key)
		if len(ps) > 0 {
			problems = append(problems, ps...)
			continue
		}
		if op == "invoke_agent" || op == "create_agent" {
			agentUsage = agentUsage.Add(u)
			continue
		}
		in, out, ps := spanMessages(path, s)
		problems = append(problems, ps...)
		if u != (judge.Usage{}) {
			u.Calls = 1
		}
		usageTotal = usageTotal.Add(u)
		msgs = appendHistory(msgs, in)
		made = stamp(made, len(msgs), s.Start)
		outputs = append(outputs, output{at: len(msgs), usage: u, end: s.End})
		msgs = append(msgs, out...)
		made = stamp(made, len(msgs), s.End)
	}
	if len(problems) > 0 {
		return Case{}, problems
	}
	first := spans[0]
	source := fmt.Sprintf("%s (%s)", path, key)
	meta["source"] = source

	// Turns from the messages, remembering which turn each message went
	// into.
	t := &judge.Transcript{Metadata: meta, Status: status, Error: errText, Started: started.time()}
	if ended > started && started > 0 {
		t.Duration = time.Duration(ended - started)
	}
	turnOf := make([]int, len(msgs)+1)
	answers := answered{}
	callMade := map[callRef]otlpTime{}
	for i, m := range msgs {
		refs, err := addMessage(t, answers, m)
		if err != nil {
			problems = append(problems, Problem{File: path, Line: first.line, Path: first.path, Message: fmt.Sprintf("%s: message %d: %v", key, i+1, err)})
		}
		for _, ref := range refs {
			callMade[ref] = made[i]
		}
		turnOf[i] = len(t.Turns) - 1
	}
	turnOf[len(msgs)] = len(t.Turns) - 1
	if len(problems) > 0 {
		return Case{}, problems
	}
	for _, o := range outputs {
		if o.at < len(msgs) && turnOf[o.at] >= 0 && t.Turns[turnOf[o.at]].Role == judge.RoleAgent {
			turn := &t.Turns[turnOf[o.at]]
			turn.Usage = turn.Usage.Add(o.usage)
		}
	}
	// Tool spans: their results, errors and durations go to the call of
	// the same id they ran for (spanCall); a call the messages did not
	// hold joins the reply of the model call that ended before it
	// started.
	spanned := answered{}
	for _, s := range tools {
		call := judge.ToolCall{ID: s.attrs.str("gen_ai.tool.call.id"), Name: s.attrs.str("gen_ai.tool.name"),
			Result: s.attrs.str("gen_ai.tool.call.result"), IsError: s.failed()}
		if s.End > s.Start && s.Start > 0 {
			call.Duration = time.Duration(s.End - s.Start)
		}
		if raw := s.attrs.str("gen_ai.tool.call.arguments"); raw != "" {
			args, err := arguments(json.RawMessage(strconv.Quote(raw)))
			if err != nil {
				problems = append(problems, Problem{File: path, Line: s.line, Path: s.path + ".attributes[gen_ai.tool.call.arguments]", Message: err.Error()})
				continue
			}
			call.Arguments = args
		}
		if call.IsError && call.Result == "" {
			call.Result = s.Status.Message
		}
		if c := spanCall(t, spanned, callMade, call.ID, s.Start); c != nil {
			c.Result = cmp.Or(c.Result, call.Result)
			c.IsError = c.IsError || call.IsError
			c.Duration = call.Duration
			if len(c.Arguments) == 0 {
				c.Arguments = call.Arguments
			}
			continue
		}
		if call.Name == "" {
			problems = append(problems, Problem{File: path, Line: s.line, Path: s.path + ".attributes", Message: "an execute_tool span needs gen_ai.tool.name"})
			continue
		}
		turn := -1
		for _, o := range outputs {
			if o.end <= s.Start && turnOf[min(o.at, len(msgs))] >= 0 {
				turn = turnOf[min(o.at, len(msgs))]
			}
		}
		if turn < 0 || t.Turns[turn].Role != judge.RoleAgent {
			t.Turns = append(t.Turns, judge.Turn{Role: judge.RoleAgent})
			turn = len(t.Turns) - 1
			outputs = append(outputs, output{at: len(msgs), end: s.Start})
			turnOf[len(msgs)] = turn
		}
		spanned[callRef{turn, len(t.Turns[turn].ToolCalls)}] = true
		t.Turns[turn].ToolCalls = append(t.Turns[turn].ToolCalls, call)
	}
	if len(problems) > 0 {
		return Case{}, problems
	}
	if len(t.Turns) == 0 {
		return Case{}, Problems{{File: path, Line: first.line, Path: first.path, Message: fmt.Sprintf(
			"%s: its GenAI spans hold no messages and no tool calls: record message content (gen_ai.input.messages and gen_ai.output.messages; in the instrumentations, OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true)", key)}}
	}
	id := cmp.Or(meta["case_id"], meta["conversation_id"], meta["trace_id"])
	finish(t, id)
	t.Usage = usageTotal
	if t.Usage == (judge.Usage{}) {
		t.Usage = agentUsage // the model calls had no spans of their own
	}
	return Case{ID: id, Metadata: meta, Source: source, Trials: []gavel.Trial{trialOf(t, source+" (otlp)")}}, nil
}

// stamp gives the messages from len(made) up to n the time at.
func stamp(made []otlpTime, n int, at otlpTime) []otlpTime {
	for len(made) < n {
		made = append(made, at)
	}
	return made
}

// spanCall returns the call a tool span of the call id, started at
// start, ran for: the latest call of the id made before the span started
// that no other span ran for (an id may be reused: see answered), else,
// when the clocks disagree, the first that none ran for; nil when every
// call of the id has its span, or id is "".
func spanCall(t *judge.Transcript, spanned answered, made map[callRef]otlpTime, id string, start otlpTime) *judge.ToolCall {
	if id == "" {
		return nil
	}
	refs := spanned.waiting(t, 0, func(c judge.ToolCall) bool { return c.ID == id })
	if len(refs) == 0 {
		return nil
	}
	pick := refs[0]
	for _, ref := range refs {
		if made[ref] <= start {
			pick = ref
		}
	}
	return spanned.answer(t, pick)
}

// appendHistory adds a model call's input to the conversation so far:
// an input that repeats the conversation (a chat call sends the history)
// adds only what is new; any other input is added whole.
func appendHistory(msgs, in []message) []message {
	if len(in) >= len(msgs) && reflect.DeepEqual(in[:len(msgs)], msgs) {
		return append(msgs, in[len(msgs):]...)
	}
	// The history may leave out the system message, or start later: add
	// what follows the longest tail of msgs that in starts with.
	for k := min(len(msgs), len(in)); k > 0; k-- {
		if reflect.DeepEqual(msgs[len(msgs)-k:], in[:k]) {
			return append(msgs, in[k:]...)
		}
	}
	return append(msgs, in...)
}

// addMessage adds one message to a transcript: the way OpenAI's format
// is read (an assistant's messages up to the next user message are one
// reply, tool results go to their calls: see answered). It returns the
// places of the calls it added.
func addMessage(t *judge.Transcript, answers answered, m message) ([]callRef, error) {
	var added []callRef
	switch m.role {
	case "system", "developer":
		t.Turns = append(t.Turns, judge.Turn{Role: judge.RoleSystem, Content: m.text})
	case "user", "human":
		if m.text != "" || len(m.results) == 0 {
			t.Turns = append(t.Turns, judge.Turn{Role: judge.RoleUser, Content: m.text})
		}
	case "assistant", "model", "ai":
		last := len(t.Turns) - 1
		if last >= 0 && t.Turns[last].Role == judge.RoleAgent {
			turn := &t.Turns[last]
			turn.Content = joinText(turn.Content, m.text)
		} else {
			t.Turns = append(t.Turns, judge.Turn{Role: judge.RoleAgent, Content: m.text})
			last++
		}
		for range m.calls {
			added = append(added, callRef{last, len(t.Turns[last].ToolCalls) + len(added)})
		}
		t.Turns[last].ToolCalls = append(t.Turns[last].ToolCalls, m.calls...)
	case "tool":
	default:
		return nil, fmt.Errorf("unknown role %q: want system, user, assistant or tool", m.role)
	}
	for _, r := range m.results {
		c, err := resultCall(t, answers, r)
		if err != nil {
			return added, err
		}
		c.Result, c.IsError = r.text, c.IsError || r.isError || errorResult(r.text)
	}
	return added, nil
}

// resultCall returns the call a tool result answers: the latest call of
// its id still waiting for one, or, for a result without an id, the
// first call of the last turn still waiting (by name, when it says).
func resultCall(t *judge.Transcript, answers answered, r toolResult) (*judge.ToolCall, error) {
	if r.id != "" {
		c := answers.latest(t, 0, r.id)
		if c == nil && hasID(t, 0, r.id) {
			return nil, fmt.Errorf("a second tool result for call %q: every call of that id before it has its result already", r.id)
		}
		if c == nil {
			return nil, fmt.Errorf("a tool result for call %q, which no assistant message before it made", r.id)
		}
		return c, nil
	}
	if last := len(t.Turns) - 1; last >= 0 {
		if refs := answers.waiting(t, last, named(r.name)); len(refs) > 0 {
			return answers.answer(t, refs[0]), nil
		}
	}
	return nil, fmt.Errorf("a tool result for call %q, which no assistant message before it made", r.id)
}

// spanMessages reads a model call's messages: gen_ai.input.messages and
// gen_ai.output.messages (and gen_ai.system_instructions), or the older
// span events (gen_ai.system.message, gen_ai.user.message,
// gen_ai.assistant.message, gen_ai.tool.message, gen_ai.choice).
func spanMessages(path string, s *span) (in, out []message, problems Problems) {
	problem := func(p string, err error) {
		problems = append(problems, Problem{File: path, Line: s.line, Path: s.path + p, Message: err.Error()})
	}
	if raw := s.attrs.str("gen_ai.system_instructions"); raw != "" {
		var parts []otelPart
		if err := json.Unmarshal([]byte(raw), &parts); err != nil {
			problem(".attributes[gen_ai.system_instructions]", fmt.Errorf("want a JSON list of parts ([{\"type\": \"text\", \"content\": ...}]): %v", err))
		} else {
			m, _ := otelMessage{Role: "system", Parts: parts}.message()
			in = append(in, m)
		}
	}
	for _, a := range []struct {
		key string
		to  *[]message
	}{{"gen_ai.input.messages", &in}, {"gen_ai.output.messages", &out}} {
		raw := s.attrs.str(a.key)
		if raw == "" {
			continue
		}
		var ms []otelMessage
		if err := json.Unmarshal([]byte(raw), &ms); err != nil {
			problem(".attributes["+a.key+"]", fmt.Errorf("want a JSON list of messages ([{\"role\": ..., \"parts\": [...]}]): %v", err))
			continue
		}
		for i, om := range ms {
			m, err := om.message()
			if err != nil {
				problem(fmt.Sprintf(".attributes[%s][%d]", a.key, i), err)
				continue
			}
			*a.to = append(*a.to, m)
		}
	}
	if len(in)+len(out) > 0 {
		return in, out, problems
	}
	for i, e := range s.Events {
		ea := attrsOf(e.Attributes)
		p := fmt.Sprintf(".events[%d]", i)
		role, isMessage := strings.CutPrefix(e.Name, "gen_ai.")
		role, isMessage = strings.CutSuffix(role, ".message")
		if !isMessage && e.Name != "gen_ai.choice" {
			continue
		}
		body := map[string]json.RawMessage{}
		if raw := ea.str("gen_ai.event.content"); raw != "" {
			if err := json.Unmarshal([]byte(raw), &body); err != nil {
				problem(p+".attributes[gen_ai.event.content]", fmt.Errorf("want a JSON object: %v", err))
				continue
			}
		}
		for k, v := range ea {
			if _, ok := body[k]; !ok && !strings.HasPrefix(k, "gen_ai.") {
				if v.String != nil && (k == "message" || k == "tool_calls") {
					body[k] = json.RawMessage(*v.String)
				} else {
					b, _ := json.Marshal(v.plain())
					body[k] = b
				}
			}
		}
		if e.Name == "gen_ai.choice" {
			role = "assistant"
			if msg, ok := body["message"]; ok {
				var inner map[string]json.RawMessage
				if err := json.Unmarshal(msg, &inner); err != nil {
					problem(p, fmt.Errorf("message: want a JSON object: %v", err))
					continue
				}
				body = inner
			}
		}
		m, err := eventMessage(role, body)
		if err != nil {
			problem(p, err)
			continue
		}
		if e.Name == "gen_ai.choice" {
			out = append(out, m)
		} else {
			in = append(in, m)
		}
	}
	return in, out, problems
}

// eventMessage reads an event's body: content, tool_calls (OpenAI's
// shape), id (a tool message's call).
func eventMessage(role string, body map[string]json.RawMessage) (message, error) {
	m := message{role: role}
	text, err := openAIText(body["content"])
	if err != nil {
		return m, err
	}
	if r, ok := body["role"]; ok {
		_ = json.Unmarshal(r, &m.role)
	}
	if m.role == "tool" {
		var id string
		_ = json.Unmarshal(body["id"], &id)
		m.results = []toolResult{{id: id, text: text}}
		return m, nil
	}
	m.text = text
	if raw, ok := body["tool_calls"]; ok {
		var calls []openAIToolCall
		if err := json.Unmarshal(raw, &calls); err != nil {
			return m, fmt.Errorf("tool_calls: want a list of {id, type, function: {name, arguments}}: %v", err)
		}
		for _, c := range calls {
			args, err := arguments(c.Function.Arguments)
			if err != nil {
				return m, fmt.Errorf("tool_calls: %s: %v", c.Function.Name, err)
			}
			m.calls = append(m.calls, judge.ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: args})
		}
	}
	return m, nil
}

// otelMessage is a message of gen_ai.input.messages and
// gen_ai.output.messages: a role and parts.
type otelMessage struct {
	Role  string     `json:"role"`
	Parts []otelPart `json:"parts"`
}

// otelPart is one part: text (content), tool_call (id, name, arguments),
// tool_call_response (id, response); others (reasoning, blob, uri) are
// left out.
type otelPart struct {
	Type      string          `json:"type"`
	Content   json.RawMessage `json:"content"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Response  json.RawMessage `json:"response"`
	Result    json.RawMessage `json:"result"`
}

func (om otelMessage) message() (message, error) {
	m := message{role: om.Role}
	if om.Role == "" {
		return m, errors.New("a message needs a role")
	}
	var texts []string
	for i, p := range om.Parts {
		switch p.Type {
		case "text":
			s, err := openAIText(p.Content)
			if err != nil {
				return m, fmt.Errorf("parts[%d].content: want a string", i)
			}
			texts = append(texts, s)
		case "tool_call":
			if p.Name == "" {
				return m, fmt.Errorf("parts[%d]: a tool_call part needs a name", i)
			}
			args, err := arguments(p.Arguments)
			if err != nil {
				return m, fmt.Errorf("parts[%d].arguments: %v", i, err)
			}
			m.calls = append(m.calls, judge.ToolCall{ID: p.ID, Name: p.Name, Arguments: args})
		case "tool_call_response":
			raw := p.Response
			if len(raw) == 0 {
				raw = p.Result
			}
			m.results = append(m.results, toolResult{id: p.ID, name: p.Name, text: metaString(raw)})
		}
	}
	m.text = strings.Join(texts, "\n")
	return m, nil
}
