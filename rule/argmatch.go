package rule

import (
	"fmt"
	"math"
	"math/big"
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// The matcher language of expected tool-call arguments.
//
// An argument's expected value is a plain JSON value, compared as JSON
// (numbers by value, strings exactly, arrays element by element in
// order), or a matcher: an object whose keys all start with "$". An
// object without such keys lists the keys that matter (a subset: the
// agent's object may hold more, unless the call is Exact). The keys of a
// matcher:
//
//	$eq: v            exactly v, as JSON (objects with no more keys, no matchers inside)
//	$any_of: [a, b]   any of these (each a value or a matcher)
//	$regex: "^A\d+$"  a string matching the regular expression (Go syntax, anywhere unless anchored)
//	$approx: 3.14     a number within $tolerance of it ($tolerance: 0.01; defaults to 1e-6)
//	$subset: {...}    an object holding at least these keys (whatever the call's Exact)
//	$exact: {...}     an object holding these keys and no others (optional ones may be absent)
//	$optional: true   the argument may be absent; present, it must match the rest of the matcher
//	                  (nothing else: any value)
//	$normalize: true  strings compare normalised (see normalizeString), here and below
//
// A matcher without a test ($eq, $any_of, $regex, $approx, $subset,
// $exact) and without $optional is refused: write the value itself.
// {$eq: {...}} writes an object whose keys start with "$" literally.

// matcherKeys are the keys of a matcher, for messages.
var matcherKeys = []string{"$any_of", "$approx", "$eq", "$exact", "$normalize", "$optional", "$regex", "$subset", "$tolerance"}

// defaultTolerance is $approx's tolerance when none is given.
const defaultTolerance = 1e-6

// A pattern is a compiled expected value.
type pattern interface {
	// mismatch says why v does not match, or "" when it does.
	mismatch(v any) string
	// String writes the pattern for reasonings.
	String() string
}

// compileMode is what a pattern inherits from the call and the matchers
// around it.
type compileMode struct {
	exact     bool // objects hold no other keys
	normalize bool // strings compare normalised
}

// compilePattern compiles an expected value. optional is true when the
// value is a matcher with $optional (meaningful for an object's key).
func compilePattern(v any, m compileMode) (p pattern, optional bool, err error) {
	switch x := v.(type) {
	case map[string]any:
		if isMatcher(x) {
			return compileMatcher(x, m)
		}
		o, err := compileObject(x, m.exact, m)
		return o, false, err
	case []any:
		a := arrayPattern{elems: make([]pattern, len(x))}
		for i, e := range x {
			p, _, err := compilePattern(e, m)
			if err != nil {
				return nil, false, fmt.Errorf("[%d]: %w", i, err)
			}
			a.elems[i] = p
		}
		return a, false, nil
	case string:
		if m.normalize {
			return normalizedPattern{want: x}, false, nil
		}
	}
	return literalPattern{want: v, normalize: m.normalize}, false, nil
}

// isMatcher reports whether an object is a matcher: one of its keys
// starts with "$".
func isMatcher(o map[string]any) bool {
	for k := range o {
		if strings.HasPrefix(k, "$") {
			return true
		}
	}
	return false
}

func compileMatcher(x map[string]any, m compileMode) (pattern, bool, error) {
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range x {
			if !yield(k) {
				return
			}
		}
	})
	for _, k := range keys {
		if !strings.HasPrefix(k, "$") {
			return nil, false, fmt.Errorf("%q beside matcher keys (%s): a matcher holds only $ keys; write a literal object as {$eq: {...}}", k, strings.Join(dollarKeys(keys), ", "))
		}
		if !slices.Contains(matcherKeys, k) {
			return nil, false, fmt.Errorf("unknown matcher %q: the matchers are %s", k, strings.Join(matcherKeys, ", "))
		}
	}
	boolKey := func(k string) (bool, error) {
		v, ok := x[k]
		if !ok {
			return false, nil
		}
		b, ok := v.(bool)
		if !ok {
			return false, fmt.Errorf("%s: want true or false, got %s", k, jsonKind(v))
		}
		return b, nil
	}
	optional, err := boolKey("$optional")
	if err != nil {
		return nil, false, err
	}
	normalize, err := boolKey("$normalize")
	if err != nil {
		return nil, false, err
	}
	if normalize {
		m.normalize = true
	}
	var tests []string
	for _, k := range []string{"$any_of", "$approx", "$eq", "$exact", "$regex", "$subset"} {
		if _, ok := x[k]; ok {
			tests = append(tests, k)
		}
	}
	if _, ok := x["$tolerance"]; ok && !slices.Contains(tests, "$approx") {
		return nil, false, fmt.Errorf("$tolerance without $approx")
	}
	switch len(tests) {
	case 0:
		if !optional {
			return nil, false, fmt.Errorf("a matcher with no test: give one of $eq, $any_of, $regex, $approx, $subset, $exact (or $optional: true for any value or none)")
		}
		return anyPattern{}, true, nil
	case 1:
	default:
		return nil, false, fmt.Errorf("one test per matcher: this one gives %s; use $any_of for alternatives", strings.Join(tests, " and "))
	}
	v := x[tests[0]]
	var p pattern
	switch tests[0] {
	case "$eq":
		p = literalPattern{want: v, normalize: m.normalize}
	case "$any_of":
		alts, ok := v.([]any)
		if !ok || len(alts) == 0 {
			return nil, false, fmt.Errorf("$any_of: want a list of accepted values, got %s", jsonKind(v))
		}
		a := anyOfPattern{alts: make([]pattern, len(alts))}
		for i, alt := range alts {
			ap, opt, err := compilePattern(alt, m)
			if err != nil {
				return nil, false, fmt.Errorf("$any_of[%d]: %w", i, err)
			}
			if opt {
				return nil, false, fmt.Errorf("$any_of[%d]: $optional goes on the matcher holding $any_of", i)
			}
			a.alts[i] = ap
		}
		p = a
	case "$regex":
		s, ok := v.(string)
		if !ok {
			return nil, false, fmt.Errorf("$regex: want a string, got %s", jsonKind(v))
		}
		re, err := regexp.Compile(s)
		if err != nil {
			return nil, false, fmt.Errorf("$regex: %w", err)
		}
		p = regexPattern{re: re}
	case "$approx":
		want, ok := jsonNumber(v)
		if !ok {
			return nil, false, fmt.Errorf("$approx: want a number, got %s", jsonKind(v))
		}
		tol := defaultTolerance
		if t, ok := x["$tolerance"]; ok {
			s, ok := jsonNumber(t)
			f, err := parseFloat(s)
			if !ok || err != nil || f < 0 || math.IsNaN(f) || math.IsInf(f, 0) {
				return nil, false, fmt.Errorf("$tolerance: want a number of at least 0, got %s", renderJSON(t, 40))
			}
			tol = f
		}
		w, err := parseFloat(want)
		if err != nil || math.IsInf(w, 0) {
			return nil, false, fmt.Errorf("$approx: %s is not a number a float64 holds", want)
		}
		p = approxPattern{want: w, tolerance: tol}
	case "$subset", "$exact":
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, false, fmt.Errorf("%s: want an object, got %s", tests[0], jsonKind(v))
		}
		o, err := compileObject(obj, tests[0] == "$exact", m)
		if err != nil {
			return nil, false, fmt.Errorf("%s: %w", tests[0], err)
		}
		p = o
	}
	return p, optional, nil
}

