package web

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gavelhq/gavel/auth"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/spec"
	"github.com/gavelhq/gavel/store"
)

// The case form lets an editor write a case without a pull request: a
// name, a description, what the user says (one prompt, or rounds), the
// tools the agent must call, the judge's criteria in plain words, the
// passing score, tags, and judges of any kind but the Local ones
// (judgeform.go). Saving builds the case's definition in the
// suite format (YAML) from the fields, checks it as `gavel run` would
// (spec.ParseCase and spec.Build, dry: no model is opened), and saves it as a
// new version of the case.
//
// The form edits only cases written in the web app, and only those made
// of the fields it knows: a case from a suite file is edited in its file,
// and judges that run commands, read files or query databases run code
// on the server, so they are written in suite files only
// (spec.JudgeSpec.ServerAccess).

// roundSeparator is the line that separates rounds in the form's prompt.
const roundSeparator = "---"

// formFields are the fields of the suite format the form edits; a case
// with any other cannot be edited in the form.
var formFields = []string{"id", "name", "description", "tags", "input", "prompt", "rounds", "expected_tools", "judge_prompt", "judge_threshold", "judges"}

// caseForm is the form's values, as typed.
type caseForm struct {
	Suite, ID, Name, Description string
	// Prompt is what the user says: rounds separated by a line "---".
	Prompt                 string
	Tools, Tags            string // comma-separated
	JudgePrompt, Threshold string
	// Judges are the judges of the judges: list.
	Judges []judgeForm
	// Version is the version the form edits; 0 for a new case.
	Version int
}

// A CaseInput is a case as the web app writes it: the fields of the
// suite format it knows, named as in suite files, in the order a person
// would write them. The case form fills one; scripts send one, as JSON,
// to POST /api/cases and PUT /api/cases/{suite}/{case}.
type CaseInput struct {
	ID          string   `yaml:"id" json:"id"`
	Name        string   `yaml:"name,omitempty" json:"name,omitempty"`
	Description string   `yaml:"description,omitempty" json:"description,omitempty"`
	Tags        []string `yaml:"tags,omitempty" json:"tags,omitempty"`
	// Input is what the user says, for a case of one round; Rounds are
	// the rounds of a conversation. A case has one or the other.
	Input          string   `yaml:"input,omitempty" json:"input,omitempty"`
	Rounds         []Round  `yaml:"rounds,omitempty" json:"rounds,omitempty"`
	ExpectedTools  []string `yaml:"expected_tools,omitempty" json:"expected_tools,omitempty"`
	JudgePrompt    string   `yaml:"judge_prompt,omitempty" json:"judge_prompt,omitempty"`
	JudgeThreshold *float64 `yaml:"judge_threshold,omitempty" json:"judge_threshold,omitempty"`
	// Judges are judges of any kind but those that run commands, read
	// files or query databases, each the mapping a suite file writes
	// (docs/judges.md).
	Judges []JudgeInput `yaml:"judges,omitempty" json:"judges,omitempty"`
}

// A Round is one round of a conversation a CaseInput holds.
type Round struct {
	Prompt string `yaml:"prompt" json:"prompt"`
}

// caseFormData is case_form.tmpl's data.
type caseFormData struct {
	New              bool
	Action, CaseHref string
	CSRF             string
	Form             caseForm
	// Suites are the suites a new case may be written for (knownSuites).
	Suites []string
	// Errors are the problems of single fields, by field name ("id",
	// "judges.0.f.min_mean"; "judges.0" for a judge as a whole).
	Errors map[string]string
	// Problems are what checking the case as a suite found.
	Problems []string
	// Definition is the YAML the form built, shown with the problems.
	Definition string
}

// Judges are the form's judges as the template shows them.
func (d caseFormData) Judges() []judgeBlock { return judgeBlocks(d.Form.Judges, d.Errors) }

// KindGroups are the kinds of judge the form writes, by group.
func (d caseFormData) KindGroups() []kindGroup { return formKindGroups() }

