package llmjudge

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// The parsers read a model's answer leniently but safely. They find the
// verdict in any of these forms:
//
//  1. a JSON object: the whole answer, inside ``` fences, or in prose;
//  2. XML-like tags: <score>0.8</score><reasoning>…</reasoning>.
//
// Then they check every field: present, of the right type, in range. And
// they check that the answer says one thing: an answer is unambiguous when
// every verdict it holds (each JSON object with a verdict's field, and the
// tags) reads the same, and it gives no verdict anywhere else. These are
// errors, never guesses, for a parser must not turn garbage into a pass:
//
//   - two verdicts that differ: tags and a JSON object, two JSON objects,
//     a tag or a key given twice (0.1 in tags, then {"score": 1} as a
//     "format reminder");
//   - a verdict in a field the format does not have, at any depth, even
//     one that seems to agree: {"score": 1, "pass": false}, {"score": 1,
//     "verdict": "FAIL"}, {"Score": …}, {"details": {"score": 0}},
//     <verdict>FAIL</verdict>. Whether "pass": true agrees with a score of
//     0.6 depends on a threshold the model is not told;
//   - a verdict stated in the prose around it: "Verdict: FAIL", a PASS or
//     FAIL in capitals, "score: 1/10";
//   - a verdict that is not valid JSON beside one that is;
//   - a score out of range, NaN, infinite, hex, a fraction, a percentage;
//     a missing field.
//
// The same verdict given twice (the object in prose and in fences, the
// object and tags saying the same) is one verdict, and is accepted.

const (
	// maxAnswer bounds the answers read. A verdict is a few hundred bytes;
	// the bound keeps the search for an object in prose cheap.
	maxAnswer = 64 << 10
	// maxCandidates bounds how many '{' the search in prose tries.
	maxCandidates = 256
	// maxDepth bounds the nesting of a JSON answer.
	maxDepth = 32
)

// errNoVerdict is the error for an answer with nothing to read in it.
var errNoVerdict = errors.New("no JSON object found in the answer")

// A format is the answer a parser asks for.
type format struct {
	// shape is the answer's fields, and which of them nest.
	shape shape
	// decisions are the top-level fields that hold the verdict ("score");
	// a key that reads as one of them elsewhere is a second verdict.
	decisions []string
	// where says where the verdict goes, for the re-ask: `"score"`.
	where string
}

// unambiguous finds the one verdict in answer and reads it with read (see
// the rules above).
func unambiguous[V any](answer string, f format, read func(map[string]any) (V, error)) (V, error) {
	var zero V
	text := strings.TrimSpace(answer)
	switch {
	case text == "":
		return zero, errors.New("the answer is empty")
	case len(text) > maxAnswer:
		return zero, fmt.Errorf("the answer is %d bytes long, longer than any verdict", len(text))
	}
	fd, err := f.find(text)
	if err != nil {
		return zero, err
	}
	if len(fd.verdicts) == 0 {
		return zero, noVerdict(fd, read)
	}
	if fd.badVerdict != nil {
		return zero, fmt.Errorf("the answer holds a verdict that is not valid JSON (%w) beside another: give exactly one", fd.badVerdict)
	}
	var first V
	for i, m := range fd.verdicts {
		v, err := read(m)
		switch {
		case err != nil:
			return zero, err
		case i == 0:
			first = v
		case !reflect.DeepEqual(first, v):
			return zero, fmt.Errorf("the answer holds two different verdicts (%s): give exactly one", fd.forms())
		}
	}
	if said := proseVerdict(fd.prose); said != "" {
		return zero, f.second(fmt.Sprintf("the text around it (%s)", quoteShort(said)))
	}
	return first, nil
}

// A found is what find found in an answer: the scan's JSON verdicts,
// followed by the verdict read from tags, if any.
type found struct {
	scan
	// tags says whether the last of verdicts was read from tags.
	tags bool
	// prose is the answer without its JSON objects and tags.
	prose string
}

