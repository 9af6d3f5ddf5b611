package openaievals

import (
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/gavelhq/gavel/importer/suitefile"
)

// A modelGraded is a model-graded spec (registry/modelgraded/*.yaml): the
// prompt a model answers with one of the choice strings, and what each
// choice scores.
type modelGraded struct {
	name    string
	prompt  string
	choices []string
	scores  map[string]float64 // normalised to 0..1
	outputs map[string]string  // input_outputs: the sample field the agent answers, and the prompt's name for its reply
	note    string             // what the conversion changed, for the report
}

// loadSpec finds the eval's modelgraded_spec in the registry.
func (c *converter) loadSpec() error {
	name, _ := c.args["modelgraded_spec"].(string)
	if name == "" {
		return fmt.Errorf("eval %s: a ModelBasedClassify eval needs args.modelgraded_spec", c.name)
	}
	files, _ := filepath.Glob(filepath.Join(c.registry, "modelgraded", "*.yaml"))
	for _, f := range files {
		specs, err := readYAML(f)
		if err != nil {
			return err
		}
		raw, ok := specs[name].(map[string]any)
		if !ok {
			continue
		}
		mg, err := parseSpec(name, raw)
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		c.mg = mg
		return nil
	}
	return fmt.Errorf("no modelgraded spec %q in %s", name, filepath.Join(c.registry, "modelgraded"))
}

func parseSpec(name string, raw map[string]any) (*modelGraded, error) {
	mg := &modelGraded{name: name, scores: map[string]float64{}, outputs: map[string]string{}}
	switch p := raw["prompt"].(type) {
	case string:
		mg.prompt = p
	case []any:
		mg.prompt = chatText(p)
	default:
		return nil, fmt.Errorf("modelgraded spec %s has no prompt", name)
	}
	switch cs := raw["choice_strings"].(type) {
	case string:
		if strings.HasPrefix(cs, "from_n") {
			return nil, fmt.Errorf("modelgraded spec %s: choice_strings %s number the choices by the completions compared, which a case of one reply does not have", name, cs)
		}
		for _, r := range cs {
			mg.choices = append(mg.choices, string(r))
		}
	case []any:
		for _, x := range cs {
			mg.choices = append(mg.choices, fmt.Sprint(x))
		}
	}
	if len(mg.choices) == 0 {
		return nil, fmt.Errorf("modelgraded spec %s has no choice_strings", name)
	}
	if io, ok := raw["input_outputs"].(map[string]any); ok {
		for k, v := range io {
			mg.outputs[k] = fmt.Sprint(v)
		}
	}
	if len(mg.outputs) != 1 {
		return nil, fmt.Errorf("modelgraded spec %s compares %d completions (input_outputs): a case has one reply", name, len(mg.outputs))
	}
	scores, _ := raw["choice_scores"].(map[string]any)
	if s, ok := raw["choice_scores"].(string); ok && s == "from_strings" {
		scores = map[string]any{}
		for _, ch := range mg.choices {
			scores[ch] = ch
		}
	}
	switch {
	case len(scores) > 0:
		lo, hi := 0.0, 0.0
		first := true
		for _, ch := range mg.choices {
			v, ok := number(scores[ch])
			if !ok {
				return nil, fmt.Errorf("modelgraded spec %s: choice %s has no score", name, ch)
			}
			mg.scores[ch] = v
			if first || v < lo {
				lo = v
			}
			if first || v > hi {
				hi = v
			}
			first = false
		}
		if hi == lo {
			return nil, fmt.Errorf("modelgraded spec %s: every choice scores %v", name, hi)
		}
		for ch, v := range mg.scores {
			mg.scores[ch] = (v - lo) / (hi - lo)
		}
		if lo != 0 || hi != 1 {
			mg.note = fmt.Sprintf("its choice_scores, from %v to %v, are brought to 0..1; a choice scoring at least halfway passes", lo, hi)
		}
	case name == "fact":
		// fact's choices are counted, not scored; D is the disagreement.
		for _, ch := range mg.choices {
			mg.scores[ch] = 1
		}
		mg.scores["D"] = 0
		mg.note = "its choices have no scores (OpenAI Evals counts them): D, a disagreement with the expert answer, fails and the others pass, as promptfoo's factuality judges them"
	default:
		for _, ch := range mg.choices {
			mg.scores[ch] = 1
		}
		mg.note = "its choices have no scores (OpenAI Evals counts them): every choice passes, and the judge's reasoning says which it chose"
	}
	return mg, nil
}

var field = regexp.MustCompile(`\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// rubric is a sample's rubric judge: the spec's prompt filled in with the
// sample's fields and the eval's modelgraded_spec_args, the agent's reply
// in place of the completion, and the choices' scores.
func (mg *modelGraded) rubric(smp sample, args map[string]any) (suitefile.M, string, error) {
	values := map[string]string{}
	for k, v := range smp.fields {
		values[k] = chatText(v)
	}
	if ideal, ok := smp.fields["ideal"].([]any); ok {
		var parts []string
		for _, x := range ideal {
			parts = append(parts, fmt.Sprint(x))
		}
		values["ideal"] = strings.Join(parts, "\n")
	}
	if extra, ok := args["modelgraded_spec_args"].(map[string]any); ok {
		for k, v := range extra {
			switch x := v.(type) {
			case string:
				values[k] = x
			case map[string]any:
				keys := make([]string, 0, len(x))
				for key := range x {
					keys = append(keys, key)
				}
				sort.Strings(keys)
				var parts []string
				for _, key := range keys {
					parts = append(parts, fmt.Sprint(x[key]))
				}
				values[k] = strings.Join(parts, "\n")
			}
		}
	}
	for _, completion := range mg.outputs {
		values[completion] = "(the response being judged)"
	}
	var missing []string
	text := field.ReplaceAllStringFunc(mg.prompt, func(m string) string {
		if v, ok := values[m[1:len(m)-1]]; ok {
			return v
		}
		missing = append(missing, m)
		return m
	})
	if len(missing) > 0 {
		return nil, "", fmt.Errorf("the spec's prompt uses %s, which neither the sample nor the eval's modelgraded_spec_args give", strings.Join(missing, ", "))
	}
	var opts []string
	threshold := 0.5
	gated := false
	for _, ch := range mg.choices {
		opts = append(opts, fmt.Sprintf("%s scores %s", ch, formatScore(mg.scores[ch])))
		gated = gated || mg.scores[ch] < 0.5
	}
	if !gated {
		threshold = 0 // every choice passes: the score is recorded
	}
	rubric := fmt.Sprintf("Judge the response as OpenAI Evals' model-graded spec %q does; its instructions follow.\n\n%s\n\nGive the score of the choice that applies: %s.",
		mg.name, strings.TrimSpace(text), strings.Join(opts, ", "))
	return suitefile.M{{Key: "name", Value: mg.name}, {Key: "rubric", Value: rubric}, {Key: "threshold", Value: threshold}}, "", nil
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case float64:
		return x, true
	case string:
		var f float64
		_, err := fmt.Sscan(x, &f)
		return f, err == nil
	}
	return 0, false
}
