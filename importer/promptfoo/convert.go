package promptfoo

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/gavelhq/gavel/importer/suitefile"
)

// DefaultJudgeModel is the judge model of a converted suite whose
// configuration names no grader (promptfoo then picks one from the keys
// it finds); GAVEL_JUDGE_MODEL replaces it.
const DefaultJudgeModel = "openai:gpt-5-mini"

// ConfigNames are the files Convert reads in a directory.
var ConfigNames = []string{"promptfooconfig.yaml", "promptfooconfig.yml", "promptfooconfig.json"}

// Convert reads a promptfoo configuration (a file, or a directory holding
// promptfooconfig.yaml) and returns it as a Gavel suite. What has no
// Gavel equivalent is in the suite's report and in its comments. An error
// means the configuration could not be read at all.
func Convert(path string) (*suitefile.Suite, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		for _, name := range ConfigNames {
			if _, err := os.Stat(filepath.Join(path, name)); err == nil {
				path = filepath.Join(path, name)
				break
			}
		}
	}
	v, err := readData(path)
	if err != nil {
		return nil, fmt.Errorf("read the promptfoo configuration: %w", err)
	}
	cfg, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: a promptfoo configuration is a mapping (prompts:, providers:, tests:)", path)
	}
	c := &converter{dir: filepath.Dir(path), file: filepath.Base(path), seen: map[string]bool{}, templates: map[string]map[string]any{}}
	if t, ok := cfg["assertionTemplates"].(map[string]any); ok {
		for name, a := range t {
			if m, ok := a.(map[string]any); ok {
				c.templates[name] = m
			}
		}
	}
	return c.convert(cfg)
}

type converter struct {
	dir, file string
	templates map[string]map[string]any
	suite     suitefile.Suite
	seen      map[string]bool // report lines already in the report
}

// notes collects what became of one case's parts, for its comments and
// the report.
type notes struct {
	c     *converter
	where string
	lines []string
}

func (n *notes) add(kind suitefile.Kind, what, why string) {
	it := suitefile.Item{Kind: kind, Where: n.where, What: what, Why: why}
	line := it.String()
	n.lines = append(n.lines, line)
	if !n.c.seen[line] { // defaultTest's assertions come with every test
		n.c.seen[line] = true
		n.c.suite.Report.Items = append(n.c.suite.Report.Items, it)
	}
}

// ignored are the configuration's keys that change nothing Gavel runs:
// where promptfoo writes its results, how it shares them.
var ignored = []string{"description", "prompts", "providers", "tests", "defaultTest", "evaluateOptions", "assertionTemplates",
	"outputPath", "sharing", "writeLatestResults", "tags", "env", "commandLineOptions", "metadata", "$schema", "targets"}

