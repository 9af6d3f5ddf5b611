package gavel_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// layers places every package of the module, by its directory, in a layer.
// A package may import only packages of lower layers, and layer-0 packages
// only the standard library, so the core vocabulary never drags a
// dependency into everything built on it. A new package must be added
// here, and to README's "Project structure". Examples and the bench/
// harness are programs outside the layers.
var layers = map[string]int{
	"judge":                0,
	"llm":                  0,
	"internal/procgroup":   0,
	"internal/suggest":     0,
	"internal/doccheck":    0,
	"secret":               0,
	"stats":                0,
	"internal/pgtest":      1,
	"judge/judgetest":      1,
	"internal/golden":      1,
	"llm/gateway":          1,
	"llm/openai":           1,
	"llm/anthropic":        1,
	"llmjudge":             1,
	"mcp":                  1,
	"mcp/mcptest":          1,
	"jury":                 1,
	"rule":                 1,
	"sim":                  1,
	"telemetry":            1,
	"rule/dbstate":         2,
	"llm/llmtest":          2,
	"agent":                2,
	"audit":                2,
	"conversation":         3,
	"agentjudge":           3,
	"mock":                 3,
	"llm/providers":        3,
	".":                    4,
	"runner":               5,
	"report":               5,
	"spec":                 5,
	"store":                5,
	"store/sqlstore":       6,
	"store/storetest":      6,
	"auth":                 6,
	"gaveltest":            9,
	"importer":             6,
	"importer/suitefile":   1,
	"importer/promptfoo":   2,
	"importer/openaievals": 2,
	"store/sqlite":         7,
	"store/postgres":       7,
	"queue":                7,
	"web":                  7,
	"eval":                 8,
	"cmd/gavel":            9,
}

const module = "github.com/gavelhq/gavel"

type listedPackage struct {
	ImportPath string
	Imports    []string
}

func TestLayers(t *testing.T) {
	for _, pkg := range listPackages(t) {
		dir := relDir(pkg.ImportPath)
		if isExample(dir) {
			continue // examples use anything; nothing may import them (below)
		}
		layer, known := layers[dir]
		if !known {
			t.Errorf("package %s is not in the layers table of layers_test.go: add it, and a line for it in README's Project structure", dir)
			continue
		}
		for _, imp := range pkg.Imports {
			switch {
			case isExample(relDir(imp)):
				t.Errorf("%s imports the example %s: examples are for reading and running, not for building on", dir, relDir(imp))
			case strings.HasPrefix(imp, module+"/") || imp == module:
				if l, ok := layers[relDir(imp)]; ok && l >= layer {
					t.Errorf("%s (layer %d) imports %s (layer %d): a package may import only lower layers", dir, layer, relDir(imp), l)
				}
			case layer == 0 && !isStandard(imp):
				t.Errorf("%s is layer 0 and imports %s: layer-0 packages use the standard library only", dir, imp)
			}
		}
	}
}

// runFronts are the packages that run suites for someone (the CLI, and
// go test through gaveltest): each goes through package eval, which owns
// a run's life, and none calls what eval calls to run and keep a run.
var runFronts = []string{"cmd/gavel", "gaveltest"}

// runLife are the calls that make a run and keep it, which only eval
// (and the packages below it) may make: running trials, opening the job
// queue, writing runs to a store.
var runLife = []string{"runner.Run", "runner.RunCases", "runner.RunTrial", "queue.Open",
	".CreateRun", ".FinishRun", ".SaveTrial", ".SaveTrials", ".ImportRun", ".JoinRun"}

func TestRunsGoThroughEval(t *testing.T) {
	for _, dir := range runFronts {
		fset := token.NewFileSet()
		pkgs, err := parser.ParseDir(fset, dir, func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
		if err != nil {
			t.Fatal(err)
		}
		importsEval := false
		for _, pkg := range pkgs {
			for _, f := range pkg.Files {
				for _, imp := range f.Imports {
					importsEval = importsEval || imp.Path.Value == `"`+module+`/eval"`
				}
				ast.Inspect(f, func(n ast.Node) bool {
					call, ok := n.(*ast.CallExpr)
					if !ok {
						return true
					}
					sel, ok := call.Fun.(*ast.SelectorExpr)
					if !ok {
						return true
					}
					x, _ := sel.X.(*ast.Ident)
					for _, name := range runLife {
						pkgName, fn, _ := strings.Cut(name, ".")
						if sel.Sel.Name == fn && (pkgName == "" || x != nil && x.Name == pkgName) {
							t.Errorf("%s: %s calls %s: a run's life is package eval's; call eval", fset.Position(call.Pos()), dir, name)
						}
					}
					return true
				})
			}
		}
		if !importsEval {
			t.Errorf("%s does not import package eval: it runs suites, and a run's life is eval's", dir)
		}
	}
}

func TestReadmeListsEveryPackage(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, structure, found := strings.Cut(string(readme), "## Project structure")
	if !found {
		t.Fatal(`README.md has no "## Project structure" section`)
	}
	for _, pkg := range listPackages(t) {
		dir := relDir(pkg.ImportPath)
		if isExample(dir) {
			dir = exampleRoot(dir) // one line per example
		}
		if dir != "." && !strings.Contains(structure, "`"+dir+"/`") {
			t.Errorf("README's Project structure has no line for `%s/`", dir)
		}
	}
}

// listPackages lists the module's packages with their imports (test files
// excluded: tests may use anything).
func listPackages(t *testing.T) []listedPackage {
	t.Helper()
	out, err := exec.Command("go", "list", "-json=ImportPath,Imports", "./...").Output()
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			t.Fatalf("go list: %v\n%s", err, exit.Stderr)
		}
		t.Fatalf("go list: %v", err)
	}
	var pkgs []listedPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listedPackage
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("reading go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) == 0 {
		t.Fatal("go list found no packages")
	}
	return pkgs
}

// isExample reports whether a package belongs to an example under
// examples/ or to the bench/ harness: programs outside the layers, listed
// in README once each.
func isExample(dir string) bool {
	return strings.HasPrefix(dir, "examples/") || dir == "bench" || strings.HasPrefix(dir, "bench/")
}

// exampleRoot is the directory README lists for a package of an example:
// examples/NAME, or bench.
func exampleRoot(dir string) string {
	if parts := strings.SplitN(dir, "/", 3); parts[0] == "examples" && len(parts) > 1 {
		return parts[0] + "/" + parts[1]
	}
	return strings.SplitN(dir, "/", 2)[0]
}

func relDir(importPath string) string {
	if importPath == module {
		return "."
	}
	return strings.TrimPrefix(importPath, module+"/")
}

// isStandard reports whether an import path belongs to the standard
// library, whose paths never have a dot in their first element.
func isStandard(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}
