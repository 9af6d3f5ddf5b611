package promptfoo

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/gavelhq/gavel/importer/suitefile"
)

// A judge is a converted assertion: a judge of the suite format, whether
// it asks a model (it goes under judges:, else rules:), and its weight in
// a weighted test.
type judge struct {
	spec   suitefile.M
	llm    bool
	weight float64
}

// whyNot says why the assertion types Gavel has no equivalent of are not
// converted.
var whyNot = map[string]string{
	"javascript":                    "Gavel runs no promptfoo JavaScript; a program judge (docs/program-judges.md) can make the same check",
	"python":                        "Gavel runs no promptfoo Python; a program judge (docs/program-judges.md) can make the same check in Python",
	"ruby":                          "Gavel runs no Ruby assertion; a program judge (docs/program-judges.md) can make the same check",
	"webhook":                       "Gavel calls no webhook to judge; a program judge (docs/program-judges.md) can",
	"similar":                       "Gavel has no embedding similarity; a rubric or correctness judge can say what the reply must mean",
	"classifier":                    "Gavel runs no HuggingFace classifier",
	"moderation":                    "Gavel calls no moderation API",
	"levenshtein":                   "Gavel has no edit-distance rule",
	"rouge-n":                       "Gavel has no ROUGE metric",
	"bleu":                          "Gavel has no BLEU metric",
	"gleu":                          "Gavel has no GLEU metric",
	"meteor":                        "Gavel has no METEOR metric",
	"perplexity":                    "Gavel reads no log probabilities",
	"perplexity-score":              "Gavel reads no log probabilities",
	"is-valid-function-call":        "Gavel checks no call against the provider's function schemas; expected_tool_calls checks the calls made",
	"is-valid-openai-function-call": "Gavel checks no call against the provider's function schemas; expected_tool_calls checks the calls made",
	"is-valid-openai-tools-call":    "Gavel checks no call against the provider's tool schemas; expected_tool_calls checks the calls made",
	"finish-reason":                 "Gavel's judges do not see a model's finish reason",
	"is-html":                       "Gavel has no HTML rule",
	"contains-html":                 "Gavel has no HTML rule",
	"is-xml":                        "Gavel has no XML rule",
	"contains-xml":                  "Gavel has no XML rule",
	"is-sql":                        "Gavel has no SQL syntax rule (the sql judge checks a database's state)",
	"contains-sql":                  "Gavel has no SQL syntax rule (the sql judge checks a database's state)",
	"is-refusal":                    "Gavel has no refusal detector; a rubric judge can say the reply must refuse",
	"word-count":                    "Gavel counts characters (length), not words",
	"max-score":                     "Gavel judges each run's reply on its own; gavel compare compares runs",
	"pi":                            "Gavel calls no Pi Labs scorer",
	"context-faithfulness":          "Gavel's judges do not see a retrieval context",
	"context-recall":                "Gavel's judges do not see a retrieval context",
	"context-relevance":             "Gavel's judges do not see a retrieval context",
	"conversation-relevance":        "promptfoo's conversations are not converted",
	"trace-span-count":              "Gavel's judges read the transcript, not the agent's trace spans",
	"trace-span-duration":           "Gavel's judges read the transcript, not the agent's trace spans",
	"trace-error-spans":             "Gavel's judges read the transcript, not the agent's trace spans",
	"skill-used":                    "Gavel's judges do not see provider skill metadata",
	"guardrails":                    "Gavel's judges do not see a provider's guardrail signal",
	"agent-rubric":                  "an agent_judge (docs/judges.md) is the equivalent, but it needs MCP servers this configuration does not name",
	"search-rubric":                 "Gavel's judges do not search the web",
}

// assertion converts one assertion. It returns false, having said why in
// n, when the assertion has no Gavel equivalent.
// A scope is what an assertion is converted in: its test's vars, and the
// model of its test's grader (options.provider), if Gavel has it.
type scope struct {
	vars   map[string]any
	grader string
}

