package llmjudge

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"
	"text/template"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/llm"
)

//go:embed prompts/*.tmpl
var promptFS embed.FS

// PromptData is what a prompt template sees. Every field that carries text
// from the case, the agent or a tool is already fenced (see the package
// documentation), so a template cannot forget to; a field a judge does not
// use is empty.
type PromptData struct {
	// Goal is the user's request: the transcript's Goal, or its first
	// user turn. FollowUp: the original request.
	Goal string
	// Response is the agent's response judged (judge.Transcript.Response).
	// FollowUp: the reply examined.
	Response string
	// Criteria is what the response is judged against: Rubric's and
	// Pairwise's criteria, Criteria's axes with their descriptions.
	Criteria string
	// Axes are the names of Criteria's axes, in order. They are
	// identifiers (see Axis), safe to show unfenced.
	Axes []string
	// Traits are the traits Traits expects, one per line.
	Traits string
	// Expected is what accomplishing the goal looks like (Correctness),
	// when the case says.
	Expected string
	// Transcript is the whole conversation (Correctness): every message
	// and every tool call, each piece fenced on its own.
	Transcript string
	// ResponseA and ResponseB are the responses Pairwise compares, in the
	// order shown.
	ResponseA, ResponseB string
	// History is the conversation before the request judged (the
	// transcript's Context: earlier rounds), every turn fenced; empty when
	// there was none.
	History string
	// Findings are what deterministic checks noticed (see
	// judge.FindingsFrom), one per line; empty when there are none.
	Findings string
}

// inputs lists the text fields of d by their template names.
func (d PromptData) inputs() []struct{ name, value string } {
	return []struct{ name, value string }{
		{".Goal", d.Goal}, {".Response", d.Response}, {".Criteria", d.Criteria},
		{".Traits", d.Traits}, {".Expected", d.Expected}, {".Transcript", d.Transcript},
		{".ResponseA", d.ResponseA}, {".ResponseB", d.ResponseB}, {".Findings", d.Findings},
		{".History", d.History},
	}
}

// A prompt is a judge's parsed template.
type prompt struct {
	t *template.Template
	// version is a short hash of the template's text, the shared
	// templates' included, and of the examples when there are any:
	// judge.Judgment.Prompt of the judgments made with it, so that labels
	// can be told apart by prompt version.
	version string
	// examples is the judge's examples, rendered: the end of the system
	// message.
	examples string
}

// newPrompt parses the template of a judge of the given kind: override
// when set, else the embedded prompts/<kind>.tmpl, after the shared
// prompts/common.tmpl, and renders the judge's examples, which end the
// system message whatever the template. It checks that it renders sample,
// a PromptData with every input the judge fills in, and that every input
// shows.
//
// The check runs once per kind and template: a template that shows every
// input of one sample shows every input of another, and a suite of a
// hundred thousand cases builds as many judges.
func newPrompt(kind, override string, examples []Example, sample PromptData) (*prompt, error) {
	root, err := parsedTemplate(kind, override)
	if err != nil {
		return nil, err
	}
	block, err := examplesBlock(examples)
	if err != nil {
		return nil, fmt.Errorf("examples: %w", err)
	}
	key := kind + "\x00" + override
	if v, ok := checked.Load(key); ok {
		return &prompt{t: root, version: withExamples(v.(string), block), examples: block}, nil
	}
	version, err := promptVersion(kind, override)
	if err != nil {
		return nil, err
	}
	p := &prompt{t: root, version: version, examples: block}
	msgs, err := p.render(sample)
	if err != nil {
		return nil, fmt.Errorf("the prompt template does not render a sample: %w", err)
	}
	shown := msgs[0].Content + "\n" + msgs[1].Content
	for _, in := range sample.inputs() {
		if in.value != "" && !strings.Contains(shown, in.value) {
			return nil, fmt.Errorf("the prompt template does not show {{%s}}: a judge must see every input it is given", in.name)
		}
	}
	checked.Store(key, version)
	p.version = withExamples(version, block)
	return p, nil
}

// withExamples is the version of a template's prompt given examples:
// the template's version, or with examples a short hash of both, so that
// the judgments of a judge given examples are told apart from those of
// the same judge without them (gavel calibrate --prompt-version).
func withExamples(version, examples string) string {
	if examples == "" {
		return version
	}
	h := sha256.New()
	h.Write([]byte(version))
	h.Write([]byte{0})
	h.Write([]byte(examples))
	return hex.EncodeToString(h.Sum(nil))[:12]
}

// checked holds the templates newPrompt has checked, by kind and
// override, with their versions.
var checked sync.Map