func (c *converter) convert(cfg map[string]any) (*suitefile.Suite, error) {
	top := &notes{c: c, where: c.file}
	name, _ := cfg["description"].(string)
	if name == "" {
		name = filepath.Base(c.dir)
	}
	s := &c.suite
	s.Head = []string{
		"Converted by gavel import --from promptfoo from " + c.file + ".",
		"Each promptfoo test (for each prompt) is a case of cases.yaml; its assertions are",
		"the case's judges. What has no Gavel equivalent is a comment where it was.",
	}
	s.Fields = suitefile.M{{Key: "name", Value: slug(name)}}
	if name != slug(name) {
		s.Fields = s.Fields.Set("description", name)
	}
	keys := make([]string, 0, len(cfg))
	for k := range cfg {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		switch {
		case slices.Contains(ignored, k):
		case k == "scenarios":
			top.add(suitefile.NotConverted, "scenarios", "a scenario's config × tests matrix is not converted; write its combinations as tests")
		case k == "derivedMetrics":
			top.add(suitefile.NotConverted, "derivedMetrics", "Gavel computes its own statistics of a run (pass rate, intervals, per-criterion means)")
		case k == "redteam":
			top.add(suitefile.NotConverted, "redteam", "red-teaming is not converted")
		default:
			top.add(suitefile.NotConverted, k, "Gavel has no equivalent of this configuration key")
		}
	}
	if opts, ok := cfg["evaluateOptions"].(map[string]any); ok {
		if r, ok := number(opts["repeat"]); ok && r > 1 {
			s.Fields = s.Fields.Set("trials", int(r))
		}
	}

	providers, bad := readProviders(cfg["providers"])
	for _, b := range bad {
		top.add(suitefile.NotConverted, b, "a provider Gavel cannot read")
	}
	prompts := c.readPrompts(cfg["prompts"])
	if len(prompts) == 0 {
		prompts = []prompt{{label: "{{prompt}}", raw: "{{prompt}}"}}
	}
	defaultTest, _ := c.loadTest(cfg["defaultTest"], top).(map[string]any)
	tests := c.loadTests(cfg["tests"], top)
	if len(tests) == 0 && cfg["scenarios"] == nil {
		tests = []map[string]any{{}} // promptfoo runs each prompt once without tests
	}

	cs := c.cases(prompts, tests, defaultTest)
	agent, agentComment := c.agent(providers, cs.system, top)
	s.Fields = append(s.Fields, suitefile.KV{Key: "agent", Value: agent, Comment: agentComment})
	if cs.llm {
		judgeModel := "${GAVEL_JUDGE_MODEL:-" + DefaultJudgeModel + "}"
		if opts, ok := defaultTest["options"].(map[string]any); ok && opts["provider"] != nil {
			if ref, why := graderRef(opts["provider"]); ref != "" {
				judgeModel = "${GAVEL_JUDGE_MODEL:-" + ref + "}"
			} else {
				top.add(suitefile.Approximated, "defaultTest.options.provider", "its grader has no Gavel provider ("+why+"): the judge model is "+DefaultJudgeModel)
			}
		}
		s.Fields = s.Fields.Set("models", suitefile.M{{Key: "judge", Value: judgeModel}})
	}
	// A prompt is answered once: the agent asking a clarifying question
	// is its answer, not a question Gavel should answer.
	s.Fields = s.Fields.Set("max_followups", -1)
	s.Cases = cs.cases
	for _, cs := range s.Cases {
		if cs.Fields != nil {
			s.Report.Cases++
		}
	}
	if len(top.lines) > 0 {
		s.Head = append(s.Head, "")
		s.Head = append(s.Head, top.lines...)
	}
	return s, nil
}

// loadTest reads a test (or defaultTest) that may be a file:// reference.
func (c *converter) loadTest(v any, n *notes) any {
	s, ok := v.(string)
	if !ok {
		return v
	}
	p, ok := fileRef(c.dir, s)
	if !ok {
		n.add(suitefile.NotConverted, "test "+excerpt(s, 40), "a test is a mapping, or a file:// reference")
		return nil
	}
	data, err := readData(p)
	if err != nil {
		n.add(suitefile.NotConverted, s, err.Error())
		return nil
	}
	return data
}

// loadTests reads tests: a list of tests and file:// references, or one
// reference (a glob, a YAML, JSON, JSON Lines or CSV file of tests).
func (c *converter) loadTests(v any, n *notes) []map[string]any {
	var items []any
	switch x := v.(type) {
	case nil:
		return nil
	case []any:
		items = x
	default:
		items = []any{x}
	}
	var out []map[string]any
	for _, item := range items {
		switch x := item.(type) {
		case map[string]any:
			out = append(out, x)
		case string:
			p, ok := fileRef(c.dir, x)
			if !ok {
				p = filepath.Join(c.dir, x)
			}
			paths, err := glob(p)
			if err != nil {
				n.add(suitefile.NotConverted, "tests "+x, err.Error())
				continue
			}
			for _, path := range paths {
				var tests []any
				var err error
				switch strings.ToLower(filepath.Ext(path)) {
				case ".csv":
					tests, err = readCSV(path)
				case ".jsonl":
					tests, err = readJSONL(path)
				case ".yaml", ".yml", ".json":
					var v any
					v, err = readData(path)
					if list, ok := v.([]any); ok {
						tests = list
					} else if v != nil {
						tests = []any{v}
					}
				default:
					err = fmt.Errorf("%s: Gavel reads tests from YAML, JSON, JSON Lines and CSV files (not %s)", filepath.Base(path), filepath.Ext(path))
				}
				if err != nil {
					n.add(suitefile.NotConverted, "tests "+x, err.Error())
					continue
				}
				for _, t := range tests {
					if m, ok := t.(map[string]any); ok {
						out = append(out, m)
					}
				}
			}
		default:
			n.add(suitefile.NotConverted, fmt.Sprintf("test %v", excerpt(fmt.Sprint(x), 40)), "a test is a mapping")
		}
	}
	return out
}