// find collects the verdicts of text, JSON objects and tags, and refuses
// a verdict given where the format has none.
func (f format) find(text string) (found, error) {
	fd := found{scan: f.scan(text)}
	for _, m := range fd.verdicts {
		if path := f.stray(m, f.shape, ""); path != "" {
			return fd, f.second(path)
		}
	}
	tags, err := fromTags(fd.rest, f.shape)
	if err != nil {
		return fd, err
	}
	prose, tag := f.outsideTags(fd.rest, f.shape)
	if tag != "" {
		return fd, f.second("<" + tag + ">")
	}
	fd.prose = prose
	if tags != nil && (len(fd.verdicts) == 0 || f.decides(tags)) {
		fd.verdicts, fd.tags = append(fd.verdicts, tags), true
	}
	return fd, nil
}

// noVerdict is the error for an answer without a verdict: what read says
// of an object without one (which field is missing), else why no object
// could be read.
func noVerdict[V any](fd found, read func(map[string]any) (V, error)) error {
	if fd.other != nil {
		if _, err := read(fd.other); err != nil {
			return err
		}
	}
	if fd.bad != nil {
		return fmt.Errorf("no usable JSON object in the answer: %w", fd.bad)
	}
	return errNoVerdict
}

// second is the error for a verdict found where the format puts none.
func (f format) second(where string) error {
	return fmt.Errorf("the answer gives a verdict in %s: give the verdict once, only as %s", where, f.where)
}

// forms names the forms two different verdicts came in.
func (fd found) forms() string {
	objects := len(fd.verdicts)
	if !fd.tags {
		return fmt.Sprintf("%d JSON objects", objects)
	}
	if objects--; objects == 1 {
		return "a JSON object and the tags"
	}
	return fmt.Sprintf("%d JSON objects and the tags", objects)
}

// A scan is what the search for JSON objects found in an answer.
type scan struct {
	// verdicts are the objects that hold a verdict's field, at any depth.
	verdicts []map[string]any
	// other is the first object without a verdict's field.
	other map[string]any
	// rest is the answer with every JSON object replaced by "{}".
	rest string
	// bad is why the first span that looked like a JSON object (a brace,
	// then a quote) did not decode, for the error when nothing else is
	// found; badVerdict is why the first such span that names a verdict's
	// field did not.
	bad, badVerdict error
}

// scan finds the outermost JSON objects of text: each balanced span from a
// '{' that decodes as one object.
func (f format) scan(text string) scan {
	var out scan
	var rest strings.Builder
	tries, copied := 0, 0
	for i := 0; i < len(text) && tries < maxCandidates; i++ {
		if text[i] != '{' {
			continue
		}
		tries++
		end := balanced(text, i)
		if end < 0 {
			continue
		}
		m, err := decodeObject(text[i:end])
		if err != nil {
			span := text[i+1 : end]
			if strings.HasPrefix(strings.TrimLeft(span, " \t\r\n"), `"`) {
				if out.bad == nil {
					out.bad = err
				}
				if out.badVerdict == nil && f.namesVerdict(span) {
					out.badVerdict = err
				}
			}
			continue
		}
		if f.holdsVerdict(m) {
			out.verdicts = append(out.verdicts, m)
		} else if out.other == nil {
			out.other = m
		}
		rest.WriteString(text[copied:i])
		rest.WriteString("{}")
		copied = end
		i = end - 1
	}
	rest.WriteString(text[copied:])
	out.rest = rest.String()
	return out
}

// jsonKey matches a quoted key in text that is not valid JSON.
var jsonKey = regexp.MustCompile(`"((?:[^"\\]|\\.){1,64})"\s*:`)

// namesVerdict reports whether span, text that did not decode, has a key
// that gives a verdict.
func (f format) namesVerdict(span string) bool {
	for _, m := range jsonKey.FindAllStringSubmatch(span, -1) {
		if f.verdictKey(m[1]) {
			return true
		}
	}
	return false
}

// holdsVerdict reports whether v has, at any depth, a key that gives a
// verdict.
func (f format) holdsVerdict(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if f.verdictKey(k) || f.holdsVerdict(x) {
				return true
			}
		}
	case []any:
		for _, x := range v {
			if f.holdsVerdict(x) {
				return true
			}
		}
	}
	return false
}

