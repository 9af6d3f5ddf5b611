package spec

import (
	"fmt"
	"math"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gavelhq/gavel/llm"
)

// LoadPrices reads a prices file (YAML or JSON): model names, as their
// vendor names them, mapped to prices, written as a suite's prices: are.
// It reports every problem at once, as Problems.
func LoadPrices(path string) (llm.Prices, error) {
	root, problems := parseYAML(path, 0)
	if root == nil {
		return nil, problems.sorted()
	}
	if root.Kind != yaml.MappingNode {
		return nil, Problems{{File: path, Line: root.Line, Column: root.Column,
			Message: "a prices file maps model names to prices: my-model: {input: 0.5, output: 1.5}, in US dollars per million tokens"}}
	}
	problems = append(problems, checkFields(path, root, reflect.TypeFor[map[string]PriceSpec](), 0)...)
	prices, ps := pricesFrom(path, root)
	problems = append(problems, ps...)
	if err := problems.sorted(); err != nil {
		return nil, err
	}
	return prices, nil
}

// pricesFrom reads n, a mapping of model names to prices written in file,
// with a problem for each price that cannot be used.
func pricesFrom(file string, n *yaml.Node) (llm.Prices, Problems) {
	prices := llm.Prices{}
	var problems Problems
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, value := n.Content[i], n.Content[i+1]
		fail := func(format string, args ...any) {
			msg := fmt.Sprintf("prices: %s: ", key.Value) + fmt.Sprintf(format, args...)
			problems = append(problems, Problem{File: file, Line: key.Line, Column: key.Column, Message: msg})
		}
		var p PriceSpec
		if err := value.Decode(&p); err != nil {
			problems = append(problems, yamlProblems(file, 0, err)...)
			continue
		}
		if provider, model, ok := strings.Cut(key.Value, ":"); ok && (provider == "openai" || provider == "anthropic") {
			problems = append(problems, Problem{File: file, Line: key.Line, Column: key.Column,
				Message: fmt.Sprintf("prices: %q: name the model as its vendor does (%q), without the provider", key.Value, model)})
			continue
		}
		if p.Input == nil || p.Output == nil {
			fail("give both input and output, in US dollars per million tokens (0 for a model that costs nothing)")
			continue
		}
		price := llm.Price{Input: *p.Input, Output: *p.Output}
		if p.CachedInput != nil {
			price.CachedInput = *p.CachedInput
		}
		bad := false
		for _, v := range []struct {
			name  string
			price float64
		}{{"input", price.Input}, {"output", price.Output}, {"cached_input", price.CachedInput}} {
			if math.IsNaN(v.price) || math.IsInf(v.price, 0) || v.price < 0 {
				fail("%s %v: a price is a number of US dollars per million tokens, 0 or more", v.name, v.price)
				bad = true
			}
		}
		if !bad {
			prices[key.Value] = price
		}
	}
	return prices, problems
}

// suitePrices reads the prices: of a suite file's root, if it has any.
func suitePrices(file string, root *yaml.Node) (llm.Prices, Problems) {
	if root.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "prices" && root.Content[i+1].Kind == yaml.MappingNode {
			return pricesFrom(file, root.Content[i+1])
		}
	}
	return nil, nil
}