func (c *converter) assertion(raw any, sc scope, n *notes) (judge, bool) {
	a, ok := raw.(map[string]any)
	if !ok {
		n.add(suitefile.NotConverted, fmt.Sprintf("assertion %s", excerpt(fmt.Sprint(raw), 60)), "an assertion is a mapping with a type")
		return judge{}, false
	}
	if ref, ok := a["$ref"].(string); ok {
		resolved, found := c.templates[strings.TrimPrefix(ref, "#/assertionTemplates/")]
		if !found {
			n.add(suitefile.NotConverted, "assertion $ref "+ref, "no such assertion template")
			return judge{}, false
		}
		a = resolved
	}
	typ, _ := a["type"].(string)
	what := describe(typ, a["value"])
	if typ == "" {
		n.add(suitefile.NotConverted, what, "an assertion needs a type")
		return judge{}, false
	}
	for _, key := range []string{"transform", "contextTransform"} {
		if _, ok := a[key]; ok {
			n.add(suitefile.NotConverted, what, "its "+key+" (JavaScript) changes what it checks, and Gavel runs no promptfoo JavaScript")
			return judge{}, false
		}
	}
	base, negated := strings.CutPrefix(typ, "not-")
	if typ == "assert-set" {
		base, negated = typ, false
	}
	value, err := c.value(a["value"], sc.vars)
	if err != nil {
		n.add(suitefile.NotConverted, what, err.Error())
		return judge{}, false
	}
	threshold, hasThreshold := number(a["threshold"])
	j := judge{weight: 1}
	if w, ok := number(a["weight"]); ok {
		j.weight = w
	}
	str, isStr := value.(string)
	if !isStr {
		if f, ok := number(value); ok && value != nil {
			str, isStr = strconv.FormatFloat(f, 'f', -1, 64), true
		}
	}
	needString := func() bool {
		if !isStr {
			n.add(suitefile.NotConverted, what, "its value is not a text")
		}
		return isStr
	}

	switch base {
	case "equals":
		switch value.(type) {
		case map[string]any, []any:
			j.spec = suitefile.M{{Key: "json_schema", Value: map[string]any{"const": value}}}
		default:
			if !needString() {
				return judge{}, false
			}
			j.spec = suitefile.M{{Key: "equals", Value: str}}
		}
	case "contains", "icontains":
		if !needString() {
			return judge{}, false
		}
		key := "contains"
		if negated {
			key, negated = "not_contains", false
		}
		j.spec = suitefile.M{{Key: key, Value: str}}
		if base == "icontains" {
			j.spec = j.spec.Set("ignore_case", true)
		}
	case "contains-any", "icontains-any", "contains-all", "icontains-all":
		items, ok := textList(value)
		if !ok {
			n.add(suitefile.NotConverted, what, "its value is not a list of texts")
			return judge{}, false
		}
		key := "contains_any"
		if strings.HasSuffix(base, "-all") {
			key = "contains_all"
		}
		j.spec = suitefile.M{{Key: key, Value: items}}
		if strings.HasPrefix(base, "i") {
			j.spec = j.spec.Set("ignore_case", true)
		}
	case "starts-with":
		if !needString() {
			return judge{}, false
		}
		j.spec = suitefile.M{{Key: "starts_with", Value: str}}
	case "regex":
		if !needString() {
			return judge{}, false
		}
		if _, err := regexp.Compile(str); err != nil {
			n.add(suitefile.NotConverted, what, "a JavaScript regular expression Go's RE2 cannot read ("+err.Error()+")")
			return judge{}, false
		}
		j.spec = suitefile.M{{Key: "regex", Value: str}}
		if negated {
			j.spec, negated = j.spec.Set("negate", true), false
		}
	case "is-json", "contains-json":
		key := "valid_json"
		if base == "contains-json" {
			key = "contains_json"
		}
		switch v := value.(type) {
		case nil:
			j.spec = suitefile.M{{Key: key, Value: true}}
		case map[string]any:
			if key == "valid_json" {
				key = "json_schema"
			}
			j.spec = suitefile.M{{Key: key, Value: v}}
		default:
			n.add(suitefile.NotConverted, what, "its value is not a JSON Schema")
			return judge{}, false
		}
	case "cost":
		if !hasThreshold {
			n.add(suitefile.NotConverted, what, "without a threshold it only records the cost, which Gavel's reports show anyway")
			return judge{}, false
		}
		j.spec = suitefile.M{{Key: "max_cost_usd", Value: threshold}}
	case "latency":
		if !hasThreshold {
			n.add(suitefile.NotConverted, what, "it needs a threshold in milliseconds")
			return judge{}, false
		}
		j.spec = suitefile.M{{Key: "max_latency", Value: strconv.FormatFloat(threshold, 'f', -1, 64) + "ms"}}
		n.add(suitefile.Approximated, what, "max_latency bounds each agent turn, the model calls and tool calls of the turn included, where promptfoo times one provider call")
	case "llm-rubric", "g-eval", "factuality", "model-graded-closedqa", "answer-relevance", "select-best", "trajectory:goal-success":
		llm, ok := c.llmJudge(base, value, a, sc.grader, n, what)
		if !ok {
			return judge{}, false
		}
		j.spec, j.llm = llm, true
	case "tool-call-f1":
		names, ok := textList(value)
		if !ok {
			n.add(suitefile.NotConverted, what, "its value is not a list of tool names")
			return judge{}, false
		}
		f1 := 1.0
		if hasThreshold {
			f1 = threshold
		}
		j.spec = suitefile.M{{Key: "tool_calls", Value: suitefile.M{
			{Key: "calls", Value: callsOf(names, nil)}, {Key: "order", Value: "any"}, {Key: "f1", Value: f1}}}}
		n.add(suitefile.Approximated, what, "Gavel's F1 counts each call made, where promptfoo compares the sets of tool names: a tool called twice lowers Gavel's precision")
	case "trajectory:tool-used":
		if names, ok := textList(value); ok && !globbed(names...) {
			j.spec = suitefile.M{{Key: "expected_tools", Value: names}}
			break
		}
		m, _ := value.(map[string]any)
		pattern, _ := m["pattern"].(string)
		if pattern == "" {
			pattern, _ = m["name"].(string)
		}
		if pattern == "" || globbed(pattern) {
			n.add(suitefile.NotConverted, what, "Gavel matches tools by name, not by a glob pattern")
			return judge{}, false
		}
		call := suitefile.M{{Key: "name", Value: pattern}}
		call = call.Set("min", intOr(m["min"], 1))
		if max, ok := number(m["max"]); ok {
			call = call.Set("max", int(max))
		}
		j.spec = suitefile.M{{Key: "tool_calls", Value: suitefile.M{{Key: "calls", Value: []any{call}}, {Key: "order", Value: "subset"}}}}
	case "trajectory:tool-args-match":
		var ok bool
		if j.spec, ok = toolArgs(value, n, what); !ok {
			return judge{}, false
		}
	case "trajectory:tool-sequence":
		steps, mode := value, "in_order"
		if m, ok := value.(map[string]any); ok {
			steps = m["steps"]
			if s, ok := m["mode"].(string); ok {
				mode = s
			}
		}
		names, ok := textList(steps)
		if !ok || globbed(names...) || (mode != "in_order" && mode != "exact") {
			n.add(suitefile.NotConverted, what, "Gavel reads steps that are tool names, in_order or exact")
			return judge{}, false
		}
		order, min := "subset", any(1)
		if mode == "exact" {
			order, min = "strict", nil
		}
		j.spec = suitefile.M{{Key: "tool_calls", Value: suitefile.M{{Key: "calls", Value: callsOf(names, min)}, {Key: "order", Value: order}}}}
	case "trajectory:step-count":
		var ok bool
		if j.spec, ok = stepCount(value); !ok {
			n.add(suitefile.NotConverted, what, "Gavel counts tool calls by tool name only: type tool with a name or no pattern")
			return judge{}, false
		}
	case "assert-set":
		var ok bool
		if j, ok = c.assertSet(a, sc, n, what); !ok {
			return judge{}, false
		}
	default:
		why, known := whyNot[base]
		if !known {
			why = "Gavel has no equivalent of this assertion type"
		}
		n.add(suitefile.NotConverted, what, why)
		return judge{}, false
	}
	if negated {
		j.spec = suitefile.M{{Key: "not", Value: j.spec}}
	}
	if metric, ok := a["metric"].(string); ok && metric != "" {
		j.spec = append(suitefile.M{{Key: "name", Value: metric}}, j.spec...)
	}
	if j.weight == 0 {
		if j.llm {
			n.add(suitefile.Approximated, what, "weight 0 (it never fails the test): the judge gets threshold 0, so that its score is recorded and every score passes")
			j.spec = setThreshold(j.spec, 0)
		} else {
			n.add(suitefile.Approximated, what, "weight 0 (it never fails the test): the rule is soft, so that a failure is a finding handed to the LLM judges")
			j.spec = j.spec.Set("soft", true)
		}
	}
	return j, true
}