// LocalKinds are the kinds written in suite files only.
func (d caseFormData) LocalKinds() string { return strings.Join(localKinds(), ", ") }

// readForm reads the form of a POST, and reports whether a button that
// adds or removes a judge was pressed instead of saving.
func readForm(r *http.Request) (caseForm, bool) {
	f := caseForm{
		Suite: strings.TrimSpace(r.PostFormValue("suite")), ID: strings.TrimSpace(r.PostFormValue("id")),
		Name: strings.TrimSpace(r.PostFormValue("name")), Description: strings.TrimSpace(r.PostFormValue("description")),
		Prompt: strings.ReplaceAll(r.PostFormValue("prompt"), "\r\n", "\n"), Tools: r.PostFormValue("tools"),
		Tags: r.PostFormValue("tags"), JudgePrompt: strings.TrimSpace(strings.ReplaceAll(r.PostFormValue("judge_prompt"), "\r\n", "\n")),
		Threshold: strings.TrimSpace(r.PostFormValue("threshold")),
	}
	f.Version, _ = strconv.Atoi(r.PostFormValue("version"))
	var edited bool
	f.Judges, edited = readJudges(r)
	return f, edited
}

// splitList splits a comma-separated list, dropping empty items.
func splitList(s string) []string {
	var out []string
	for item := range strings.SplitSeq(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

// splitRounds splits the form's prompt at lines "---" into the rounds'
// prompts, dropping empty ones.
func splitRounds(s string) []string {
	var rounds []string
	var cur []string
	flush := func() {
		if p := strings.TrimSpace(strings.Join(cur, "\n")); p != "" {
			rounds = append(rounds, p)
		}
		cur = nil
	}
	for line := range strings.SplitSeq(s, "\n") {
		if strings.TrimSpace(line) == roundSeparator {
			flush()
			continue
		}
		cur = append(cur, line)
	}
	flush()
	return rounds
}

// caseOf builds the case a form describes, or says what is wrong with
// its fields, by field name. It checks only what the suite format cannot
// say (an id, a number); the rest is the loader's job (validateCase).
func (f caseForm) caseOf() (CaseInput, map[string]string) {
	c := CaseInput{ID: f.ID, Name: f.Name, Description: f.Description, Tags: splitList(f.Tags),
		ExpectedTools: splitList(f.Tools), JudgePrompt: f.JudgePrompt}
	errs := missingFields(f.Suite, c)
	switch rounds := splitRounds(f.Prompt); len(rounds) {
	case 0:
	case 1:
		c.Input = rounds[0]
	default:
		for _, p := range rounds {
			c.Rounds = append(c.Rounds, Round{Prompt: p})
		}
	}
	if f.Threshold != "" {
		t, err := strconv.ParseFloat(f.Threshold, 64)
		if err != nil {
			errs["threshold"] = fmt.Sprintf("%q is not a number: give the passing score from 0 to 1, such as 0.7.", f.Threshold)
		} else {
			c.JudgeThreshold = &t
		}
	}
	for i, j := range f.Judges {
		in, jerrs := j.input(i)
		maps.Copy(errs, jerrs)
		c.Judges = append(c.Judges, in)
	}
	return c, errs
}

// missingFields says which fields a case must have and has not: its suite
// and its id.
func missingFields(suite string, c CaseInput) map[string]string {
	errs := map[string]string{}
	if suite == "" {
		errs["suite"] = "Say which suite the case belongs to."
	}
	if c.ID == "" {
		errs["id"] = "Give the case an id, unique in its suite (such as refund_late_order)."
	}
	return errs
}

// formOf fills the form from a case's definition. It refuses a
// definition with fields the form does not edit, so that saving the form
// never drops them.
func formOf(suite string, v store.CaseVersion) (caseForm, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(v.Definition, &doc); err != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return caseForm{}, errors.New("its definition is not a mapping of fields the form can read")
	}
	root := doc.Content[0]
	var extra []string
	var judges []judgeForm
	for i := 0; i+1 < len(root.Content); i += 2 {
		key, value := root.Content[i].Value, root.Content[i+1]
		if !slices.Contains(formFields, key) {
			extra = append(extra, key)
			continue
		}
		if key == "judges" {
			if value.Kind != yaml.SequenceNode {
				return caseForm{}, errors.New("its judges are not a list")
			}
			for i, item := range value.Content {
				j, err := judgeFormOf(item)
				if err != nil {
					return caseForm{}, fmt.Errorf("its judges[%d] cannot be shown in the form as it is (%v): saving the form would change it. "+
						"Judges that run commands, read files or query databases run code on the server, so they are written in suite files only", i, err)
				}
				judges = append(judges, j)
			}
			continue
		}
		if key != "rounds" || value.Kind != yaml.SequenceNode {
			continue
		}
		for _, round := range value.Content {
			for j := 0; round.Kind == yaml.MappingNode && j+1 < len(round.Content); j += 2 {
				if k := round.Content[j].Value; k != "prompt" {
					extra = append(extra, "rounds."+k)
				}
			}
		}
	}
	if len(extra) > 0 {
		slices.Sort(extra)
		return caseForm{}, fmt.Errorf("its definition has fields the form does not edit (%s); saving the form would drop them. "+
			"Judges that run commands, read files or query databases run code on the server, so they are written in suite files only",
			strings.Join(slices.Compact(extra), ", "))
	}
	var cs spec.CaseSpec
	if err := root.Decode(&cs); err != nil {
		return caseForm{}, fmt.Errorf("its definition does not read as a case: %v", err)
	}
	f := caseForm{Suite: suite, ID: v.ID, Name: cs.Name, Description: cs.Description, Tags: strings.Join(cs.Tags, ", "),
		Tools: strings.Join(cs.ExpectedTools, ", "), JudgePrompt: cs.JudgePrompt, Judges: judges, Version: v.Version}
	if cs.JudgeThreshold != nil {
		f.Threshold = strconv.FormatFloat(*cs.JudgeThreshold, 'f', -1, 64)
	}
	prompts := []string{cmp.Or(cs.Input, cs.Prompt)}
	if len(cs.Rounds) > 0 {
		prompts = nil
		for _, r := range cs.Rounds {
			prompts = append(prompts, r.Prompt)
		}
	}
	for _, p := range prompts {
		for line := range strings.SplitSeq(p, "\n") {
			if strings.TrimSpace(line) == roundSeparator {
				return caseForm{}, fmt.Errorf("a prompt of it holds a line %q, which the form reads as the start of a new round", roundSeparator)
			}
		}
	}
	f.Prompt = strings.Join(prompts, "\n"+roundSeparator+"\n")
	return f, nil
}

// readOnly says why a case's latest version cannot be edited in the form,
// or "" when it can.
func readOnly(v store.CaseVersion) string {
	if v.Source != "" {
		return fmt.Sprintf("This case comes from a suite file, %s: edit it there.", v.Source)
	}
	if _, err := formOf(v.Suite, v); err != nil {
		return fmt.Sprintf("This case cannot be edited in the form: %v.", err)
	}
	return ""
}

// A caseProblem is a problem checking a case found, and the field it is
// about when known.
type caseProblem struct {
	// Path is the field's path in the suite format, judges[0].min_mean;
	// "" when unknown.
	Path    string
	Message string
}

// String is the problem with its field's path. A message that starts
// with the field's path within its judge (ignore_case: ...) gets the
// rest of the path before it.
func (p caseProblem) String() string {
	if p.Path == "" || strings.Contains(p.Message, p.Path) {
		return p.Message
	}
	if m := messageField.FindStringSubmatch(p.Message); m != nil {
		for i := len(p.Path) - 1; i >= 0; i-- {
			if p.Path[i] == '.' && strings.HasPrefix(p.Path[i+1:], m[1]) {
				return p.Path[:i+1] + p.Message
			}
		}
	}
	return p.Path + ": " + p.Message
}

// messageField finds the first name of the field a message starts with:
// "criteria" in "criteria[0]: cannot unmarshal ...".
var messageField = regexp.MustCompile(`^(\w+)[\w.\[\]]*: `)

// validateCase checks a case as `gavel run` would: it reads the case
// (spec.ParseCase), refuses judges that would read or run something on
// the server (spec.JudgeSpec.ServerAccess), and builds it in a scratch
// suite, dry: the suite gives it what a real one would, an agent (never
// called) and a judge model (never opened). It returns the problems, in
// the loader's words, each with its field's path when known.
func validateCase(ctx context.Context, def []byte) ([]caseProblem, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	lc, err := spec.ParseCase("the case", def)
	if err == nil {
		if local := serverAccess(lc.Spec); len(local) > 0 {
			return local, nil
		}
		scratch := &spec.Loaded{File: "the case", Cases: []spec.LoadedCase{lc}, Suite: spec.SuiteFile{
			Name:   "web",
			Agent:  &spec.AgentSpec{HTTP: &spec.HTTPSpec{URL: "http://127.0.0.1:9/"}},
			Models: spec.ModelsSpec{Judge: "web:judge"},
			Cases:  []spec.CaseEntry{{Case: lc.Spec}},
		}}
		var built *spec.Built
		built, err = spec.Build(scratch, spec.Env{DryRun: true, Registry: llm.Registry{
			"web": func(llm.Ref, func(string) string) (llm.Model, error) { return nil, errors.New("not opened") },
		}})
		if built != nil {
			built.Close()
		}
	}
	var problems spec.Problems
	if !errors.As(err, &problems) {
		if err != nil {
			return nil, fmt.Errorf("check a case: %w", err)
		}
		return nil, nil
	}
	var doc yaml.Node
	_ = yaml.Unmarshal(def, &doc) // checked: ParseCase read it
	out := make([]caseProblem, len(problems))
	for i, p := range problems {
		// The place is the form's, not a file's.
		out[i] = caseProblem{Path: problemPath(&doc, p), Message: scratchCase.ReplaceAllString(p.Message, "")}
	}
	return out, nil
}

// serverAccess says which judges of a case would read or run something
// on the server: the web app writes none of them.
func serverAccess(c *spec.CaseSpec) []caseProblem {
	var out []caseProblem
	check := func(prefix string, e spec.Expectations) {
		for list, judges := range map[string][]spec.JudgeSpec{"rules": e.Rules, "judges": e.Judges, "checks": e.Checks} {
			for i, j := range judges {
				if why := j.ServerAccess(); why != "" {
					out = append(out, caseProblem{Path: fmt.Sprintf("%s%s[%d]", prefix, list, i),
						Message: why + ": the web app writes no such judge, as it would run on the server; write it in the suite's file"})
				}
			}
		}
	}
	check("", c.Expectations)
	for i, r := range c.Rounds {
		check(fmt.Sprintf("rounds[%d].", i), r.Expectations)
	}
	slices.SortFunc(out, func(a, b caseProblem) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// scratchCase is how the builder's messages name the case checked: the
// form knows which.
var scratchCase = regexp.MustCompile(`^case [^:]*: the case: `)

// judgePath finds a judge's path in a builder's message: "judges[2]".
var judgePath = regexp.MustCompile(`\b(?:rounds\[\d+\]\.)?(?:rules|judges|checks)\[\d+\]`)

// problemPath is the path of the field a problem is about, in the suite
// format: found by its line in the definition doc, or named in its
// message; "" when neither says.
func problemPath(doc *yaml.Node, p spec.Problem) string {
	if path := judgePath.FindString(p.Message); path != "" {
		return path // a builder's message, about the judge as a whole
	}
	if p.Line > 0 && len(doc.Content) > 0 {
		return pathAt(doc.Content[0], p.Line, "")
	}
	return ""
}

// pathAt is the path of the deepest field of n written on or around line.
func pathAt(n *yaml.Node, line int, path string) string {
	var keys, values []*yaml.Node
	var names []string
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			keys, values = append(keys, n.Content[i]), append(values, n.Content[i+1])
			names = append(names, strings.TrimPrefix(path+"."+n.Content[i].Value, "."))
		}
	case yaml.SequenceNode:
		for i, item := range n.Content {
			keys, values = append(keys, item), append(values, item)
			names = append(names, fmt.Sprintf("%s[%d]", path, i))
		}
	default:
		return path
	}
	for i := len(keys) - 1; i >= 0; i-- {
		if keys[i].Line <= line {
			if keys[i].Line == line && n.Kind == yaml.MappingNode && values[i].Kind != yaml.ScalarNode && values[i].Line != line {
				return names[i] // the key of a mapping or list written below it
			}
			return pathAt(values[i], line, names[i])
		}
	}
	return path
}

// formKeyOf is the form field a problem at path shows next to: a judge's
// field (judges.0.f.min_mean), a judge (judges.0), another field of the
// form (threshold), or "" for none.
func formKeyOf(f caseForm, path string) string {
	var i int
	if _, err := fmt.Sscanf(path, "judges[%d]", &i); err == nil && i >= 0 && i < len(f.Judges) {
		rest := strings.TrimPrefix(path, fmt.Sprintf("judges[%d]", i))
		rest = strings.TrimPrefix(rest, ".")
		k, _ := formKind(f.Judges[i].Kind)
		best := ""
		for _, field := range fieldsOf(k) {
			p := field.Path
			if (rest == p || strings.HasPrefix(rest, p+".") || strings.HasPrefix(rest, p+"[")) && len(p) > len(best) {
				best = p
			}
		}
		return judgeKey(i, best)
	}
	top, _, _ := strings.Cut(path, ".")
	top, _, _ = strings.Cut(top, "[")
	return map[string]string{"id": "id", "name": "name", "description": "description", "tags": "tags", "input": "prompt", "rounds": "prompt",
		"expected_tools": "tools", "judge_prompt": "judge_prompt", "judge_threshold": "threshold"}[top]
}

// csrfOf is the CSRF token the visitor's forms send back; "" when the
// app knows no visitor (no Config.Auth).
func csrfOf(r *http.Request) string {
	v, _ := auth.VisitorFrom(r.Context())
	return v.CSRF
}

// canEdit reports whether the visitor may write cases and labels: an
// editor or an admin, or anyone when the app knows no visitor (then its
// Guard, if any, decides).
func canEdit(r *http.Request) bool {
	v, ok := auth.VisitorFrom(r.Context())
	return !ok || v.Can(store.Editor)
}

// newCasePage is the form of a new case: GET /cases/new?suite=S.
func (s *Server) newCasePage(r *http.Request) (view, error) {
	d := caseFormData{New: true, Action: "/cases", CSRF: csrfOf(r), Form: caseForm{Suite: oneLine(r.URL.Query().Get("suite"))}}
	suites, err := s.knownSuites(r.Context())
	if err != nil {
		return view{}, err
	}
	d.Suites = suites
	return view{template: "case_form.tmpl", title: "New case", nav: "cases", data: d}, nil
}

// editableCase returns a case's latest version, refusing (403) one the
// form may not edit.
func (s *Server) editableCase(r *http.Request) (store.CaseVersion, caseForm, error) {
	versions, err := s.caseHistory(r)
	if err != nil {
		return store.CaseVersion{}, caseForm{}, err
	}
	latest := versions[len(versions)-1]
	if why := readOnly(latest); why != "" {
		return store.CaseVersion{}, caseForm{}, errorf(http.StatusForbidden, "%s", why)
	}
	f, err := formOf(latest.Suite, latest)
	return latest, f, err
}

// editCasePage is the form of a case written in the web app: GET
// /cases/{suite}/{case}/edit.
func (s *Server) editCasePage(r *http.Request) (view, error) {
	latest, f, err := s.editableCase(r)
	if err != nil {
		return view{}, err
	}
	d := caseFormData{Action: caseHref(latest.Suite, latest.ID) + "/edit", CaseHref: caseHref(latest.Suite, latest.ID), CSRF: csrfOf(r), Form: f}
	return view{template: "case_form.tmpl", title: "Edit " + oneLine(latest.ID), nav: "cases", data: d}, nil
}

// createCase saves a new case: POST /cases.
func (s *Server) createCase(r *http.Request) (string, view, error) {
	f, edited := readForm(r)
	d := caseFormData{New: true, Action: "/cases", CSRF: csrfOf(r), Form: f}
	suites, err := s.knownSuites(r.Context())
	if err != nil {
		return "", view{}, err
	}
	d.Suites = suites
	if edited {
		return "", view{template: "case_form.tmpl", title: "New case", nav: "cases", data: d, status: http.StatusOK}, nil
	}
	if why := unknownSuite(f.Suite, suites); why != "" {
		d.Errors = map[string]string{"suite": why}
		return "", view{template: "case_form.tmpl", title: "New case", nav: "cases", data: d}, nil
	}
	taken, err := s.caseExists(r.Context(), f.Suite, f.ID)
	if err != nil {
		return "", view{}, err
	}
	if taken {
		d.Errors = map[string]string{"id": fmt.Sprintf("Suite %s already has a case %s: pick another id, or edit that case.", oneLine(f.Suite), oneLine(f.ID))}
		return "", view{template: "case_form.tmpl", title: "New case", nav: "cases", data: d}, nil
	}
	return s.saveCase(r, d, "New case")
}

// knownSuites returns, sorted, the suites a case may be written for: those
// the server runs (its Launcher's), and those the store holds cases or
// recent runs of. A case of any other suite would never run.
func (s *Server) knownSuites(ctx context.Context) ([]string, error) {
	var names []string
	if s.cfg.Launcher != nil {
		names = append(names, s.cfg.Launcher.Suites()...)
	}
	runs, err := s.store.Runs(ctx, store.RunFilter{Limit: recentSuites})
	if err != nil {
		return nil, err
	}
	for _, info := range runs {
		names = append(names, info.Suite)
	}
	cases, err := s.store.Cases(ctx, "")
	if err != nil {
		return nil, err
	}
	for _, c := range cases {
		names = append(names, c.Suite)
	}
	names = slices.DeleteFunc(names, func(n string) bool { return n == "" })
	slices.Sort(names)
	return slices.Compact(names), nil
}

// unknownSuite says why a new case may not be written for suite, one
// missing from known (knownSuites), naming the suites it may; "" when it
// may (or when no suite is given: missingFields says so).
func unknownSuite(suite string, known []string) string {
	if suite == "" || slices.Contains(known, suite) {
		return ""
	}
	if len(known) == 0 {
		return fmt.Sprintf("This server knows no suite %q, nor any other, so the case would never run: start gavel serve with its suite (gavel serve examples/support-desk), or run it once with gavel run.", suite)
	}
	quoted := make([]string, len(known))
	for i, k := range known {
		quoted[i] = strconv.Quote(k)
	}
	return fmt.Sprintf("This server knows no suite %q, so the case would never run: pick one of %s.", suite, strings.Join(quoted, ", "))
}

// caseExists reports whether a suite has a case of this id.
func (s *Server) caseExists(ctx context.Context, suite, id string) (bool, error) {
	if suite == "" || id == "" {
		return false, nil
	}
	versions, err := s.store.CaseHistory(ctx, suite, id)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return false, err
	}
	return len(versions) > 0, nil
}