// decides reports whether m, read from tags, has one of the verdict's
// fields.
func (f format) decides(m map[string]any) bool {
	for _, k := range f.decisions {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

// stray returns the path of the first key of m, at any depth, that gives
// a verdict outside the fields of s ("details"."verdict"), or "". The
// values of s's leaves are not searched: a field of the wrong type is
// read's error.
func (f format) stray(m map[string]any, s shape, path string) string {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		p := path + strconv.Quote(k)
		if inner, ok := s[k]; ok {
			if o, isObject := m[k].(map[string]any); isObject && inner != nil {
				if q := f.stray(o, inner, p+"."); q != "" {
					return q
				}
			}
			continue
		}
		if f.verdictKey(k) {
			return p
		}
		if q := f.strayIn(m[k], p); q != "" {
			return q
		}
	}
	return ""
}

// strayIn searches a value outside the format, at path, for a verdict's
// key.
func (f format) strayIn(v any, path string) string {
	switch v := v.(type) {
	case map[string]any:
		return f.stray(v, nil, path+".")
	case []any:
		for i, x := range v {
			if q := f.strayIn(x, path+"["+strconv.Itoa(i)+"]"); q != "" {
				return q
			}
		}
	}
	return ""
}

// verdictWords are the parts of a key or tag name that give a verdict
// ("final_score", "passed", "Verdict"), and verdictNames the whole names
// that do, once lower-cased and stripped of all but letters and digits.
var (
	verdictWords = []string{"score", "verdict", "pass", "fail", "grade", "rating", "winner", "judgment", "judgement", "decision", "outcome"}
	verdictNames = []string{"status", "result", "results", "label", "correct", "iscorrect", "success", "successful", "approved", "preferred", "preference", "choice", "better", "needsfollowup"}
)

// verdictKey reports whether a key or tag name gives a verdict: it is one
// of the format's decisions, whatever its case and punctuation, or a name
// that means a verdict.
func (f format) verdictKey(name string) bool {
	n := squash(name)
	if n == "" {
		return false
	}
	for _, d := range f.decisions {
		if n == squash(d) {
			return true
		}
	}
	for _, w := range verdictWords {
		if strings.Contains(n, w) {
			return true
		}
	}
	return slices.Contains(verdictNames, n)
}

// squash lower-cases s and keeps its letters and digits.
func squash(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			return unicode.ToLower(r)
		}
		return -1
	}, s)
}

// tagName matches an opening (or self-closing) XML-like tag.
var tagName = regexp.MustCompile(`<\s*([A-Za-z_][A-Za-z0-9_.:-]*)[^<>]*>`)

// outsideTags returns text without the spans of s's tags (<key>…</key>),
// and the name of the first tag left outside them, or in a nested field's
// content, that gives a verdict.
func (f format) outsideTags(text string, s shape) (rest, stray string) {
	rest = text
	for _, key := range slices.Sorted(maps.Keys(s)) {
		open, close := "<"+key+">", "</"+key+">"
		for {
			i := strings.Index(rest, open)
			if i < 0 {
				break
			}
			j := strings.Index(rest[i+len(open):], close)
			if j < 0 {
				break
			}
			content := rest[i+len(open) : i+len(open)+j]
			if inner := s[key]; inner != nil {
				if _, tag := f.outsideTags(content, inner); tag != "" {
					return "", key + "><" + tag
				}
			}
			rest = rest[:i] + " " + rest[i+len(open)+j+len(close):]
		}
	}
	for _, m := range tagName.FindAllStringSubmatch(rest, -1) {
		if f.verdictKey(m[1]) {
			return "", m[1]
		}
	}
	return rest, ""
}

