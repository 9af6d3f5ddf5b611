package spec_test

import (
	"context"
	"testing"
	"time"

	"github.com/gavelhq/gavel/runner"
	"github.com/gavelhq/gavel/spec"
)

// echoEnvAgent is an exec agent in sh that replies to every message with
// the value of its GREETING variable in capitals (a value read from the
// environment is a secret, hidden wherever it is written).
const echoEnvAgent = `while IFS= read -r line; do
  id=$(printf '%s' "$line" | sed 's/.*"id":"\([^"]*\)".*/\1/')
  case "$line" in
    *'"type":"message"'*) printf '{"type":"reply","id":"%s","text":"%s","usage":{"input_tokens":0,"output_tokens":0}}\n' "$id" "$(printf '%s' "$GREETING" | tr a-z A-Z)" ;;
    *) printf '{"type":"ok","id":"%s"}\n' "$id" ;;
  esac
done`

// An exec agent's env reads the environment as its command does: an
// agent is pointed at an address or given a key the suite does not hold.
func TestExecEnvReadsTheEnvironment(t *testing.T) {
	dir := suiteDir(t, map[string]string{"agent.sh": echoEnvAgent, "gavel.yaml": `agent:
  exec:
    command: [sh, agent.sh]
    env: ['GREETING=${GREETING} and ${UNSET:-a default}']
cases:
  - {id: a, input: hi, rules: [{contains: x}]}
`})
	e := testEnv()
	e.Getenv = func(name string) string { return map[string]string{"GREETING": "hello from the environment"}[name] }
	b, err := spec.Open(dir, e)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	r := runner.Run(ctx, b.Suite, runner.Config{Concurrency: 1, Timeout: 30 * time.Second})
	tr := r.Cases[0].Trials[0].Transcript
	if got, want := tr.Response(), "HELLO FROM THE ENVIRONMENT AND A DEFAULT"; got != want {
		t.Errorf("the agent's GREETING is %q, want %q", got, want)
	}
}