// staleEdit says why a save based on version base of a case whose latest
// version is latest would lose someone's work, or "" when it would not.
func staleEdit(base, latest int) string {
	if base == latest {
		return ""
	}
	return fmt.Sprintf("Someone saved version %d of this case while you edited version %d", latest, base)
}

// updateCase saves a new version of a case: POST
// /cases/{suite}/{case}/edit.
func (s *Server) updateCase(r *http.Request) (string, view, error) {
	latest, _, err := s.editableCase(r)
	if err != nil {
		return "", view{}, err
	}
	f, edited := readForm(r)
	f.Suite, f.ID = latest.Suite, latest.ID // a case keeps its place
	href := caseHref(latest.Suite, latest.ID)
	d := caseFormData{Action: href + "/edit", CaseHref: href, CSRF: csrfOf(r), Form: f}
	title := "Edit " + oneLine(latest.ID)
	if edited {
		return "", view{template: "case_form.tmpl", title: title, nav: "cases", data: d, status: http.StatusOK}, nil
	}
	if stale := staleEdit(f.Version, latest.Version); stale != "" {
		d.Form.Version = latest.Version
		d.Problems = []string{stale + ": open it in another tab, then save again to replace it with yours."}
		return "", view{template: "case_form.tmpl", title: title, nav: "cases", data: d}, nil
	}
	return s.saveCase(r, d, title)
}