// The prose around a verdict states another when it says PASS or FAIL in
// capitals, labels a value as a verdict ("Verdict: FAIL", "score = 7",
// "winner: B", "my score is 0.9"), or gives a fraction ("1/10", "7 out
// of 10"). Lower-case words are not read ("the reply fails to…"): prose
// is not parsed, only refused when it plainly speaks as a verdict.
var proseVerdicts = []*regexp.Regexp{
	regexp.MustCompile(`(?i)\b(?:score|verdict|rating|grade|result|decision|outcome|status|judge?ment|pass(?:ed)?|fail(?:ed)?|needs_followup)\b["']?\s*[:=]\s*[*_"'“]*\s*(?:[+-]?\.?\d|pass|fail|true\b|false\b|yes\b|no\b)`),
	regexp.MustCompile(`(?i)\b(?:winner|preference|better)\b["']?\s*(?:[:=]|\bis\b)\s*[*_"'“]*\s*(?:a|b|tie)\b`),
	regexp.MustCompile(`(?i)\b(?:score|rating|grade)\s+(?:is|of)\s+[*_"'“]*[+-]?\.?\d`),
	regexp.MustCompile(`(?i)\b\d+(?:\.\d+)?\s*(?:/|out of)\s*\d+\b`),
	regexp.MustCompile(`\b(?:PASS(?:ED|ES|ING)?|FAIL(?:ED|S|ING|URE)?)\b`),
}

// proseVerdict returns the first verdict stated in prose, or "".
func proseVerdict(prose string) string {
	for _, re := range proseVerdicts {
		if m := re.FindString(prose); m != "" {
			return m
		}
	}
	return ""
}

// balanced returns the end (exclusive) of the brace-balanced span of text
// that starts with the '{' at start, skipping braces inside JSON strings,
// or -1.
func balanced(text string, start int) int {
	depth, inString, escaped := 0, false, false
	for i := start; i < len(text); i++ {
		c := text[i]
		switch {
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case inString && c == '"':
			inString = false
		case inString:
		case c == '"':
			inString = true
		case c == '{':
			depth++
		case c == '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return -1
}

// decodeObject decodes text as exactly one JSON object, keeping numbers as
// json.Number. Unlike json.Unmarshal, it refuses a key given twice (which
// of {"score": 0.1, "score": 0.9} is meant?) and nesting deeper than
// maxDepth.
func decodeObject(text string) (map[string]any, error) {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if tok != json.Delim('{') {
		return nil, errors.New("not a JSON object")
	}
	m, err := readObject(dec, 1)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("text after the JSON object")
	}
	return m, nil
}

func readObject(dec *json.Decoder, depth int) (map[string]any, error) {
	m := map[string]any{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, ok := tok.(string)
		if !ok {
			return nil, errors.New("object key is not a string")
		}
		if _, dup := m[key]; dup {
			return nil, fmt.Errorf("key %q appears twice", key)
		}
		v, err := readValue(dec, depth)
		if err != nil {
			return nil, err
		}
		m[key] = v
	}
	if _, err := dec.Token(); err != nil { // the closing '}'
		return nil, err
	}
	return m, nil
}

func readValue(dec *json.Decoder, depth int) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return tok, nil
	}
	if depth >= maxDepth {
		return nil, errors.New("JSON nested too deeply")
	}
	if d == '{' {
		return readObject(dec, depth+1)
	}
	var list []any
	for dec.More() {
		v, err := readValue(dec, depth+1)
		if err != nil {
			return nil, err
		}
		list = append(list, v)
	}
	if _, err := dec.Token(); err != nil { // the closing ']'
		return nil, err
	}
	return list, nil
}

// A shape tells the reading of XML-like tags which keys a verdict has and
// which of them hold nested keys (a nil shape is a leaf).
type shape map[string]shape

// fromTags reads a verdict written as XML-like tags,
// <score>7</score><reasoning>…</reasoning>, nested as shape says: leaves
// become strings. It returns nil when none of shape's keys is tagged. A
// tag given twice with different contents is an error.
func fromTags(text string, s shape) (map[string]any, error) {
	m := map[string]any{}
	for _, key := range slices.Sorted(maps.Keys(s)) {
		inner := s[key]
		content, ok, err := tagContent(text, key)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		if inner == nil {
			m[key] = unescapeXML(strings.TrimSpace(content))
			continue
		}
		nested, err := fromTags(content, inner)
		if err != nil {
			return nil, fmt.Errorf("<%s>: %w", key, err)
		}
		if nested == nil {
			nested = map[string]any{}
		}
		m[key] = nested
	}
	if len(m) == 0 {
		return nil, nil
	}
	return m, nil
}

