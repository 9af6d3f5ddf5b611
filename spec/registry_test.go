package spec

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/gavelhq/gavel/internal/golden"
	"github.com/gavelhq/gavel/llm"
	"github.com/gavelhq/gavel/llm/llmtest"
)

// registryEnv opens every model as model, or as a scripted one that
// answers nothing when it is nil.
func registryEnv(model llm.Model) Env {
	return Env{Registry: llm.Registry{
		"fake": func(llm.Ref, func(string) string) (llm.Model, error) {
			if model == nil {
				return &llmtest.Scripted{}, nil
			}
			return model, nil
		},
	}}
}

// openItem builds a suite whose one case is judged by item, a judge as
// YAML, its judge model answering nothing.
func openItem(t *testing.T, item string) (*Built, error) {
	t.Helper()
	return openItemWith(t, item, nil)
}

// openItemWith is openItem with a judge model.
func openItemWith(t *testing.T, item string, model llm.Model) (*Built, error) {
	t.Helper()
	dir := t.TempDir()
	suite := "agent: {exec: {command: [cat]}}\nmodels: {judge: 'fake:judge'}\ncases:\n  - id: a\n    input: hi\n    judges:\n      - " +
		strings.ReplaceAll(item, "\n", "\n        ") + "\n"
	if err := os.WriteFile(filepath.Join(dir, "gavel.yaml"), []byte(suite), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "orders.db"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return Open(dir, registryEnv(model))
}

// TestKindExamples builds every kind's example, as the reference shows
// it, from YAML.
func TestKindExamples(t *testing.T) {
	for _, name := range KindNames() {
		t.Run(name, func(t *testing.T) {
			k := kinds[name]
			var s JudgeSpec
			if err := yaml.Unmarshal([]byte(k.example), &s); err != nil || s.Kind != name || s.bad {
				t.Fatalf("the example reads as kind %q (bad %v, %v, %v), want %q:\n%s", s.Kind, s.bad, s.errs, err, name, k.example)
			}
			b, err := openItem(t, k.example)
			if err != nil {
				t.Fatalf("the example does not build:\n%s\n%v", k.example, err)
			}
			defer b.Close()
			if c := b.Suite.Cases[0]; c.Judge == nil || c.Expected == "" {
				t.Errorf("the case has no judge or says nothing it expects: %+v", c)
			}
			if got := s.usesModel(); got != k.llm && !slices.Contains([]string{"weighted", "jury", "tiered", "each_turn", "not", "all", "any"}, name) {
				t.Errorf("usesModel = %v, want %v", got, k.llm)
			}
		})
	}
}

// TestKindDeclarations checks what register cannot: every field is
// documented, and no kind's field is named like another kind, which
// would make an item give two kinds.
func TestKindDeclarations(t *testing.T) {
	for _, name := range kindNames {
		k := kinds[name]
		if k.doc == "" || k.example == "" {
			t.Errorf("kind %s has no doc or no example", name)
		}
		for field := range itemFields(k) {
			if _, clash := kinds[field]; clash && field != name {
				t.Errorf("kind %s has a field %q, which is a kind's key: rename it or nest it under %s:", name, field, name)
			}
		}
		for _, f := range referenceFields(k.config, "") {
			if f.doc == "" {
				t.Errorf("kind %s: field %s has no doc tag", name, f.path)
			}
		}
	}
}

// TestEveryConstructorHasAKind reads the judge packages' sources: every
// exported function that returns a judge must have a suite-file
// spelling, a kind's library or an entry of spellings.
func TestEveryConstructorHasAKind(t *testing.T) {
	spelled := map[string]bool{}
	for _, k := range kinds {
		for _, c := range k.library {
			spelled[c] = true
		}
	}
	for _, o := range otherSpellings {
		for _, c := range strings.Split(o.library, ", ") {
			spelled[strings.Trim(c, "`")] = true
		}
	}
	judgeTypes := []string{"Judge", "judge.Judge", "*Rubric", "*Traits", "*Criteria", "*Correctness", "*Pairwise", "*FollowUp", "*Jury", "*Judge"}
	for _, pkg := range []string{"judge", "rule", "jury", "llmjudge", "rule/dbstate", "agentjudge"} {
		fset := token.NewFileSet()
		files, err := filepath.Glob(filepath.Join("..", pkg, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			for _, decl := range f.Decls {
				fn, ok := decl.(*ast.FuncDecl)
				if !ok || fn.Recv != nil || !fn.Name.IsExported() || fn.Type.Results == nil {
					continue
				}
				result := types(fn.Type.Results.List[0].Type)
				if !slices.Contains(judgeTypes, result) {
					continue
				}
				name := filepath.Base(pkg) + "." + fn.Name.Name
				if !spelled[name] {
					t.Errorf("%s returns a judge but a suite file cannot name it: register a kind whose library names it (spec/kinds_*.go)", name)
				}
			}
		}
	}
}

// types writes a type expression as Go does, for the few forms
// constructors return.
func types(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return types(e.X) + "." + e.Sel.Name
	case *ast.StarExpr:
		return "*" + types(e.X)
	}
	return ""
}

// TestReferenceIsCurrent keeps docs/judges.md what Reference writes.
func TestReferenceIsCurrent(t *testing.T) {
	got := Reference()
	path := filepath.Join("..", "docs", "judges.md")
	if golden.Updating() {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != got {
		t.Errorf("docs/judges.md is not what spec.Reference writes: run go test ./spec -run TestReferenceIsCurrent -update")
	}
	for _, name := range kindNames {
		if !strings.Contains(got, "### "+name+"\n") {
			t.Errorf("the reference has no section for %s", name)
		}
	}
}

func TestItemLayout(t *testing.T) {
	// The item's own fields and the common ones are told apart by name.
	var s JudgeSpec
	if err := yaml.Unmarshal([]byte("{contains: refund, name: mentions refunds, soft: true, ignore_case: true}"), &s); err != nil {
		t.Fatal(err)
	}
	c, ok := s.Config.(*containsRule)
	if !ok || c.Contains != "refund" || !c.IgnoreCase || s.Name != "mentions refunds" || !s.Soft {
		t.Errorf("got %+v %+v", s, s.Config)
	}
	if reflect.TypeOf(s.Config).Elem() != kinds["contains"].config {
		t.Errorf("config type %T", s.Config)
	}
}

// ServerAccess finds what a judge would read or run on the machine that
// judges, however deep it is nested: the web app refuses those judges.
func TestServerAccess(t *testing.T) {
	for _, tc := range []struct {
		name, item, want string
	}{
		{"a text rule", "contains: refund", ""},
		{"an LLM judge", "rubric: Is it polite?\nmodel: openai:gpt-4o", ""},
		{"a command", "command: [go, test]", "a judge of kind command"},
		{"a file nested in a jury", "jury:\n  jurors:\n    - rubric: ok\n    - file_exists: out.txt", "a judge of kind file_exists"},
		{"a weighted sql", "weighted:\n  - weight: 1\n    judge:\n      sql: {dsn: x.db, query: select 1}", "a judge of kind sql"},
		{"a tiered build", "tiered:\n  - [contains: a]\n  - [build: {}]", "a judge of kind build"},
		{"a prompt file", "criteria: {tone: is it warm}\nprompt_file: p.tmpl", "prompt_file"},
		{"a prompt file under not", "not:\n  rubric: x\n  prompt_file: /etc/passwd", "prompt_file"},
		{"a file of examples", "rubric: x\nexamples: /etc/passwd", `examples "/etc/passwd" reads a file`},
		{"examples inline", "rubric: x\nexamples: [{response: hi, verdict: fail}]", ""},
		{"a schema inline", "json_schema: {type: object}", ""},
		{"a schema file", "json_schema: schema.json", "json_schema \"schema.json\""},
		{"a model reading the environment", "rubric: x\nmodel: openai:${SECRET}", "${VAR}"},
		{"a script model", "rubric: x\nmodel: 'script:/etc/passwd'", "a file on the machine"},
		{"an agent judge, whose servers run here", "agent_judge:\n  criteria: ok\n  mcp: [{command: [sh, -c, 'rm -rf /']}]", "a judge of kind agent_judge"},
		{"an agent judge in a jury", "jury: {jurors: [{agent_judge: {criteria: ok}}]}", "a judge of kind agent_judge"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s JudgeSpec
			if err := yaml.Unmarshal([]byte(tc.item), &s); err != nil || s.bad {
				t.Fatalf("read %q: %v %v", tc.item, err, s.errs)
			}
			got := s.ServerAccess()
			if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
				t.Errorf("ServerAccess of %q = %q, want %q in it", tc.item, got, tc.want)
			}
		})
	}
}