// saveCase checks the form of d and saves its case, returning where to
// go; or it returns the form again with what is wrong.
func (s *Server) saveCase(r *http.Request, d caseFormData, title string) (string, view, error) {
	again := view{template: "case_form.tmpl", title: title, nav: "cases", data: &d}
	c, errs := d.Form.caseOf()
	if len(errs) > 0 {
		d.Errors = errs
		return "", again, nil
	}
	saved, def, problems, err := s.storeCase(r.Context(), d.Form.Suite, c)
	if err != nil {
		return "", view{}, err
	}
	if len(problems) > 0 {
		d.Errors = map[string]string{}
		for _, p := range problems {
			d.Problems = append(d.Problems, p.String())
			if key := formKeyOf(d.Form, p.Path); key != "" {
				d.Errors[key] = strings.TrimSpace(d.Errors[key] + " " + p.String())
			}
		}
		d.Definition = clean(string(def))
		return "", again, nil
	}
	return caseHref(saved.Suite, saved.ID), view{}, nil
}

// storeCase writes a case in the suite format, checks it as gavel run
// would (validateCase) and saves it as a version of the case in suite.
// When checking finds problems it saves nothing and returns them, with
// the definition it checked.
func (s *Server) storeCase(ctx context.Context, suite string, c CaseInput) (saved store.CaseVersion, def []byte, problems []caseProblem, err error) {
	def, err = yaml.Marshal(c)
	if err != nil {
		return store.CaseVersion{}, nil, nil, fmt.Errorf("write case %s: %w", c.ID, err)
	}
	problems, err = validateCase(ctx, def)
	if err != nil || len(problems) > 0 {
		return store.CaseVersion{}, def, problems, err
	}
	saved, err = s.store.SaveCase(ctx, store.CaseDef{Suite: suite, ID: c.ID, Name: c.Name, Tags: c.Tags, Definition: def})
	return saved, def, nil, err
}

// form adapts the handler of a form's POST: it redirects (303) where the
// handler says, or renders its view again (422: the form with what is
// wrong), or its error as an error page.
func (s *Server) form(h func(r *http.Request) (string, view, error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		to, v, err := h(r)
		switch {
		case err != nil:
			s.page(func(*http.Request) (view, error) { return view{}, err }).ServeHTTP(w, r)
		case to != "":
			http.Redirect(w, r, to, http.StatusSeeOther)
		default:
			s.render(w, r, cmp.Or(v.status, http.StatusUnprocessableEntity), v)
		}
	})
}