// tagContent returns what lies between <key> and the next </key>.
func tagContent(text, key string) (string, bool, error) {
	open, close := "<"+key+">", "</"+key+">"
	var found string
	ok := false
	for rest := text; ; {
		i := strings.Index(rest, open)
		if i < 0 {
			break
		}
		rest = rest[i+len(open):]
		j := strings.Index(rest, close)
		if j < 0 {
			break
		}
		content := rest[:j]
		rest = rest[j+len(close):]
		if ok && strings.TrimSpace(content) != strings.TrimSpace(found) {
			return "", false, fmt.Errorf("<%s> is given twice with different contents: give exactly one", key)
		}
		found, ok = content, true
	}
	return found, ok, nil
}

var xmlEntities = strings.NewReplacer("&lt;", "<", "&gt;", ">", "&quot;", `"`, "&apos;", "'", "&amp;", "&")

func unescapeXML(s string) string { return xmlEntities.Replace(s) }

// decimal is how a number may be written as text: no NaN, no infinity, no
// hex, no fractions, no percent.
var decimal = regexp.MustCompile(`^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$`)

// number reads m[key] as a finite number within lo..hi. It accepts a JSON
// number or a string holding a plain decimal number (as tags give, and as
// models sometimes quote).
func number(m map[string]any, key string, lo, hi float64) (float64, error) {
	v, ok := m[key]
	if !ok {
		return 0, fmt.Errorf("%q is missing", key)
	}
	var text string
	switch v := v.(type) {
	case json.Number:
		text = string(v)
	case string:
		text = strings.TrimSpace(v)
		if !decimal.MatchString(text) {
			return 0, fmt.Errorf("%q is %s, want a number from %s to %s", key, quoteShort(v), formatNum(lo), formatNum(hi))
		}
	default:
		return 0, fmt.Errorf("%q is %s, want a number from %s to %s", key, typeName(v), formatNum(lo), formatNum(hi))
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("%q is %s, not a finite number", key, quoteShort(text))
	}
	if f < lo || f > hi {
		return 0, fmt.Errorf("%q is %s, outside %s..%s", key, quoteShort(text), formatNum(lo), formatNum(hi))
	}
	return f, nil
}

// text reads m[key] as a string; required says it must not be blank.
func text(m map[string]any, key string, required bool) (string, error) {
	v, ok := m[key]
	if !ok {
		if required {
			return "", fmt.Errorf("%q is missing", key)
		}
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("%q is %s, want text", key, typeName(v))
	}
	if required && strings.TrimSpace(s) == "" {
		return "", fmt.Errorf("%q is empty", key)
	}
	return strings.TrimSpace(s), nil
}

// boolean reads m[key] as true or false: a JSON boolean, or the text true
// or false (any case), as tags give.
func boolean(m map[string]any, key string) (bool, error) {
	v, ok := m[key]
	if !ok {
		return false, fmt.Errorf("%q is missing", key)
	}
	switch v := v.(type) {
	case bool:
		return v, nil
	case string:
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
		return false, fmt.Errorf("%q is %s, want true or false", key, quoteShort(v))
	}
	return false, fmt.Errorf("%q is %s, want true or false", key, typeName(v))
}

// object reads m[key] as a nested object.
func object(m map[string]any, key string) (map[string]any, error) {
	v, ok := m[key]
	if !ok {
		return nil, fmt.Errorf("%q is missing", key)
	}
	o, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%q is %s, want an object", key, typeName(v))
	}
	return o, nil
}

func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "text"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("a %T", v)
}

// quoteShort quotes s for an error message, cut to 40 runes: parse errors
// go back to the model and into reports.
func quoteShort(s string) string {
	r := []rune(s)
	if len(r) > 40 {
		return strconv.Quote(string(r[:40])) + "…"
	}
	return strconv.Quote(s)
}

// formatNum formats a score for people: at most three decimals.
func formatNum(f float64) string {
	return strconv.FormatFloat(math.Round(f*1000)/1000, 'f', -1, 64)
}