// converted are the cases, the system prompt they share, and whether any
// asks a model.
type converted struct {
	cases  []suitefile.Case
	system string
	llm    bool
}

// cases makes a case of each prompt × test × combination of the test's
// list vars.
func (c *converter) cases(prompts []prompt, tests []map[string]any, defaultTest map[string]any) converted {
	var out converted
	systemSet := false
	ids := map[string]int{}
	defaultVars, _ := defaultTest["vars"].(map[string]any)
	defaultOpts, _ := defaultTest["options"].(map[string]any)
	defaultAsserts, _ := defaultTest["assert"].([]any)
	for pi, p := range prompts {
		if p.err == "" {
			if _, _, _, err := renderPrompt(p.raw, nil); err != nil {
				p.err = err.Error()
			}
		}
		if p.err != "" {
			n := &notes{c: c, where: c.file}
			n.add(suitefile.NotConverted, fmt.Sprintf("prompt %q", excerpt(p.label, 40)), p.err+": its "+plural(len(tests), "test")+" are not converted with it")
			out.cases = append(out.cases, suitefile.Case{Notes: n.lines})
		}
		if p.tag == "" {
			p.tag = fmt.Sprintf("p%d", pi+1)
		}
		for ti, test := range tests {
			where := fmt.Sprintf("test %d", ti+1)
			desc, _ := test["description"].(string)
			if desc != "" {
				where += " (" + excerpt(desc, 50) + ")"
			}
			if len(prompts) > 1 {
				where = fmt.Sprintf("prompt %q, %s", excerpt(p.label, 30), where)
			}
			if p.err != "" {
				continue // said once, below
			}
			if only, ok := test["prompts"].([]any); ok && !promptListed(only, p.label) {
				continue
			}
			vars := map[string]any{}
			for k, v := range defaultVars {
				vars[k] = v
			}
			if tv, ok := test["vars"].(map[string]any); ok {
				for k, v := range tv {
					vars[k] = v
				}
			}
			opts := map[string]any{}
			for k, v := range defaultOpts {
				opts[k] = v
			}
			if to, ok := test["options"].(map[string]any); ok {
				for k, v := range to {
					opts[k] = v
				}
			}
			combos := []map[string]any{vars}
			if opts["disableVarExpansion"] != true {
				combos = expand(vars)
			}
			for vi, combo := range combos {
				cn := &notes{c: c, where: where}
				if len(combos) > 1 {
					cn.where = fmt.Sprintf("%s, vars #%d", where, vi+1)
				}
				id := caseID(test, ti, pi, len(prompts), vi, len(combos), ids)
				cs, system, llm, ok := c.oneCase(id, p, len(prompts) > 1, test, ti, combo, opts, defaultAsserts, defaultTest, cn)
				if ok {
					switch {
					case !systemSet:
						out.system, systemSet = system, true
					case system != out.system:
						cn.add(suitefile.NotConverted, "the case", "its system message differs from the suite's first one (its agent has one system prompt): make it a suite of its own")
						cs.Fields = nil
					}
				}
				out.llm = out.llm || (llm && cs.Fields != nil)
				cs.Notes = cn.lines
				out.cases = append(out.cases, cs)
			}
		}
	}
	return out
}

func promptListed(only []any, label string) bool {
	for _, o := range only {
		if s, ok := o.(string); ok && (s == label || strings.HasSuffix(s, label)) {
			return true
		}
	}
	return false
}