// setThreshold sets threshold on an LLM judge's spec, or on the judge a
// name or not wraps.
func setThreshold(m suitefile.M, t float64) suitefile.M {
	for i, kv := range m {
		if kv.Key == "threshold" {
			m[i].Value = t
			return m
		}
	}
	return m.Set("threshold", t)
}

// llmJudge converts the assertions that ask a model.
func (c *converter) llmJudge(typ string, value any, a map[string]any, grader string, n *notes, what string) (suitefile.M, bool) {
	text, ok := value.(string)
	if !ok {
		switch v := value.(type) {
		case []any:
			items, ok := textList(v)
			if !ok {
				n.add(suitefile.NotConverted, what, "its value is not a text")
				return nil, false
			}
			text = "- " + strings.Join(items, "\n- ")
		case map[string]any:
			data, _ := json.Marshal(v)
			text = string(data)
		default:
			if typ != "answer-relevance" {
				n.add(suitefile.NotConverted, what, "it has no criteria")
				return nil, false
			}
		}
	}
	key, threshold := "rubric", any(nil)
	if t, ok := number(a["threshold"]); ok {
		threshold = t
	}
	switch typ {
	case "llm-rubric":
	case "g-eval":
		if threshold == nil {
			threshold = 0.7 // g-eval's default
		}
		n.add(suitefile.Approximated, what, "a rubric judge scores the criteria 0..1 in one answer, where G-Eval writes evaluation steps first")
	case "factuality":
		text = "The response is factually consistent with this reference answer: it may leave out or add details, as long as it contradicts nothing in it.\nReference: " + text
		n.add(suitefile.Approximated, what, "a rubric judge scores consistency with the reference 0..1, where factuality picks one of OpenAI Evals' five categories")
	case "model-graded-closedqa":
		text = "The response meets this criterion: " + text
		n.add(suitefile.Approximated, what, "a rubric judge scores the criterion 0..1, where closedqa answers Y or N")
	case "answer-relevance":
		text = "The response is relevant to the user's message: it answers what was asked, directly, and does not wander off the subject."
		if threshold == nil {
			threshold = 0.7
		}
		n.add(suitefile.Approximated, what, "a rubric judge scores relevance 0..1, where answer-relevance compares embeddings of questions a model infers from the reply")
	case "select-best":
		n.add(suitefile.Approximated, what, "a rubric judge scores each reply on its own, where select-best picks the best of the prompts' and providers' replies; gavel compare --pairwise CRITERIA has a model pick the better of two runs' replies")
	case "trajectory:goal-success":
		key = "correctness"
	}
	spec := suitefile.M{{Key: key, Value: text}}.Set("threshold", threshold)
	if p, ok := a["provider"]; ok {
		if ref, why := graderRef(p); ref != "" {
			spec = spec.Set("model", ref)
		} else {
			n.add(suitefile.Approximated, what, "its grader has no Gavel provider ("+why+"): the suite's judge model grades it")
		}
	} else if grader != "" {
		spec = spec.Set("model", grader)
	}
	if _, ok := a["rubricPrompt"]; ok {
		n.add(suitefile.NotConverted, what+" rubricPrompt", "Gavel's judges keep their own prompt (prompt_file replaces it, in Gavel's template syntax)")
	}
	return spec, true
}

