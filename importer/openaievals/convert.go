package openaievals

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gavelhq/gavel/importer/suitefile"
)

// DefaultAgentModel and DefaultJudgeModel are the models of a converted
// suite; GAVEL_AGENT_MODEL and GAVEL_JUDGE_MODEL replace them. An eval
// names none: oaieval takes them on its command line.
const (
	DefaultAgentModel = "openai:gpt-5-mini"
	DefaultJudgeModel = "openai:gpt-5-mini"
)

// Classes are the eval classes Convert converts, by the name after the
// module path (evals.elsuite.basic.match:Match).
var Classes = []string{"Match", "Includes", "FuzzyMatch", "JsonMatch", "ModelBasedClassify"}

// Convert reads the eval named name (its short name, test-match, or its
// id, test-match.s1.simple-v0) of an eval YAML file of a registry
// (registry/evals/NAME.yaml) and returns it as a Gavel suite. name may be
// empty when the file defines one eval. The samples and model-graded
// specs are read from the registry's data/ and modelgraded/ directories.
func Convert(evalFile, name string) (*suitefile.Suite, error) {
	entries, err := readYAML(evalFile)
	if err != nil {
		return nil, err
	}
	registry := filepath.Dir(filepath.Dir(evalFile))
	var names []string
	for k, v := range entries {
		if m, ok := v.(map[string]any); ok && m["id"] != nil {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	if name == "" {
		if len(names) != 1 {
			return nil, fmt.Errorf("%s defines %d evals (%s): name one with --eval", evalFile, len(names), strings.Join(names, ", "))
		}
		name = names[0]
	}
	id := name
	if head, ok := entries[name].(map[string]any); ok {
		if s, ok := head["id"].(string); ok {
			id = s
		}
	}
	spec, ok := entries[id].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: no eval %q: it defines %s", evalFile, name, strings.Join(names, ", "))
	}
	class, _ := spec["class"].(string)
	_, short, _ := strings.Cut(class, ":")
	if !slices.Contains(Classes, short) {
		return nil, fmt.Errorf("%s: eval %s is of class %s, which gavel import does not convert (it converts %s): its logic is Python code", evalFile, name, class, strings.Join(Classes, ", "))
	}
	args, _ := spec["args"].(map[string]any)
	samplesPath, _ := args["samples_jsonl"].(string)
	if samplesPath == "" {
		return nil, fmt.Errorf("%s: eval %s has no args.samples_jsonl", evalFile, name)
	}
	samples, err := readSamples(filepath.Join(registry, "data", samplesPath))
	if err != nil {
		return nil, err
	}
	c := &converter{registry: registry, name: strings.Split(id, ".")[0], class: short, args: args}
	if short == "ModelBasedClassify" {
		if err := c.loadSpec(); err != nil {
			return nil, err
		}
	}
	return c.convert(evalFile, id, entries[name], samples)
}

type converter struct {
	registry, name, class string
	args                  map[string]any
	mg                    *modelGraded
	suite                 suitefile.Suite
}

func (c *converter) convert(evalFile, id string, head any, samples []sample) (*suitefile.Suite, error) {
	s := &c.suite
	desc := ""
	if m, ok := head.(map[string]any); ok {
		desc, _ = m["description"].(string)
	}
	s.Head = []string{
		fmt.Sprintf("Converted by gavel import --from openai-evals from the eval %s (%s, class %s).", id, filepath.Base(evalFile), c.class),
		"Each sample is a case of cases.yaml; what could not be converted is a comment where it was.",
	}
	s.Fields = suitefile.M{{Key: "name", Value: c.name}}.Set("description", strOrNil(desc))
	var cases []suitefile.Case
	system, systemSet, moved := "", false, 0
	for i, smp := range samples {
		where := fmt.Sprintf("sample %d", i+1)
		if smp.err != "" {
			line := s.Report.Add(suitefile.NotConverted, where, "the sample", smp.err)
			cases = append(cases, suitefile.Case{Notes: []string{line}})
			continue
		}
		var notes []string
		sys, user := smp.system, smp.user
		switch {
		case !systemSet:
			system, systemSet = sys, true
		case sys != system:
			user = strings.TrimSpace(sys + "\n\n" + user)
			moved++
			notes = append(notes, "approximated: its system message differs from the suite's: it is sent before the user's message, in the same message")
		}
		judges, llm, note, err := c.judges(smp)
		if err != nil {
			line := s.Report.Add(suitefile.NotConverted, where, "the sample", err.Error())
			cases = append(cases, suitefile.Case{Notes: []string{line}})
			continue
		}
		if note != "" {
			notes = append(notes, note)
		}
		f := suitefile.M{{Key: "id", Value: fmt.Sprintf("%s-%d", c.name, i+1)}, {Key: "input", Value: user}}
		f = f.Set("metadata", map[string]any{"source": fmt.Sprintf("%s: line %d", filepath.Base(smp.file), smp.line)})
		key := "rules"
		if llm {
			key = "judges"
		}
		f = f.Set(key, judges)
		s.Report.Judges += len(judges)
		s.Report.Cases++
		cases = append(cases, suitefile.Case{Fields: f, Notes: notes})
	}
	if moved > 0 {
		s.Report.Add(suitefile.Approximated, "", fmt.Sprintf("the system messages of %d %s", moved, map[bool]string{true: "sample", false: "samples"}[moved == 1]),
			"they differ from the first sample's, the agent's system prompt: each is sent before its user message, in the same message")
	}
	if c.class == "FuzzyMatch" {
		s.Report.Add(suitefile.Approximated, "", "FuzzyMatch", "a contains judge (case ignored) checks that the reply holds an ideal answer; FuzzyMatch also drops punctuation and articles, and passes when the reply is inside the ideal answer")
	}
	if c.mg != nil && c.mg.note != "" {
		s.Report.Add(suitefile.Approximated, "", "modelgraded spec "+c.mg.name, c.mg.note)
	}
	builtin := suitefile.M{{Key: "model", Value: "${GAVEL_AGENT_MODEL:-" + DefaultAgentModel + "}"}}
	if system != "" {
		builtin = builtin.Set("system_prompt", system)
		if vars := literalPlaceholders(system); len(vars) > 0 {
			builtin = builtin.Set("vars", vars)
		}
	}
	s.Fields = s.Fields.Set("agent", suitefile.M{{Key: "builtin", Value: builtin}})
	if c.mg != nil {
		s.Fields = s.Fields.Set("models", suitefile.M{{Key: "judge", Value: "${GAVEL_JUDGE_MODEL:-" + DefaultJudgeModel + "}"}})
	}
	s.Fields = s.Fields.Set("max_followups", -1)
	s.Cases = cases
	if lines := s.Report.Lines(); len(lines) > 0 {
		s.Head = append(append(s.Head, ""), lines...)
	}
	return s, nil
}

// judges are a sample's judges, by the eval's class.
func (c *converter) judges(smp sample) (list []any, llm bool, note string, err error) {
	ideals := smp.ideals
	if len(ideals) == 0 && c.class != "ModelBasedClassify" {
		return nil, false, "", errors.New("it has no ideal answer")
	}
	either := func(key string, extra ...suitefile.KV) []any {
		var parts []any
		for _, ideal := range ideals {
			parts = append(parts, append(suitefile.M{{Key: key, Value: ideal}}, extra...))
		}
		if len(parts) == 1 {
			return parts
		}
		return []any{suitefile.M{{Key: "any", Value: parts}}}
	}
	switch c.class {
	case "Match":
		return either("starts_with"), false, "", nil
	case "Includes":
		if c.args["ignore_case"] == true {
			if len(ideals) == 1 {
				return []any{suitefile.M{{Key: "contains", Value: ideals[0]}, {Key: "ignore_case", Value: true}}}, false, "", nil
			}
			return []any{suitefile.M{{Key: "contains_any", Value: ideals}, {Key: "ignore_case", Value: true}}}, false, "", nil
		}
		if len(ideals) == 1 {
			return []any{suitefile.M{{Key: "contains", Value: ideals[0]}}}, false, "", nil
		}
		return []any{suitefile.M{{Key: "contains_any", Value: ideals}}}, false, "", nil
	case "FuzzyMatch":
		return []any{suitefile.M{{Key: "contains_any", Value: ideals}, {Key: "ignore_case", Value: true}}}, false, "", nil
	case "JsonMatch":
		var consts []any
		for _, ideal := range ideals {
			var v any
			if err := json.Unmarshal([]byte(ideal), &v); err != nil {
				return nil, false, "", fmt.Errorf("its ideal answer is not JSON: %v", err)
			}
			consts = append(consts, map[string]any{"const": v})
		}
		schema := map[string]any{"anyOf": consts}
		if len(consts) == 1 {
			schema = consts[0].(map[string]any)
		}
		return []any{suitefile.M{{Key: "json_schema", Value: schema}}}, false, "", nil
	case "ModelBasedClassify":
		j, note, err := c.mg.rubric(smp, c.args)
		if err != nil {
			return nil, false, "", err
		}
		return []any{j}, true, note, nil
	}
	return nil, false, "", fmt.Errorf("class %s", c.class)
}

// A sample is one line of the samples: its input as a system message and
// a user message, its ideal answers, and every field, for a model-graded
// spec's prompt.
type sample struct {
	file         string
	line         int
	system, user string
	ideals       []string
	fields       map[string]any
	err          string // why it cannot be converted
}

// readSamples reads a samples file, a JSON object a line.
func readSamples(path string) ([]sample, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read the samples: %w", err)
	}
	if strings.HasPrefix(string(data), "version https://git-lfs") {
		return nil, fmt.Errorf("%s is a Git LFS pointer, not the samples: fetch them (git lfs pull) first", path)
	}
	var out []sample
	for i, line := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		s := sample{file: path, line: i + 1}
		if err := json.Unmarshal([]byte(line), &s.fields); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, i+1, err)
		}
		s.system, s.user, err = inputOf(s.fields["input"])
		if err != nil {
			s.err = err.Error()
		}
		switch v := s.fields["ideal"].(type) {
		case string:
			s.ideals = []string{v}
		case []any:
			for _, x := range v {
				if str, ok := x.(string); ok {
					s.ideals = append(s.ideals, str)
				}
			}
		case nil:
		default:
			data, _ := json.Marshal(v)
			s.ideals = []string{string(data)}
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s holds no samples", path)
	}
	return out, nil
}