// oneCase converts one test with one combination of vars. ok is false
// when the case could not be converted (its notes say why).
func (c *converter) oneCase(id string, p prompt, tagPrompt bool, test map[string]any, ti int, vars, opts map[string]any,
	defaultAsserts []any, defaultTest map[string]any, n *notes) (cs suitefile.Case, system string, llm, ok bool) {
	vars, err := c.loadVars(vars)
	if err == nil {
		vars = renderVars(vars)
	}
	if err != nil {
		n.add(suitefile.NotConverted, "the case", err.Error())
		return cs, "", false, false
	}
	system, user, missing, err := renderPrompt(p.raw, vars)
	if err != nil {
		n.add(suitefile.NotConverted, "the case", "its prompt: "+err.Error())
		return cs, "", false, false
	}
	if len(missing) > 0 {
		n.add(suitefile.Approximated, "the prompt", "it uses "+strings.Join(missing, ", ")+", which the test does not set: rendered empty, as promptfoo renders it")
	}
	if pre, ok := opts["prefix"].(string); ok {
		user = pre + user
	}
	if suf, ok := opts["suffix"].(string); ok {
		user += suf
	}
	if strings.TrimSpace(user) == "" {
		n.add(suitefile.NotConverted, "the case", "its prompt renders empty (the test sets none of its vars), and a case needs a message for the agent")
		return cs, "", false, false
	}
	for _, key := range []string{"transform", "postprocess"} {
		if _, ok := opts[key]; ok {
			n.add(suitefile.NotConverted, "options."+key, "its JavaScript changes the output before the assertions, and Gavel runs no promptfoo JavaScript: the judges read the reply as it is")
		}
	}
	if _, ok := test["provider"]; ok {
		n.add(suitefile.NotConverted, "the test's provider", "a suite has one agent: run this case against another model with GAVEL_AGENT_MODEL")
	}
	for k := range test {
		if strings.HasPrefix(k, "__") {
			n.add(suitefile.NotConverted, "CSV column "+k, "Gavel has no equivalent of this column")
		}
	}

	f := suitefile.M{{Key: "id", Value: id}}
	if desc, ok := test["description"].(string); ok && desc != "" {
		f = f.Set("name", desc)
	}
	f = f.Set("input", user)
	if tagPrompt {
		f = f.Set("tags", []any{"prompt:" + p.tag})
	}
	meta := map[string]any{"source": fmt.Sprintf("%s: tests[%d]", c.file, ti)}
	if len(vars) > 0 {
		meta["vars"] = vars
	}
	if m, ok := test["metadata"].(map[string]any); ok {
		for k, v := range m {
			if _, taken := meta[k]; !taken {
				meta[k] = v
			}
		}
	}
	f = f.Set("metadata", meta)

	// The judges: defaultTest's assertions, then the test's own.
	sc := scope{vars: vars}
	// defaultTest's grader is the suite's judge model; a test's own is
	// its judges'.
	if to, ok := test["options"].(map[string]any); ok && to["provider"] != nil {
		if ref, why := graderRef(to["provider"]); ref != "" {
			sc.grader = ref
		} else {
			n.add(suitefile.Approximated, "options.provider", "its grader has no Gavel provider ("+why+"): the suite's judge model grades")
		}
	}
	var parts []judge
	dn := &notes{c: c, where: "defaultTest (every test)"}
	for _, a := range defaultAsserts {
		if j, ok := c.assertion(a, sc, dn); ok {
			parts = append(parts, j)
		}
	}
	n.lines = append(n.lines, dn.lines...)
	own, _ := test["assert"].([]any)
	for _, a := range own {
		if j, ok := c.assertion(a, sc, n); ok {
			parts = append(parts, j)
		}
	}
	for _, p := range parts {
		llm = llm || p.llm
	}
	threshold, hasThreshold := number(test["threshold"])
	if !hasThreshold {
		threshold, hasThreshold = number(defaultTest["threshold"])
	}
	var rules, judges []any
	switch {
	case len(parts) == 0:
		n.add(suitefile.Approximated, "the case", "it has no assertion Gavel could convert, and a case needs a judge: it checks that the reply is not empty")
		rules = append(rules, suitefile.M{{Key: "length", Value: suitefile.M{{Key: "min", Value: 1}}}})
	case hasThreshold:
		spec := composite(parts, threshold, true)
		if llm {
			judges = append(judges, spec)
		} else {
			rules = append(rules, spec)
		}
	default:
		for _, p := range parts {
			if p.weight != 1 && p.weight != 0 {
				n.add(suitefile.Approximated, fmt.Sprintf("weight %v", p.weight), "without a threshold a weight only shapes promptfoo's score: every assertion must pass, as every Gavel judge must")
			}
			if p.llm {
				judges = append(judges, p.spec)
			} else {
				rules = append(rules, p.spec)
			}
		}
	}
	if len(rules) > 0 {
		f = f.Set("rules", rules)
	}
	if len(judges) > 0 {
		f = f.Set("judges", judges)
	}
	c.suite.Report.Judges += len(rules) + len(judges)
	return suitefile.Case{Fields: f}, system, llm, true
}