// assertSet converts an assert-set: all of its parts, or with a threshold
// a weighted mean of them.
func (c *converter) assertSet(a map[string]any, sc scope, n *notes, what string) (judge, bool) {
	items, _ := a["assert"].([]any)
	var parts []judge
	llm := false
	for _, item := range items {
		if j, ok := c.assertion(item, sc, n); ok {
			parts = append(parts, j)
			llm = llm || j.llm
		}
	}
	if len(parts) == 0 {
		n.add(suitefile.NotConverted, what, "none of its assertions could be converted")
		return judge{}, false
	}
	if len(parts) < len(items) {
		n.add(suitefile.Approximated, what, fmt.Sprintf("%d of its %d assertions could not be converted: the set judges the others", len(items)-len(parts), len(items)))
	}
	w := 1.0
	if v, ok := number(a["weight"]); ok {
		w = v
	}
	t, hasThreshold := number(a["threshold"])
	return judge{spec: composite(parts, t, hasThreshold), llm: llm, weight: w}, true
}

// composite is all of parts, or with a threshold the weighted mean of
// their scores.
func composite(parts []judge, threshold float64, hasThreshold bool) suitefile.M {
	if !hasThreshold {
		var all []any
		for _, p := range parts {
			all = append(all, p.spec)
		}
		if len(all) == 1 {
			return parts[0].spec
		}
		return suitefile.M{{Key: "all", Value: all}}
	}
	var weighted []any
	for _, p := range parts {
		weighted = append(weighted, suitefile.M{{Key: "weight", Value: p.weight}, {Key: "judge", Value: p.spec}})
	}
	return suitefile.M{{Key: "weighted", Value: weighted}, {Key: "threshold", Value: threshold}}
}

