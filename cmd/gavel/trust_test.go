package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/judge"
	"github.com/gavelhq/gavel/store"
)

// trustSuite writes a suite of ten cases, c1 to c10, each run once by a
// scripted agent that says what it is asked to: c3 fails its one rule,
// and c6 fails one of its two (its verdict is All's, of two parts).
// Eight of ten pass: 80%, below the threshold of 90%. edited, when set,
// is a case whose definition this version of the suite changes: it asks
// in other words, with the same outcome. It returns the suite's
// directory.
func trustSuite(t *testing.T, edited ...string) string {
	t.Helper()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "models"), 0o755)
	os.WriteFile(filepath.Join(dir, "models", "agent.yaml"), []byte("name: parrot\nrules:\n  - when: {user: 'say (?P<w>\\w+)'}\n    text: '${w}'\n"), 0o644)
	var b strings.Builder
	b.WriteString("name: trust\nthreshold: 0.9\ntrials: 1\nagent:\n  builtin:\n    model: script:models/agent.yaml\n    system_prompt: Say what you are asked to.\ncases:\n")
	for i := 1; i <= 10; i++ {
		id := fmt.Sprintf("c%d", i)
		input := "say hello"
		if slices.Contains(edited, id) {
			input = "please say hello"
		}
		switch id {
		case "c3":
			fmt.Fprintf(&b, "  - {id: %s, input: say nope, rules: [{contains: hello}]}\n", id)
		case "c6":
			fmt.Fprintf(&b, "  - {id: %s, input: say nope, rules: [{contains: hello}, {contains: nope}]}\n", id)
		default:
			fmt.Fprintf(&b, "  - {id: %s, input: %s, rules: [{contains: hello}]}\n", id, input)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "gavel.yaml"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// trustReport runs the suite (with more args, --shard K/N say) and
// returns the path of its JSON report.
func trustReport(t *testing.T, suite, db, name string, args ...string) string {
	t.Helper()
	out := filepath.Join(filepath.Dir(db), name+".json")
	args = append([]string{"run", "--quiet", "--no-cache", "--db", db, "--out", out}, args...)
	if code, stdout, errs := gavelCmd(t, append(args, suite)...); code != eval.ExitPassed && code != eval.ExitFailed {
		t.Fatalf("gavel %v: exit %d\n%s%s", args, code, stdout, errs)
	}
	return out
}

// A jsonDoc is a JSON report read as plain values, to be edited as a
// person with a text editor would.
type jsonDoc = map[string]any

func readDoc(t *testing.T, path string) jsonDoc {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var d jsonDoc
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// writeDoc writes d, indented, to path.
func writeDoc(t *testing.T, d jsonDoc, path string) {
	t.Helper()
	data, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

var pathStep = regexp.MustCompile(`^([a-zA-Z_]+)((?:\[\d+\])*)$`)

// setPath sets the value at a JSON path of d ("cases[2].trials[0].verdict.status").
func setPath(t *testing.T, d jsonDoc, path string, v any) {
	t.Helper()
	var cur any = d
	steps := strings.Split(path, ".")
	for i, step := range steps {
		m := pathStep.FindStringSubmatch(step)
		if m == nil {
			t.Fatalf("bad path step %q", step)
		}
		obj, ok := cur.(map[string]any)
		if !ok {
			t.Fatalf("%s: not an object before %s", path, step)
		}
		indexes := regexp.MustCompile(`\d+`).FindAllString(m[2], -1)
		if i == len(steps)-1 && len(indexes) == 0 {
			obj[m[1]] = v
			return
		}
		cur = obj[m[1]]
		for k, ix := range indexes {
			n, _ := strconv.Atoi(ix)
			list, ok := cur.([]any)
			if !ok || n >= len(list) {
				t.Fatalf("%s: no element %d at %s", path, n, step)
			}
			if i == len(steps)-1 && k == len(indexes)-1 {
				list[n] = v
				return
			}
			cur = list[n]
		}
	}
}

// caseDocs are the cases of a report read as plain values, by id.
func caseDocs(d jsonDoc) map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, c := range d["cases"].([]any) {
		c := c.(map[string]any)
		out[c["id"].(string)] = c
	}
	return out
}

// forge makes c3 and c6 say they passed, as someone who edits a report
// by hand would: their outcome, their trials' verdicts (c6's parts,
// which say it failed, left as they are) and the report's verdict.
func forge(d jsonDoc) {
	for id, c := range caseDocs(d) {
		if id != "c3" && id != "c6" {
			continue
		}
		c["outcome"], c["pass_rate"] = "PASS", 1
		for _, tr := range c["trials"].([]any) {
			tr.(map[string]any)["verdict"].(map[string]any)["status"] = "PASS"
		}
	}
	d["passed"] = true
}

// Setting failed trials' verdicts and outcomes to PASS in the shards'
// reports changes nothing: gavel merge computes each trial's verdict
// from its judgments, each case's outcome from its trials, and the gate
// from those.
func TestMergeRecomputesForgedShards(t *testing.T) {
	suite := trustSuite(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "results.db")
	var files []string
	for k := 1; k <= 2; k++ {
		path := trustReport(t, suite, db, fmt.Sprintf("shard-%d", k), "--shard", fmt.Sprintf("%d/2", k))
		d := readDoc(t, path)
		forge(d)
		writeDoc(t, d, path)
		files = append(files, path)
	}
	merged := filepath.Join(dir, "merged.json")
	code, out, errs := gavelCmd(t, append([]string{"merge", "--db", db, "--out", merged}, files...)...)
	if code != eval.ExitFailed || !strings.Contains(errs, "the whole run INCONCLUSIVE: pass rate 80%") {
		t.Fatalf("merge of forged shards: exit %d, want 1 saying the whole run INCONCLUSIVE: pass rate 80%%\n%s%s", code, out, errs)
	}
	m := readReport(t, merged)
	for _, c := range m.Cases {
		want := gavel.Passed
		if c.ID == "c3" || c.ID == "c6" {
			want = gavel.Failed
		}
		if c.Outcome != want || c.Trials[0].Verdict.Status != judge.Status(want) {
			t.Errorf("merged %s: outcome %s, trial %s; want %s", c.ID, c.Outcome, c.Trials[0].Verdict.Status, want)
		}
	}
}

// gavel import of a Gavel report computes the verdicts, outcomes and the
// run's status again from its judgments, whatever the report says of
// them.
func TestImportRecomputesAForgedReport(t *testing.T) {
	suite := trustSuite(t)
	dir := t.TempDir()
	path := trustReport(t, suite, filepath.Join(dir, "ran.db"), "run")
	d := readDoc(t, path)
	forge(d)
	c6 := caseDocs(d)["c6"]
	c6["trials"].([]any)[0].(map[string]any)["verdict"].(map[string]any)["status"] = "FAIL" // its outcome alone forged
	setPath(t, d, "stats.pass_rate", 1)
	writeDoc(t, d, path)

	got := importRun(t, filepath.Join(dir, "imported.db"), path)
	if got.Info.Status != store.Failed {
		t.Errorf("the imported run is %s, want failed (80%% of 90%%)", got.Info.Status)
	}
	for _, c := range got.Run.Cases {
		want := gavel.Passed
		if c.ID() == "c3" || c.ID() == "c6" {
			want = gavel.Failed
		}
		if c.Outcome != want || c.Trials[0].Verdict.Status != judge.Status(want) {
			t.Errorf("imported %s: outcome %s, trial %s; want %s", c.ID(), c.Outcome, c.Trials[0].Verdict.Status, want)
		}
	}
}

// An edit is one change to a report's JSON: the value at a path.
type edit struct {
	path  string
	value any
}

// twiceTheFirstTrial, as an edit's value, is c1's trials: its first
// trial twice.
const twiceTheFirstTrial = "the first trial twice"

// What cannot be in a Gavel report is refused, with the file and the
// field, and nothing is imported.
func TestImportRefusesImpossibleValues(t *testing.T) {
	suite := trustSuite(t)
	dir := t.TempDir()
	genuine := trustReport(t, suite, filepath.Join(dir, "ran.db"), "run")
	numerical := map[string]any{"kind": "numerical", "value": 11, "min": 0, "max": 10}
	for _, tc := range []struct {
		name  string
		edits []edit
		says  string
	}{
		{"a negative threshold", []edit{{"suite.threshold", -1}}, "suite.threshold: -1 is no pass rate: want a number from 0 to 1"},
		{"a threshold above 1", []edit{{"suite.threshold", 1.5}}, "suite.threshold: 1.5 is no pass rate: want a number from 0 to 1"},
		{"a negative count of cases", []edit{{"stats.cases.PASS", -1}}, "stats.cases.PASS: -1 is a negative count"},
		{"a negative count of trials", []edit{{"stats.trials", -3}}, "stats.trials: -3 is a negative count"},
		{"a pass rate above 1", []edit{{"stats.pass_rate", 1.2}}, "stats.pass_rate: 1.2 is no rate: want a number from 0 to 1"},
		{"pass@k for k above the trials", []edit{{"stats.pass_at_k", []any{1, 1}}}, "stats.pass_at_k: pass@2, but a case ran 1 trial: k is at most 1"},
		{"a negative pass^k", []edit{{"stats.pass_hat_k", []any{-0.5}}}, "stats.pass_hat_k[0]: -0.5 is no rate"},
		{"a case's pass rate above 1", []edit{{"cases[2].pass_rate", 3}}, "cases[2].pass_rate: 3 is no rate"},
		{"a verdict that is none of the four", []edit{{"cases[2].trials[0].verdict.status", "MAYBE"}}, `cases[2].trials[0].verdict.status: "MAYBE" is not one of PASS, FAIL, ABSTAIN, ERROR`},
		{"a judgment's status that is none of the four", []edit{{"cases[5].trials[0].verdict.parts[1].status", "OK"}}, `cases[5].trials[0].verdict.parts[1].status: "OK" is not one of PASS, FAIL, ABSTAIN, ERROR`},
		{"a score out of its bounds", []edit{{"cases[5].trials[0].verdict.parts[0].score", numerical}}, "cases[5].trials[0].verdict.parts[0].score: numerical score 11 is outside its bounds 0..10"},
		{"a threshold without a bound", []edit{{"cases[0].trials[0].verdict.threshold", map[string]any{"value": 0.5}}}, "cases[0].trials[0].verdict.threshold: no bound"},
		{"a negative duration", []edit{{"cases[0].trials[0].duration_ns", -5}}, "cases[0].trials[0].duration_ns: -5 is a negative duration"},
		{"a trial twice", []edit{{"cases[0].trials", twiceTheFirstTrial}}, "cases[0].trials[1].trial: trial 1 of case c1 twice"},
		{"an unknown stop", []edit{{"stopped", "coffee-break"}, {"incomplete", true}}, `stopped: "coffee-break" is not one of interrupted, budget, fail-fast, running, not-judged`},
		{"incomplete without a cause", []edit{{"incomplete", true}}, `incomplete: true, but stopped says nothing of what stopped the run`},
		{"a verdict on a conversation that did not complete", []edit{{"cases[0].trials[0].transcript.status", "FAILED"}},
			"cases[0].trials[0].verdict.status: PASS, but the conversation did not complete (FAILED): its verdict is ERROR"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := readDoc(t, genuine)
			for _, e := range tc.edits {
				v := e.value
				if v == twiceTheFirstTrial {
					tr := caseDocs(d)["c1"]["trials"].([]any)[0]
					v = []any{tr, tr}
				}
				setPath(t, d, e.path, v)
			}
			path := filepath.Join(t.TempDir(), "report.json")
			writeDoc(t, d, path)
			db := filepath.Join(t.TempDir(), "imported.db")
			code, out, errs := gavelCmd(t, "import", "--db", db, path)
			if code != eval.ExitUsage || !strings.Contains(errs, path+": "+tc.says) {
				t.Errorf("import: exit %d, want 2 saying %q\n%s%s", code, path+": "+tc.says, out, errs)
			}
			if _, err := os.Stat(db); err == nil {
				assertNoRun(t, db)
			}
		})
	}
}

// assertNoRun fails the test when the database holds a run.
func assertNoRun(t *testing.T, db string) {
	t.Helper()
	st, err := eval.OpenStore(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	runs, err := st.Runs(context.Background(), store.RunFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) > 0 {
		t.Errorf("a refused import stored %d runs", len(runs))
	}
}

// What cannot be in a shard's report is refused by gavel merge as by
// gavel import, with the file and the field, and nothing is stored.
func TestMergeRefusesImpossibleValues(t *testing.T) {
	suite := trustSuite(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "results.db")
	s1 := trustReport(t, suite, db, "shard-1", "--shard", "1/2")
	s2 := trustReport(t, suite, db, "shard-2", "--shard", "2/2")
	_, before, _ := gavelCmd(t, "runs", "--db", db)
	for _, tc := range []struct {
		name      string
		both      bool // the edit goes to both shards
		edits     []edit
		says      string
		otherSays string // what the message says of the other shard, when the edit is to one
	}{
		{name: "a negative threshold", both: true, edits: []edit{{"suite.threshold", -1}}, says: "suite.threshold: -1 is no pass rate"},
		{name: "a negative number of shards", edits: []edit{{"shard.count", -3}}, says: "shard.count: -3: a run has at least 1 shard"},
		{name: "a negative number of trials", both: true, edits: []edit{{"shard.cases[0].trials", -1}}, says: "shard.cases[0].trials: -1 is a negative count"},
		{name: "a verdict that is none of the four", edits: []edit{{"cases[0].trials[0].verdict.status", "MAYBE"}}, says: `cases[0].trials[0].verdict.status: "MAYBE" is not one of PASS, FAIL, ABSTAIN, ERROR`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var files []string
			for k, src := range []string{s1, s2} {
				d := readDoc(t, src)
				if k == 0 || tc.both {
					for _, e := range tc.edits {
						setPath(t, d, e.path, e.value)
					}
				}
				path := filepath.Join(t.TempDir(), filepath.Base(src))
				writeDoc(t, d, path)
				files = append(files, path)
			}
			code, out, errs := gavelCmd(t, append([]string{"merge", "--quiet", "--db", db}, files...)...)
			if code != eval.ExitUsage || !strings.Contains(errs, files[0]+": "+tc.says) {
				t.Errorf("merge: exit %d, want 2 saying %q\n%s%s", code, files[0]+": "+tc.says, out, errs)
			}
		})
	}
	if _, after, _ := gavelCmd(t, "runs", "--db", db); after != before {
		t.Errorf("a refused merge stored a run:\n%s", after)
	}
}

// The shards of two versions of a suite, whose case definitions differ,
// are not one run: gavel merge refuses them, naming the cases that
// differ, and a shard of another version may not join a labelled run.
func TestShardsOfTwoVersionsOfASuite(t *testing.T) {
	v1, v2 := trustSuite(t), trustSuite(t, "c4", "c7")
	dir := t.TempDir()
	db := filepath.Join(dir, "results.db")
	s1 := trustReport(t, v1, db, "shard-1", "--shard", "1/2")
	s2 := trustReport(t, v2, db, "shard-2", "--shard", "2/2")
	code, out, errs := gavelCmd(t, "merge", "--quiet", "--db", db, s1, s2)
	if want := "cases c4, c7 are defined otherwise in " + s2 + " than in " + s1; code != eval.ExitUsage || !strings.Contains(errs, want) {
		t.Errorf("merge of two versions: exit %d, want 2 saying %q\n%s%s", code, want, out, errs)
	}

	if code, out, errs := gavelCmd(t, "run", "--quiet", "--no-cache", "--db", db, "--shard", "1/2", "--run-label", "v", v1); code != eval.ExitPassed {
		t.Fatalf("shard 1/2 of version 1: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = gavelCmd(t, "run", "--quiet", "--no-cache", "--db", db, "--shard", "2/2", "--run-label", "v", v2)
	if code != eval.ExitUsage || !strings.Contains(errs, "selected other cases or trials") {
		t.Errorf("shard 2/2 of version 2 joining version 1's run: exit %d, want 2\n%s%s", code, out, errs)
	}
}
