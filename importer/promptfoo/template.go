package promptfoo

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// promptfoo writes prompts and assertion values as Nunjucks templates.
// Gavel renders the part of Nunjucks that most configurations use:
// {{ var }}, {{ var.field }}, {{ var[0] }} and the filters trim, upper,
// lower, dump and safe. Anything else ({% if %}, {% for %}, other
// filters, expressions) is reported, never sent half rendered.

var (
	expression = regexp.MustCompile(`\{\{-?\s*(.*?)\s*-?\}\}`)
	variable   = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*|\[\d+\])*$`)
	pathPart   = regexp.MustCompile(`\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]`)
)

// renderError says which template feature Gavel does not render.
type renderError struct{ feature string }

func (e *renderError) Error() string {
	return fmt.Sprintf("the template uses %s, which gavel import does not render", e.feature)
}

// render fills in s's {{ }} expressions from vars. A variable that vars
// lack renders empty, as in Nunjucks, and is returned in missing.
func render(s string, vars map[string]any) (out string, missing []string, err error) {
	if strings.Contains(s, "{%") {
		stmt := s[strings.Index(s, "{%"):]
		if end := strings.Index(stmt, "%}"); end >= 0 {
			stmt = stmt[:end+2]
		}
		return "", nil, &renderError{feature: fmt.Sprintf("the statement %q", excerpt(stmt, 40))}
	}
	var firstErr error
	out = expression.ReplaceAllStringFunc(s, func(m string) string {
		expr := expression.FindStringSubmatch(m)[1]
		parts := strings.Split(expr, "|")
		name := strings.TrimSpace(parts[0])
		if !variable.MatchString(name) {
			if firstErr == nil {
				firstErr = &renderError{feature: fmt.Sprintf("the expression %q", excerpt(m, 40))}
			}
			return m
		}
		v, ok := lookup(vars, name)
		if !ok {
			missing = append(missing, name)
			v = ""
		}
		text := varText(v)
		for _, f := range parts[1:] {
			switch strings.TrimSpace(f) {
			case "trim":
				text = strings.TrimSpace(text)
			case "upper":
				text = strings.ToUpper(text)
			case "lower":
				text = strings.ToLower(text)
			case "dump":
				data, _ := json.Marshal(v)
				text = string(data)
			case "safe":
			default:
				if firstErr == nil {
					firstErr = &renderError{feature: fmt.Sprintf("the filter %q", strings.TrimSpace(f))}
				}
			}
		}
		return text
	})
	if firstErr != nil {
		return "", nil, firstErr
	}
	return out, missing, nil
}

// lookup finds a variable by its path: name, name.field, name[0].
func lookup(vars map[string]any, path string) (any, bool) {
	root := path
	if i := strings.IndexAny(path, ".["); i >= 0 {
		root = path[:i]
	}
	v, ok := vars[root]
	if !ok {
		return nil, false
	}
	for _, m := range pathPart.FindAllStringSubmatch(path[len(root):], -1) {
		switch x := v.(type) {
		case map[string]any:
			if v, ok = x[m[1]]; !ok {
				return nil, false
			}
		case []any:
			i, _ := strconv.Atoi(m[2])
			if m[2] == "" || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// varText is a variable as Nunjucks prints it: strings as they are,
// numbers and booleans as written, objects and lists as JSON (promptfoo
// turns them into JSON before rendering).
func varText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return ""
	case map[string]any, []any:
		data, _ := json.Marshal(x)
		return string(data)
	}
	return fmt.Sprint(v)
}

// excerpt is s on one line, cut to n runes.
func excerpt(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