// loadVars reads the vars that are file:// references.
func (c *converter) loadVars(vars map[string]any) (map[string]any, error) {
	out := make(map[string]any, len(vars))
	for k, v := range vars {
		s, ok := v.(string)
		p, isFile := fileRef(c.dir, s)
		if !ok || !isFile {
			out[k] = v
			continue
		}
		switch ext := strings.ToLower(filepath.Ext(p)); ext {
		case ".js", ".ts", ".mjs", ".cjs", ".py":
			return nil, fmt.Errorf("var %s is computed by a program (%s), and Gavel runs no promptfoo programs", k, filepath.Base(p))
		case ".png", ".jpg", ".jpeg", ".gif", ".webp", ".pdf", ".mp3", ".wav", ".mp4":
			return nil, fmt.Errorf("var %s is a %s file: Gavel's cases send text", k, ext)
		case ".json", ".yaml", ".yml":
			d, err := readData(p)
			if err != nil {
				return nil, fmt.Errorf("var %s: %w", k, err)
			}
			out[k] = d
		default:
			text, err := readText(p)
			if err != nil {
				return nil, fmt.Errorf("var %s: %w", k, err)
			}
			out[k] = text
		}
	}
	return out, nil
}

// renderVars renders the vars whose values are templates of the others
// (question: "Write about {{topic}}"), as promptfoo does; a var that does
// not render stays as written.
func renderVars(vars map[string]any) map[string]any {
	out := make(map[string]any, len(vars))
	for k, v := range vars {
		out[k] = v
		if s, ok := v.(string); ok && strings.Contains(s, "{{") {
			if r, missing, err := render(s, vars); err == nil && len(missing) == 0 {
				out[k] = r
			}
		}
	}
	return out
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// expand returns every combination of vars' list values, as promptfoo
// runs a test once for each (a var whose value is a list takes each of
// its values in turn).
func expand(vars map[string]any) []map[string]any {
	keys := make([]string, 0, len(vars))
	for k := range vars {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	combos := []map[string]any{{}}
	for _, k := range keys {
		list, ok := vars[k].([]any)
		if !ok || len(list) == 0 {
			for _, c := range combos {
				c[k] = vars[k]
			}
			continue
		}
		var next []map[string]any
		for _, c := range combos {
			for _, item := range list {
				m := make(map[string]any, len(c)+1)
				for ck, cv := range c {
					m[ck] = cv
				}
				m[k] = item
				next = append(next, m)
			}
		}
		combos = next
	}
	return combos
}

var nonSlug = regexp.MustCompile(`[^a-z0-9]+`)

// slug is s as an id: lower case, words joined by hyphens, at most 60
// characters.
func slug(s string) string {
	out := strings.Trim(nonSlug.ReplaceAllString(strings.ToLower(s), "-"), "-")
	if len(out) > 60 {
		out = strings.TrimRight(out[:60], "-")
	}
	return out
}

// caseID is a case's id: its test's description as a slug (else test-N),
// prefixed by its prompt's number when there are several prompts, and
// suffixed by its vars' number when its vars expand; made unique.
func caseID(test map[string]any, ti, pi, prompts, vi, combos int, ids map[string]int) string {
	desc, _ := test["description"].(string)
	id := slug(desc)
	if id == "" {
		id = fmt.Sprintf("test-%d", ti+1)
	}
	if prompts > 1 {
		id = fmt.Sprintf("p%d-%s", pi+1, id)
	}
	if combos > 1 {
		id = fmt.Sprintf("%s-v%d", id, vi+1)
	}
	ids[id]++
	if ids[id] > 1 {
		id = fmt.Sprintf("%s-%d", id, ids[id])
	}
	return id
}
