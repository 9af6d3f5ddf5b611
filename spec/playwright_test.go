package spec_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/mcp/mcptest"
	"github.com/gavelhq/gavel/runner"
	"github.com/gavelhq/gavel/spec"
)

// A suite file's builtin agent drives Microsoft's Playwright MCP server
// over streamable HTTP, by url, as README's suites do: it opens a page and
// reads its title back. The call hung until its timeout while Gavel
// advertised the roots capability (TestPlaywrightOverStreamableHTTP).
func TestPlaywrightFromASuite(t *testing.T) {
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "<!doctype html><title>Order 12345 shipped</title><h1>Shipped</h1>")
	}))
	defer page.Close()
	env := testEnv()
	vars := map[string]string{"PLAYWRIGHT_URL": mcptest.StartPlaywright(t), "PAGE": page.URL}
	env.Getenv = func(name string) string { return vars[name] }
	dir := suiteDir(t, map[string]string{
		"agent.yaml": `name: browsing-agent
rules:
  - when: {last: user}
    tool_calls: [{name: browser_navigate, arguments: {url: '` + page.URL + `'}}]
  - when: {last: tool, text: '(?s)Page Title: (?P<title>[^\n]*)'}
    text: 'The page is titled ${title}.'
  - text: I could not read the page.
`,
		"gavel.yaml": `agent:
  builtin:
    model: script:agent.yaml
    mcp: [{name: playwright, url: '${PLAYWRIGHT_URL}'}]
cases:
  - id: open
    input: What is the title of the order page?
    expected_tool_calls: [{name: browser_navigate}]
    rules: [{contains: Order 12345 shipped}]
`,
	})
	b, err := spec.Open(dir, env)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	run := runner.Run(ctx, b.Suite, runner.Config{Concurrency: 1, Timeout: 40 * time.Second})
	tr := run.Cases[0].Trials[0]
	if tr.Verdict.Status != judge.StatusPass {
		t.Errorf("%s: %s\nreply: %s", tr.Verdict.Status, tr.Verdict.Summary(), tr.Transcript.FinalResponse)
	}
}