// inputOf splits a sample's input, a text or a chat, into a system
// message and the user's message. A chat with assistant messages
// (few-shot examples) or several user messages has no Gavel equivalent:
// a case's agent answers each user message.
func inputOf(v any) (system, user string, err error) {
	switch x := v.(type) {
	case string:
		return "", x, nil
	case []any:
		var systems, users []string
		for _, m := range x {
			msg, _ := m.(map[string]any)
			role, _ := msg["role"].(string)
			content, ok := msg["content"].(string)
			if !ok {
				return "", "", fmt.Errorf("a %s message whose content is not text", role)
			}
			switch role {
			case "system":
				if len(users) > 0 {
					return "", "", errors.New("a system message after the user's (few-shot examples): a case's agent has one system prompt")
				}
				systems = append(systems, content)
			case "user":
				users = append(users, content)
			default:
				return "", "", fmt.Errorf("a chat with %s messages (few-shot examples): a case holds the user's messages, and its agent answers each", role)
			}
		}
		if len(users) != 1 {
			return "", "", fmt.Errorf("a chat with %d user messages: a case sends one a round, and its agent answers each", len(users))
		}
		return strings.Join(systems, "\n\n"), users[0], nil
	}
	return "", "", errors.New("no input text")
}

// chatText is a sample's input as the spec's prompt shows it: a text, or
// a chat's messages one after the other.
func chatText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []any:
		var parts []string
		for _, m := range x {
			msg, _ := m.(map[string]any)
			content, _ := msg["content"].(string)
			parts = append(parts, content)
		}
		return strings.Join(parts, "\n\n")
	case nil:
		return ""
	}
	data, _ := json.Marshal(v)
	return string(data)
}

func readYAML(path string) (map[string]any, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := yaml.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

func strOrNil(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// literalPlaceholders keeps a system prompt's {word}s as written (the
// builtin agent fills {name} from its vars).
func literalPlaceholders(system string) map[string]any {
	vars := map[string]any{}
	for i := 0; i < len(system); i++ {
		if system[i] != '{' {
			continue
		}
		end := strings.IndexByte(system[i:], '}')
		if end < 0 {
			break
		}
		word := system[i+1 : i+end]
		if isWord(word) && word != "today" && word != "now" && word != "locale" {
			vars[word] = "{" + word + "}"
		}
	}
	return vars
}

func isWord(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

func formatScore(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
