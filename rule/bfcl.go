package rule

import (
	"encoding/json"
	"fmt"
	"slices"
)

// BFCLCall converts one function of a BFCL possible answer (the Berkeley
// Function Calling Leaderboard's ground truth: each parameter's list of
// accepted values, "" in a list meaning the parameter may be left out, a
// dictionary written as a dictionary of such lists) into an ExpectedCall
// that BFCL's AST checker would agree with:
//
//	{"unit": ["units", ""], "base": [10]}
//	becomes
//	{"unit": {"$optional": true, "$any_of": ["units"]}, "base": {"$any_of": [10]}}
//
// with Exact (no other arguments, at any depth) and Normalize (strings
// compared as BFCL's standardize_string does). What BFCL reads from the
// function's description and a case does not hold is not checked: the
// types of the parameters (BFCL refuses 5.0 for an integer parameter;
// here 5.0 equals 5) and which parameters are required beyond the
// possible answer.
func BFCLCall(name string, possibleAnswer json.RawMessage) (ExpectedCall, error) {
	v, err := decodeJSON(possibleAnswer)
	if err != nil {
		return ExpectedCall{}, fmt.Errorf("bfcl %s: not JSON: %w", name, err)
	}
	params, ok := v.(map[string]any)
	if !ok {
		return ExpectedCall{}, fmt.Errorf("bfcl %s: want an object of parameters and their accepted values, got %s", name, jsonKind(v))
	}
	args, err := bfclObject(params)
	if err != nil {
		return ExpectedCall{}, fmt.Errorf("bfcl %s: %w", name, err)
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return ExpectedCall{}, fmt.Errorf("bfcl %s: %w", name, err)
	}
	return ExpectedCall{Name: name, Args: raw, Exact: true, Normalize: true}, nil
}

// bfclObject converts a BFCL object: each key's list of accepted values.
func bfclObject(params map[string]any) (map[string]any, error) {
	out := make(map[string]any, len(params))
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range params {
			if !yield(k) {
				return
			}
		}
	}) {
		m, err := bfclParam(params[k])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		out[k] = m
	}
	return out, nil
}

// bfclParam converts a parameter's list of accepted values to a matcher.
func bfclParam(v any) (map[string]any, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("want a list of accepted values, got %s", jsonKind(v))
	}
	m := map[string]any{}
	var alts []any
	for i, a := range list {
		if a == "" {
			m["$optional"] = true
			continue
		}
		c, err := bfclValue(a)
		if err != nil {
			return nil, fmt.Errorf("[%d]: %w", i, err)
		}
		alts = append(alts, c)
	}
	if len(alts) > 0 {
		m["$any_of"] = alts
	}
	if len(m) == 0 {
		return nil, fmt.Errorf("an empty list accepts nothing")
	}
	return m, nil
}

// bfclValue converts an accepted value: a dictionary is one of BFCL's
// dictionaries of lists, a list's dictionaries too; anything else is
// itself.
func bfclValue(v any) (any, error) {
	switch x := v.(type) {
	case map[string]any:
		o, err := bfclObject(x)
		if err != nil {
			return nil, err
		}
		return map[string]any{"$exact": o}, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			if d, ok := e.(map[string]any); ok {
				o, err := bfclObject(d)
				if err != nil {
					return nil, fmt.Errorf("[%d]: %w", i, err)
				}
				out[i] = map[string]any{"$exact": o}
				continue
			}
			out[i] = map[string]any{"$eq": e}
		}
		return out, nil
	}
	return map[string]any{"$eq": v}, nil
}