// promptVersion is a short hash (12 hex digits of SHA-256) of the
// shared templates and the judge's: the override when set, else the
// embedded prompts/<kind>.tmpl.
func promptVersion(kind, override string) (string, error) {
	common, err := promptFS.ReadFile("prompts/common.tmpl")
	if err != nil {
		return "", err
	}
	text := []byte(override)
	if override == "" {
		if text, err = promptFS.ReadFile("prompts/" + kind + ".tmpl"); err != nil {
			return "", err
		}
	}
	h := sha256.New()
	h.Write(common)
	h.Write([]byte{0})
	h.Write(text)
	return hex.EncodeToString(h.Sum(nil))[:12], nil
}

// parsed holds each template parsed once, by kind and override: a suite
// of a thousand judges of one kind shares one. Parsed templates are safe
// for concurrent use.
var parsed sync.Map // kind + "\x00" + override → parseResult

type parseResult struct {
	t   *template.Template
	err error
}

// parsedTemplate parses a judge's template, once per kind and override.
func parsedTemplate(kind, override string) (*template.Template, error) {
	key := kind + "\x00" + override
	if r, ok := parsed.Load(key); ok {
		return r.(parseResult).t, r.(parseResult).err
	}
	t, err := parseTemplate(kind, override)
	parsed.Store(key, parseResult{t, err})
	return t, err
}

func parseTemplate(kind, override string) (*template.Template, error) {
	common, err := promptFS.ReadFile("prompts/common.tmpl")
	if err != nil {
		return nil, err
	}
	text := override
	if text == "" {
		b, err := promptFS.ReadFile("prompts/" + kind + ".tmpl")
		if err != nil {
			return nil, err
		}
		text = string(b)
	}
	root, err := template.New("common").Parse(string(common))
	if err != nil {
		return nil, fmt.Errorf("parse the shared prompt templates: %w", err)
	}
	if _, err := root.New(kind).Parse(text); err != nil {
		return nil, fmt.Errorf("parse the prompt template: %w", err)
	}
	for _, name := range []string{"system", "user"} {
		if root.Lookup(name) == nil {
			return nil, fmt.Errorf(`the prompt template defines no %q template: it must define both {{define "system"}} and {{define "user"}}`, name)
		}
	}
	return root, nil
}

// render returns the system and user messages for d, the judge's
// examples at the end of the system message.
func (p *prompt) render(d PromptData) ([]llm.Message, error) {
	var msgs []llm.Message
	for _, m := range []struct {
		template string
		role     llm.Role
	}{{"system", llm.RoleSystem}, {"user", llm.RoleUser}} {
		var b strings.Builder
		if err := p.t.ExecuteTemplate(&b, m.template, d); err != nil {
			return nil, err
		}
		text := strings.TrimSpace(b.String())
		if text == "" {
			return nil, fmt.Errorf("the %q template renders nothing", m.template)
		}
		if m.role == llm.RoleSystem && p.examples != "" {
			text += "\n\n" + p.examples
		}
		msgs = append(msgs, llm.Message{Role: m.role, Content: text})
	}
	return msgs, nil
}

// findingsBlock fences findings one per line, or returns "" when there
// are none.
func findingsBlock(fs []judge.Finding) string {
	if len(fs) == 0 {
		return ""
	}
	lines := make([]string, len(fs))
	for i, f := range fs {
		lines[i] = "- " + f.String()
	}
	return fence("findings", strings.Join(lines, "\n"))
}

// goalOf returns what the user asked: the transcript's goal, or its first
// user turn.
func goalOf(t *judge.Transcript) string {
	if t == nil {
		return ""
	}
	if t.Goal != "" {
		return t.Goal
	}
	for _, turn := range t.Turns {
		if turn.Role == judge.RoleUser {
			return turn.Content
		}
	}
	return ""
}

// historyOf renders t's Context for a judge, or returns "" when there is
// none. Tool arguments and results are cut shorter than in the judged
// turns: they are background.
func historyOf(t *judge.Transcript) string {
	if t == nil || len(t.Context) == 0 {
		return ""
	}
	return renderTurns(t.Context, nil, 1000)
}

// sampleTranscript is what a prompt template is checked against when a
// judge is built: it gives every input a judge can show.
var sampleTranscript = &judge.Transcript{
	Goal: "where's my order #12345?",
	Context: []judge.Turn{
		{Role: judge.RoleUser, Content: "hi, I have a question about an order", Round: 1},
		{Role: judge.RoleAgent, Content: "Sure, what would you like to know?", Round: 1},
	},
	Turns: []judge.Turn{
		{Role: judge.RoleUser, Content: "where's my order #12345?"},
		{Role: judge.RoleAgent, Content: "Order 12345 shipped and arrives on 2026-03-15.", ToolCalls: []judge.ToolCall{
			{Name: "get_order_status", Arguments: []byte(`{"order_id":"12345"}`), Result: `{"status":"shipped","eta":"2026-03-15"}`},
		}},
	},
}

// sampleFindings are the findings a prompt template is checked with.
var sampleFindings = []judge.Finding{{Judge: "max_bubbles 2", Message: "turn 2 has 3 bubble(s), at most 2 allowed"}}