// toolArgs converts trajectory:tool-args-match.
func toolArgs(value any, n *notes, what string) (suitefile.M, bool) {
	m, ok := value.(map[string]any)
	if !ok {
		n.add(suitefile.NotConverted, what, "its value is not a mapping")
		return nil, false
	}
	name, _ := m["name"].(string)
	if name == "" {
		name, _ = m["pattern"].(string)
	}
	if name == "" || globbed(name) {
		n.add(suitefile.NotConverted, what, "Gavel matches tools by name, not by a glob pattern")
		return nil, false
	}
	args, ok := m["args"].(map[string]any)
	if !ok {
		args, ok = m["arguments"].(map[string]any)
	}
	if !ok {
		n.add(suitefile.NotConverted, what, "it gives no args mapping")
		return nil, false
	}
	call := suitefile.M{{Key: "name", Value: name}, {Key: "args", Value: args}}
	if m["mode"] == "exact" {
		if m["defaults"] != nil || m["ignore"] != nil {
			n.add(suitefile.Approximated, what, "mode exact with defaults or ignore: Gavel matches the arguments given and allows others")
		} else {
			call = call.Set("exact", true)
		}
	}
	call = call.Set("min", 1)
	return suitefile.M{{Key: "tool_calls", Value: suitefile.M{{Key: "calls", Value: []any{call}}, {Key: "order", Value: "subset"}}}}, true
}

// stepCount converts trajectory:step-count of tool steps.
func stepCount(value any) (suitefile.M, bool) {
	m, ok := value.(map[string]any)
	if !ok || (m["type"] != nil && m["type"] != "tool") {
		return nil, false
	}
	pattern, _ := m["pattern"].(string)
	min, hasMin := number(m["min"])
	max, hasMax := number(m["max"])
	switch {
	case pattern == "" && hasMax && !hasMin:
		return suitefile.M{{Key: "max_tool_calls", Value: int(max)}}, true
	case pattern != "" && !globbed(pattern) && (hasMin || hasMax):
		call := suitefile.M{{Key: "name", Value: pattern}}
		call = call.Set("min", intOr(min, 0))
		if hasMax {
			call = call.Set("max", int(max))
		}
		return suitefile.M{{Key: "tool_calls", Value: suitefile.M{{Key: "calls", Value: []any{call}}, {Key: "order", Value: "subset"}}}}, true
	}
	return nil, false
}

// callsOf is a list of expected calls of these tools, each with min when
// it is not nil.
func callsOf(names []string, min any) []any {
	var out []any
	for _, name := range names {
		out = append(out, suitefile.M{{Key: "name", Value: name}}.Set("min", min))
	}
	return out
}

// value resolves an assertion's value: its templates rendered with the
// test's vars, a file:// reference read.
func (c *converter) value(v any, vars map[string]any) (any, error) {
	s, ok := v.(string)
	if !ok {
		return v, nil
	}
	if p, ok := fileRef(c.dir, s); ok {
		switch strings.ToLower(filepath.Ext(p)) {
		case ".js", ".ts", ".mjs", ".cjs", ".py", ".rb":
			return nil, fmt.Errorf("its value is a program (%s), and Gavel runs no promptfoo programs", filepath.Base(p))
		case ".json", ".yaml", ".yml":
			return readData(p)
		}
		data, err := readText(p)
		if err != nil {
			return nil, err
		}
		s = data
	}
	out, missing, err := render(s, vars)
	if err != nil {
		return nil, err
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("it uses %s, which the test does not set", strings.Join(missing, ", "))
	}
	return out, nil
}

// describe is an assertion as the report names it: its type and value.
func describe(typ string, value any) string {
	if typ == "" {
		typ = "untyped"
	}
	switch v := value.(type) {
	case nil:
		return typ + " assertion"
	case string:
		return fmt.Sprintf("%s assertion %q", typ, excerpt(v, 80))
	default:
		data, _ := json.Marshal(v)
		return fmt.Sprintf("%s assertion %s", typ, excerpt(string(data), 80))
	}
}

// textList reads a list of texts, or a comma-separated text.
func textList(v any) ([]string, bool) {
	switch x := v.(type) {
	case string:
		var out []string
		for _, s := range strings.Split(x, ",") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
		return out, len(out) > 0
	case []any:
		var out []string
		for _, item := range x {
			switch s := item.(type) {
			case string:
				out = append(out, s)
			case int, float64:
				out = append(out, fmt.Sprint(s))
			default:
				return nil, false
			}
		}
		return out, len(out) > 0
	}
	return nil, false
}

// globbed reports whether a name is a glob pattern.
func globbed(names ...string) bool {
	for _, s := range names {
		if strings.ContainsAny(s, "*?[") {
			return true
		}
	}
	return false
}

// number reads a YAML number, or a text holding one.
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case uint64:
		return float64(x), true
	case float64:
		return x, true
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		return f, err == nil
	}
	return 0, false
}

func intOr(v any, def int) int {
	if f, ok := number(v); ok {
		return int(f)
	}
	return def
}
