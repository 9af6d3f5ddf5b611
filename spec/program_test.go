package spec

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/judge"
)

// TestProgramJudges: a program judge of a case, of a round and of every
// case, once and persistent, is told which case and which round it
// judges, reads ${VAR} in its env, and runs in the first tier; the items
// that name one persistent program share its process.
func TestProgramJudges(t *testing.T) {
	dir := t.TempDir()
	saved := filepath.Join(dir, "saved")
	if err := os.Mkdir(saved, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, script := range map[string]string{
		// once: saves its input, passes.
		"once.sh": `f=$(mktemp "$SAVED/once.XXXXXX"); cat > "$f"; echo '{"status": "pass", "reasoning": "saved"}'`,
		// persistent: saves each line, passes it, saying its token.
		"persistent.sh": `echo start >> starts
while IFS= read -r line; do
  f=$(mktemp "$SAVED/persistent.XXXXXX"); printf '%s\n' "$line" > "$f"
  id=$(printf '%s' "$line" | sed 's/^{"id":"\([0-9]*\)".*/\1/')
  printf '{"id":"%s","score":0.9,"reasoning":"token %s"}\n' "$id" "$TOKEN"
done`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	suite := `agent: {exec: {command: [cat]}}
every_case:
  rules:
    - program: [sh, persistent.sh]
      mode: persistent
      threshold: 0.8
      env: ["SAVED=saved", "TOKEN=${JUDGE_TOKEN}"]
cases:
  - id: a
    name: Case A
    input: hello
    metadata: {team: orders}
    judges:
      - {program: [sh, once.sh], env: ["SAVED=saved"], soft: true}
      - {program: [sh, persistent.sh], mode: persistent, env: ["SAVED=saved", "TOKEN=${JUDGE_TOKEN}"], threshold: 0.5}
  - id: b
    rounds:
      - prompt: first
      - prompt: second
        judges:
          - {program: [sh, once.sh], env: ["SAVED=saved"]}
`
	if err := os.WriteFile(filepath.Join(dir, "gavel.yaml"), []byte(suite), 0o644); err != nil {
		t.Fatal(err)
	}
	env := registryEnv(nil)
	env.Getenv = func(name string) string {
		if name == "JUDGE_TOKEN" {
			return "s3cret-token"
		}
		return ""
	}
	b, err := Open(dir, env)
	if err != nil {
		t.Fatal(err)
	}
	transcripts := map[string]*judge.Transcript{
		"a": {CaseID: "a", Goal: "hello", Turns: []judge.Turn{{Role: judge.RoleUser, Content: "hello"}, {Role: judge.RoleAgent, Content: "hi"}}},
		"b": {CaseID: "b", Goal: "first", Turns: []judge.Turn{
			{Role: judge.RoleUser, Content: "first", Round: 1}, {Role: judge.RoleAgent, Content: "one", Round: 1},
			{Role: judge.RoleUser, Content: "second", Round: 2}, {Role: judge.RoleAgent, Content: "two", Round: 2},
		}},
	}
	for _, c := range b.Suite.Cases {
		got := judge.Run(context.Background(), c.Judge, transcripts[c.ID])
		if !got.Passed() {
			t.Errorf("case %s: %s: %s", c.ID, got.Status, got.Reasoning)
		}
		if !strings.Contains(c.Expected, "program sh once.sh passes") && c.ID == "a" {
			t.Errorf("case a expects %q", c.Expected)
		}
		if text := allReasoning(got); !strings.Contains(text, "token s3cret-token") {
			t.Errorf("case %s: the persistent judge did not read ${JUDGE_TOKEN}: %s", c.ID, text)
		} else if strings.Contains(b.Suite.Secrets.Redact(text), "s3cret-token") {
			t.Errorf("case %s: the token read into env is not a secret of the suite", c.ID)
		}
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}

	if starts, _ := os.ReadFile(filepath.Join(dir, "starts")); string(starts) != "start\n" {
		t.Errorf("the persistent program started %q, want once: its two items share the process", starts)
	}
	files, err := filepath.Glob(filepath.Join(saved, "*"))
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var in struct {
			Case struct {
				ID, Name string
				Metadata map[string]string
			}
			Round int
			Turns []struct{ Content string }
		}
		if err := json.Unmarshal(data, &in); err != nil {
			t.Fatalf("%s: %v\n%s", f, err, data)
		}
		mode, _, _ := strings.Cut(filepath.Base(f), ".")
		seen = append(seen, strings.Join([]string{mode, in.Case.ID, in.Case.Name, in.Case.Metadata["team"], string(rune('0' + in.Round)), in.Turns[0].Content}, " "))
	}
	slices.Sort(seen)
	want := []string{
		"once a Case A orders 0 hello",
		"once b   2 second",
		"persistent a Case A orders 0 hello",
		"persistent a Case A orders 0 hello",
		"persistent b   0 first",
	}
	if !slices.Equal(seen, want) {
		t.Errorf("the programs were given\n%s\nwant\n%s", strings.Join(seen, "\n"), strings.Join(want, "\n"))
	}
}

// allReasoning joins the reasonings of a judgment and its parts.
func allReasoning(j judge.Judgment) string {
	out := j.Reasoning
	for _, p := range j.Parts {
		out += "\n" + allReasoning(p)
	}
	return out
}

func TestProgramProblems(t *testing.T) {
	for _, tc := range []struct {
		item, want string
	}{
		{"{program: [judge.py], mode: shared}", `judges[0] (program): mode "shared": want once (a process per judgment) or persistent (one process for every trial)`},
		{"{program: [judge.py], timeout: soon}", `judges[0] (program): timeout "soon": want a duration such as 5s or 2m`},
		{"{program: [judge.py], threshold: 2}", "threshold 2 is out of range"},
		{"{program: [judge.py], env: [NOEQUALS]}", `env entry "NOEQUALS" is not KEY=VALUE`},
		{"{program: []}", "no program given"},
	} {
		t.Run(tc.item, func(t *testing.T) {
			_, err := openItem(t, tc.item)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v\nwant %s", err, tc.want)
			}
		})
	}
}

// TestProgramNotInPath warns of a program judge whose program is not
// installed: every trial it judges would be an ERROR.
func TestProgramNotInPath(t *testing.T) {
	b, err := openItem(t, "program: [gavel-no-such-judge, x.py]")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	want := "case a: warning: program: gavel-no-such-judge is not in PATH"
	if got := b.Warnings.Error(); !strings.Contains(got, want) {
		t.Errorf("warnings %q lack %q", got, want)
	}
}
