package spec_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gavelhq/gavel/spec"
)

// Which values a suite reads from the environment are secrets, hidden in
// everything written about its runs, and which are shown: see
// docs/decisions/0020-secrets-never-written.md.
func TestSecretsFromTheEnvironment(t *testing.T) {
	env := map[string]string{
		"JUDGE_MODEL": "fake:judge-m@http://judge-user:judge-pa55@gateway.internal/v1?key=judge-k3y",
		"MODEL":       "agent-model",
		"PASS":        "agent-pa55",
		"ACCOUNT":     "acct-0042",
		"KEY":         "agent-k3y",
		"HOST":        "gateway.internal",
		"TOKEN":       "mcp-t0ken",
		"ARG":         "exec-arg-s3cret",
		"PORT":        "8080",
		"NOW":         "2024-05-20",
		"LISTEN":      "127.0.0.1:43123",
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "gavel.yaml"), []byte(`name: secrets
models:
  judge: ${JUDGE_MODEL}
  user: ${UNSET:-fake:default-user-model}
agent:
  builtin:
    model: fake:${MODEL}@http://u:${PASS}@${HOST}:${PORT}/${ACCOUNT}/v1?key=${KEY}
    now: ${NOW}
    mcp:
      - {url: 'http://${HOST}/mcp?token=${TOKEN}', headers: {Authorization: 'Bearer ${TOKEN}'}}
      - {command: [server, --key, '${ARG}', --port, '${PORT}']}
cases:
  - {id: a, input: hi, expected_tools: [x]}
`), 0o644)
	e := testEnv()
	e.Registry["fake"] = e.Registry["script"]
	e.Getenv = func(name string) string { return env[name] }
	e.DryRun = true
	b, err := spec.Open(filepath.Join(dir, "gavel.yaml"), e)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	secrets := b.Suite.Secrets
	for _, tc := range []struct{ value, want string }{
		{"judge-pa55", "***"},                        // the password of a reference read whole: ***
		{"judge-k3y", "***"},                         // and its query's values
		{"judge-user", "***"},                        // and its user
		{"agent-pa55", "${PASS}"},                    // read into a URL's user info
		{"acct-0042", "${ACCOUNT}"},                  // into its path
		{"agent-k3y", "${KEY}"},                      // into its query
		{"mcp-t0ken", "${TOKEN}"},                    // into a header, and a query
		{"exec-arg-s3cret", "${ARG}"},                // into a command
		{"agent-model", "agent-model"},               // the model: shown
		{"gateway.internal", "gateway.internal"},     // the host: shown
		{"8080", "8080"},                             // too short to hide
		{"2024-05-20", "2024-05-20"},                 // a time
		{"default-user-model", "default-user-model"}, // a default is in the file
	} {
		if got := secrets.Redact(tc.value); got != tc.want {
			t.Errorf("%s: shown as %q, want %q", tc.value, got, tc.want)
		}
	}
	want := map[string]string{
		"judge": "fake:judge-m@http://gateway.internal/v1?key=***",
		"agent": "fake:agent-model@http://gateway.internal:8080/${ACCOUNT}/v1?key=***",
		"user":  "fake:default-user-model",
	}
	if diff := cmp.Diff(want, b.Suite.Models); diff != "" {
		t.Errorf("Suite.Models, as reports and the store show them (-want +got):\n%s", diff)
	}
	if got := b.ModelRef("agent"); got != "fake:agent-model@http://u:agent-pa55@gateway.internal:8080/acct-0042/v1?key=agent-k3y" {
		t.Errorf("ModelRef(agent) = %q, want the reference as resolved, to open it with", got)
	}
}

// A problem or a warning that quotes a value read from the environment
// quotes it hidden.
func TestProblemsHideSecrets(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "gavel.yaml"), []byte(`name: secrets
models: {judge: 'nosuch:m@http://u:${PASS}@host/v1'}
agent: {exec: {command: [cat]}}
cases:
  - {id: a, input: hi, judge_prompt: nice}
`), 0o644)
	e := testEnv()
	e.Getenv = func(name string) string { return map[string]string{"PASS": "hunter2-pa55"}[name] }
	_, err := spec.Open(filepath.Join(dir, "gavel.yaml"), e)
	if err == nil || strings.Contains(err.Error(), "hunter2-pa55") || !strings.Contains(err.Error(), "${PASS}") {
		t.Errorf("the problems hold the password, or no marker: %v", err)
	}
}