func dollarKeys(keys []string) []string {
	var out []string
	for _, k := range keys {
		if strings.HasPrefix(k, "$") {
			out = append(out, k)
		}
	}
	return out
}

// compileObject compiles an object of expected keys. exact refuses other
// keys; the mode passes down to nested objects.
func compileObject(x map[string]any, exact bool, m compileMode) (objectPattern, error) {
	o := objectPattern{exact: exact, keys: slices.Sorted(func(yield func(string) bool) {
		for k := range x {
			if !yield(k) {
				return
			}
		}
	}), fields: map[string]pattern{}, optional: map[string]bool{}}
	for _, k := range o.keys {
		p, opt, err := compilePattern(x[k], m)
		if err != nil {
			return objectPattern{}, fmt.Errorf("%s: %w", k, err)
		}
		o.fields[k], o.optional[k] = p, opt
	}
	return o, nil
}

// parseFloat reads a JSON number's text as a float64.
func parseFloat(s string) (float64, error) {
	r, ok := decimalRat(s)
	if !ok {
		return 0, fmt.Errorf("%s is not a number", s)
	}
	f, _ := r.Float64()
	return f, nil
}

// literalPattern is a plain value, compared as JSON; with normalize,
// strings within compare normalised.
type literalPattern struct {
	want      any
	normalize bool
}

func (l literalPattern) mismatch(v any) string {
	if l.normalize {
		if jsonEqual(normalizeStrings(l.want), normalizeStrings(v)) {
			return ""
		}
	} else if jsonEqual(l.want, v) {
		return ""
	}
	return fmt.Sprintf("expected %s, got %s", l, renderJSON(v, 60))
}

func (l literalPattern) String() string { return renderJSON(l.want, 60) }

// normalizedPattern is a string compared normalised.
type normalizedPattern struct{ want string }

func (n normalizedPattern) mismatch(v any) string {
	s, ok := v.(string)
	if ok && normalizeString(s) == normalizeString(n.want) {
		return ""
	}
	return fmt.Sprintf("expected %s (normalised), got %s", n, renderJSON(v, 60))
}

func (n normalizedPattern) String() string { return renderJSON(n.want, 60) }

