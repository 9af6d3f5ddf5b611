package promptfoo

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// fileRef returns the path a file:// reference names, relative to dir,
// and whether s is one.
func fileRef(dir string, s string) (string, bool) {
	p, ok := strings.CutPrefix(s, "file://")
	if !ok {
		return "", false
	}
	// file://path.js:functionName names a function of a file.
	if i := strings.LastIndex(p, ":"); i > 1 && !strings.Contains(p[i:], "/") {
		p = p[:i]
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	return p, true
}

// glob expands a path with * or ? in it, in sorted order; a path without
// them is returned as it is.
func glob(p string) ([]string, error) {
	if !strings.ContainsAny(p, "*?[") {
		return []string{p}, nil
	}
	matches, err := filepath.Glob(p)
	if err != nil {
		return nil, err
	}
	if len(matches) == 0 {
		return nil, fmt.Errorf("%s matches no file", p)
	}
	sort.Strings(matches)
	return matches, nil
}

// readData reads a YAML or JSON file (JSON is YAML) into plain values.
func readData(path string) (any, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return plain(v), nil
}

// readJSONL reads a JSON Lines file, a value a line.
func readJSONL(path string) ([]any, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []any
	for i, line := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var v any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, i+1, err)
		}
		out = append(out, v)
	}
	return out, nil
}

// readCSV reads a CSV file of tests as promptfoo does: a column a
// variable, and the special columns __expected (__expected1, ...: an
// assertion each, in promptfoo's string syntax), __description,
// __metric and __threshold.
func readCSV(path string) ([]any, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	rows, err := r.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(rows) == 0 {
		return nil, nil
	}
	header := rows[0]
	var tests []any
	for _, row := range rows[1:] {
		vars := map[string]any{}
		test := map[string]any{}
		var asserts []any
		metric := ""
		for i, col := range header {
			if i >= len(row) {
				break
			}
			col = strings.TrimPrefix(strings.TrimSpace(col), "\ufeff")
			v := row[i]
			switch {
			case strings.HasPrefix(col, "__expected"):
				if strings.TrimSpace(v) != "" {
					asserts = append(asserts, assertionString(v))
				}
			case col == "__description":
				test["description"] = v
			case col == "__metric":
				metric = v
			case col == "__threshold":
				test["threshold"] = v
			case strings.HasPrefix(col, "__"):
				test[col] = v // reported as not converted
			default:
				vars[col] = v
			}
		}
		if metric != "" {
			for _, a := range asserts {
				a.(map[string]any)["metric"] = metric
			}
		}
		test["vars"] = vars
		if len(asserts) > 0 {
			test["assert"] = asserts
		}
		tests = append(tests, test)
	}
	return tests, nil
}

// assertionString reads promptfoo's one-line assertion syntax of CSV
// columns: "type:value", "type(threshold):value", "not-type:value"; a
// value with no known prefix is an equals; "grade:" and "llm-rubric:"
// are rubrics, "fn:" and "javascript:" JavaScript.
func assertionString(s string) map[string]any {
	aliases := map[string]string{"grade": "llm-rubric", "fn": "javascript", "eval": "javascript"}
	known := []string{"contains-any", "contains-all", "icontains-any", "icontains-all", "contains-json", "is-json",
		"contains", "icontains", "starts-with", "regex", "equals", "similar", "llm-rubric", "grade", "factuality",
		"model-graded-closedqa", "answer-relevance", "javascript", "fn", "eval", "python", "levenshtein", "rouge-n",
		"bleu", "cost", "latency", "is-valid-openai-function-call", "is-valid-openai-tools-call", "tool-call-f1"}
	if strings.HasPrefix(s, "file://") {
		return map[string]any{"type": "javascript", "value": s}
	}
	if s == "is-json" || s == "contains-json" {
		return map[string]any{"type": s}
	}
	body, negated := s, false
	if rest, ok := strings.CutPrefix(s, "not-"); ok {
		body, negated = rest, true
	}
	for _, k := range known {
		rest, ok := strings.CutPrefix(body, k)
		if !ok {
			continue
		}
		a := map[string]any{}
		if strings.HasPrefix(rest, "(") {
			end := strings.Index(rest, ")")
			if end < 0 {
				continue
			}
			var t float64
			if _, err := fmt.Sscan(rest[1:end], &t); err == nil {
				a["threshold"] = t
			}
			rest = rest[end+1:]
		}
		value, ok := strings.CutPrefix(rest, ":")
		if !ok && rest != "" {
			continue
		}
		typ := k
		if alias, ok := aliases[k]; ok {
			typ = alias
		}
		if negated {
			typ = "not-" + typ
		}
		a["type"] = typ
		if strings.HasSuffix(k, "-any") || strings.HasSuffix(k, "-all") {
			var items []any
			for _, v := range strings.Split(value, ",") {
				items = append(items, strings.TrimSpace(v))
			}
			a["value"] = items
		} else if ok {
			a["value"] = value
		}
		return a
	}
	return map[string]any{"type": "equals", "value": s}
}

// plain turns what yaml.v3 decodes (map[string]interface{}, with keys
// that may not be strings) into maps with string keys, all the way down.
func plain(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = plain(e)
		}
		return x
	case map[any]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[fmt.Sprint(k)] = plain(e)
		}
		return m
	case []any:
		for i, e := range x {
			x[i] = plain(e)
		}
		return x
	case int:
		return x
	}
	return v
}
