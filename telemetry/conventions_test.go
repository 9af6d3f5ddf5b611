package telemetry

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// conventions are the GenAI names of OpenTelemetry's semantic
// conventions that Gavel may write: attributes, and the one event
// (gen_ai.evaluation.result). Read from the semantic-conventions
// repository at 384d661 (2026-08-20), model/gen-ai/ and
// model/service/ (their id: and name: lines); since then the GenAI
// conventions live in open-telemetry/semantic-conventions-genai, with
// the same names. A name Gavel writes that is not here is a typo or a
// name of its own, which belongs in gavel.* instead.
var conventions = map[string]bool{
	"gen_ai.agent.name": true, "gen_ai.conversation.id": true,
	"gen_ai.evaluation.explanation": true, "gen_ai.evaluation.name": true, "gen_ai.evaluation.result": true,
	"gen_ai.evaluation.score.label": true, "gen_ai.evaluation.score.value": true,
	"gen_ai.input.messages": true, "gen_ai.output.messages": true, "gen_ai.system_instructions": true,
	"gen_ai.operation.name": true, "gen_ai.output.type": true, "gen_ai.provider.name": true,
	"gen_ai.request.max_tokens": true, "gen_ai.request.model": true, "gen_ai.request.seed": true,
	"gen_ai.request.temperature": true, "gen_ai.response.finish_reasons": true, "gen_ai.response.id": true,
	"gen_ai.response.model": true, "gen_ai.tool.call.arguments": true, "gen_ai.tool.call.id": true,
	"gen_ai.tool.call.result": true, "gen_ai.tool.name": true, "gen_ai.tool.type": true,
	"gen_ai.usage.cache_read.input_tokens": true, "gen_ai.usage.input_tokens": true,
	"gen_ai.usage.output_tokens": true,
}

// Every gen_ai.* name the package's code writes is one of the
// conventions' (issue 23 item 6).
func TestNamesAreTheConventions(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	seen := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil || !strings.HasPrefix(s, "gen_ai.") {
				return true
			}
			seen++
			if !conventions[s] {
				t.Errorf("%s: %q is no name of the GenAI semantic conventions", fset.Position(lit.Pos()), s)
			}
			return true
		})
	}
	if seen < 20 {
		t.Errorf("found %d gen_ai.* names in the package's code, want the 20 or more it writes", seen)
	}
}