// normalizeString is BFCL's standardize_string: it drops white space and
// the punctuation , . / - _ * ^, lower-cases, and turns ' into ", so that
// "April 1, 2024" and "april 1 2024" compare equal.
func normalizeString(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case unicode.IsSpace(r), strings.ContainsRune(",./-_*^", r):
		case r == '\'':
			b.WriteRune('"')
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// normalizeStrings normalises every string within a decoded JSON value.
func normalizeStrings(v any) any {
	switch x := v.(type) {
	case string:
		return normalizeString(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normalizeStrings(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = normalizeStrings(e)
		}
		return out
	}
	return v
}

// anyPattern matches every value.
type anyPattern struct{}

func (anyPattern) mismatch(any) string { return "" }
func (anyPattern) String() string      { return "any value" }

// anyOfPattern matches a value that matches one of its alternatives.
type anyOfPattern struct{ alts []pattern }

func (a anyOfPattern) mismatch(v any) string {
	for _, p := range a.alts {
		if p.mismatch(v) == "" {
			return ""
		}
	}
	return fmt.Sprintf("expected %s, got %s", a, renderJSON(v, 60))
}

func (a anyOfPattern) String() string {
	s := make([]string, len(a.alts))
	for i, p := range a.alts {
		s[i] = p.String()
	}
	return "one of " + strings.Join(s, ", ")
}

// regexPattern matches a string the expression finds a match in.
type regexPattern struct{ re *regexp.Regexp }

func (r regexPattern) mismatch(v any) string {
	if s, ok := v.(string); ok && r.re.MatchString(s) {
		return ""
	}
	return fmt.Sprintf("expected %s, got %s", r, renderJSON(v, 60))
}

func (r regexPattern) String() string { return "a string matching /" + r.re.String() + "/" }

// approxPattern matches a number within tolerance of want.
type approxPattern struct{ want, tolerance float64 }

func (a approxPattern) mismatch(v any) string {
	if s, ok := jsonNumber(v); ok {
		if r, ok := decimalRat(s); ok {
			diff := new(big.Rat).Sub(r, new(big.Rat).SetFloat64(a.want))
			d, _ := diff.Abs(diff).Float64()
			if d <= a.tolerance {
				return ""
			}
		}
	}
	return fmt.Sprintf("expected %s, got %s", a, renderJSON(v, 60))
}

func (a approxPattern) String() string { return fmt.Sprintf("%g ± %g", a.want, a.tolerance) }

// arrayPattern matches an array of as many elements, each matching in
// order.
type arrayPattern struct{ elems []pattern }

func (a arrayPattern) mismatch(v any) string {
	got, ok := v.([]any)
	if !ok || len(got) != len(a.elems) {
		return fmt.Sprintf("expected %s, got %s", a, renderJSON(v, 60))
	}
	for i, p := range a.elems {
		if m := p.mismatch(got[i]); m != "" {
			return fmt.Sprintf("[%d]: %s", i, m)
		}
	}
	return ""
}

func (a arrayPattern) String() string {
	s := make([]string, len(a.elems))
	for i, p := range a.elems {
		s[i] = p.String()
	}
	return "[" + strings.Join(s, ",") + "]"
}

// objectPattern matches an object holding the expected keys (those not
// optional), each matching; exact refuses other keys.
type objectPattern struct {
	exact    bool
	keys     []string // sorted
	fields   map[string]pattern
	optional map[string]bool
}

func (o objectPattern) mismatch(v any) string {
	got, ok := v.(map[string]any)
	if !ok {
		return fmt.Sprintf("expected an object, got %s", renderJSON(v, 60))
	}
	if m := o.keysMismatch(got, "key"); m != "" {
		return m
	}
	return ""
}

// keysMismatch compares got's keys; noun names them in messages
// ("argument" for a call's arguments, "key" within).
func (o objectPattern) keysMismatch(got map[string]any, noun string) string {
	for _, k := range o.keys {
		gv, ok := got[k]
		switch {
		case !ok && o.optional[k]:
		case !ok:
			return fmt.Sprintf("%s %q missing (expected %s)", noun, k, o.fields[k])
		default:
			if m := o.fields[k].mismatch(gv); m != "" {
				return fmt.Sprintf("%s %q %s", noun, k, m)
			}
		}
	}
	if o.exact {
		var extra []string
		for k := range got {
			if _, ok := o.fields[k]; !ok {
				extra = append(extra, k)
			}
		}
		if len(extra) > 0 {
			slices.Sort(extra)
			return fmt.Sprintf("unexpected %s %s (no other %ss allowed)", noun, quoteAll(extra), noun)
		}
	}
	return ""
}

func (o objectPattern) String() string {
	s := make([]string, len(o.keys))
	for i, k := range o.keys {
		opt := ""
		if o.optional[k] {
			opt = "?"
		}
		s[i] = fmt.Sprintf("%q%s:%s", k, opt, o.fields[k])
	}
	return "{" + strings.Join(s, ",") + "}"
}
