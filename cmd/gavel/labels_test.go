package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gavelhq/gavel/eval"
	"github.com/gavelhq/gavel/report"
	"github.com/gavelhq/gavel/store"
	"github.com/gavelhq/gavel/store/sqlite"
)

// write writes a file in dir and returns its path.
func write(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// copyFile copies a database, to import into a store without the labels.
func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Labels exported from one database and imported into another (the
// same runs, no labels) come back the same, in CSV and in JSON Lines;
// importing them again changes nothing.
func TestLabelsRoundTrip(t *testing.T) {
	dir, db := starterSuite(t)
	id := savedRun(t, eval.ExitFailed, "--db", db, dir)
	bare := filepath.Join(t.TempDir(), "bare.db")
	copyFile(t, db, bare)

	st, err := sqlite.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	score := 0.25
	if _, err := st.AddLabels(context.Background(), []store.Label{
		{RunID: id, CaseID: "returns_policy", Trial: 1, Category: "fail", Score: &score, Comment: "no 30 days,\n\"said\" nothing", Author: "ada"},
		{RunID: id, CaseID: "returns_policy", Trial: 1, Verdict: "correct", Author: "grace"},
		{RunID: id, CaseID: "greeting", Trial: 1, Category: "pass", Author: "ada"},
	}); err != nil {
		t.Fatal(err)
	}
	st.Close()

	for _, format := range []string{"csv", "jsonl"} {
		t.Run(format, func(t *testing.T) {
			code, exported, errs := gavelCmd(t, "labels", "export", "--db", db, "--suite", "my-agent", "--format", format)
			if code != eval.ExitPassed || strings.Count(exported, "\n") < 3 {
				t.Fatalf("export: exit %d\n%s%s", code, exported, errs)
			}
			into := filepath.Join(t.TempDir(), "into.db")
			copyFile(t, bare, into)
			file := write(t, t.TempDir(), "labels."+format, exported)
			for range 2 { // the second import changes nothing
				if code, out, errs := gavelCmd(t, "labels", "import", "--db", into, file); code != eval.ExitPassed || !strings.Contains(out, "3 labels imported") {
					t.Fatalf("import: exit %d\n%s%s", code, out, errs)
				}
			}
			_, again, _ := gavelCmd(t, "labels", "export", "--db", into, "--suite", "my-agent", "--format", format)
			if again != exported {
				t.Errorf("exported again:\n%s\nwant\n%s", again, exported)
			}
			st, err := sqlite.Open(into)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			if history, err := st.LabelHistory(context.Background(), id); err != nil || len(history) != 3 {
				t.Errorf("history after importing twice: %d labels, %v; want 3", len(history), err)
			}
		})
	}
}

// An import with a mistake says where, file:line, and imports nothing of
// that file; 50 identical labels by one person count once.
func TestLabelsImport(t *testing.T) {
	dir, db := starterSuite(t)
	id := savedRun(t, eval.ExitFailed, "--db", db, dir)
	files := t.TempDir()
	row := `{"run":"` + id + `","case":"returns_policy","trial":1,"author":"ada","category":"pass"}` + "\n"
	for _, tc := range []struct {
		name, file, text, want string
	}{
		{"no such trial", "a.jsonl", row + strings.Replace(row, `"trial":1`, `"trial":7`, 1), "a.jsonl:2: label " + id + " returns_policy#7: no such trial"},
		{"bad score", "b.csv", "run,case,trial,author,verdict,score\n" + id + ",greeting,1,ada,wrong,\n" + id + ",greeting,1,bob,wrong,2\n", "b.csv:3: score \"2\" is not a number from 0 to 1"},
		{"unknown field", "c.jsonl", row + `{"run":"x","case":"y","trial":1,"labell":"pass"}` + "\n", `c.jsonl:2: unknown field "labell"`},
		{"no category, no verdict", "d.csv", "run,case,trial,author\n" + id + ",greeting,1,ada\n", "d.csv:2: no category and no verdict"},
		{"not JSON", "e.jsonl", row + "{run: 1}\n", "e.jsonl:2: not a JSON object"},
		{"a quote left open", "f.csv", "run,case,trial,category\n" + id + ",greeting,1,\"pass\n", "f.csv:2:"},
		// Issue 22: a label off its judgment's scale changed the kappa, a
		// label on a judgment the trial lacks was dropped, a person's two
		// labels on one judgment were made one.
		{"maybe on a pass/fail verdict", "g.jsonl", row + strings.NewReplacer(`"pass"`, `"maybe"`, `"ada"`, `"grace"`).Replace(row),
			"g.jsonl:2: label " + id + ` returns_policy#1: "maybe" is not a category of the verdict: pass or fail`},
		{"win on a pass/fail verdict", "h.csv", "run,case,trial,author,category\n" + id + ",greeting,1,ada,win\n", `h.csv:2: label ` + id + ` greeting#1: "win" is not a category of the verdict: pass or fail`},
		{"7 on a pass/fail verdict", "i.csv", "run,case,trial,author,category\n" + id + ",greeting,1,ada,7\n", `i.csv:2: label ` + id + ` greeting#1: "7" is not a category of the verdict`},
		{"0.5 on a pass/fail verdict", "j.csv", "run,case,trial,author,category\n" + id + ",greeting,1,ada,0.5\n", `j.csv:2: label ` + id + ` greeting#1: "0.5" is not a category of the verdict`},
		{"a judgment the trial does not have", "k.jsonl", strings.Replace(row, `"author"`, `"judgment":"tiered/nobody","author"`, 1),
			`k.jsonl:1: label ` + id + ` returns_policy#1: the verdict has no judgment "tiered/nobody"`},
		{"two labels by one person on one judgment", "l.jsonl", row + strings.Replace(row, `"pass"`, `"fail"`, 1),
			`l.jsonl:2: the verdict of ` + id + ` returns_policy#1 is labelled twice by "ada" (first at line 1): keep one label per person`},
		{"the same label twice", "m.jsonl", row + row, `m.jsonl:2: the verdict of ` + id + ` returns_policy#1 is labelled twice by "ada" (first at line 1)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := gavelCmd(t, "labels", "import", "--db", db, write(t, files, tc.file, tc.text))
			if code != eval.ExitUsage || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d, %s; want %d and %q", code, errs, eval.ExitUsage, tc.want)
			}
		})
	}
	st, err := sqlite.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	if labels, err := st.Labels(context.Background(), id); err != nil || len(labels) != 0 {
		t.Errorf("after failed imports: %d labels, %v; want none", len(labels), err)
	}
	st.Close()

	// The defect: 50 identical labels gave "calibrated (100% agreement
	// over 50 labels)". They are refused, as gavel calibrate --labels
	// refuses them; one of them is one label.
	same := write(t, files, "same.jsonl", strings.Repeat(row, 50))
	if code, _, errs := gavelCmd(t, "labels", "import", "--db", db, same); code != eval.ExitUsage || !strings.Contains(errs, "same.jsonl:2:") {
		t.Fatalf("import 50 identical labels: exit %d, %s; want them refused", code, errs)
	}
	once := write(t, files, "once.jsonl", row)
	if code, out, errs := gavelCmd(t, "labels", "import", "--db", db, once); code != eval.ExitPassed || !strings.Contains(out, "once.jsonl: 1 label imported") {
		t.Fatalf("import one label: exit %d, %s%s", code, out, errs)
	}
	_, out, _ := gavelCmd(t, "calibrate", "--db", db)
	if !strings.Contains(out, "over 1 label;") {
		t.Errorf("one label:\n%s\nwant it counted once", out)
	}
}

// gavel calibrate selects labels by run date and prompt version: the
// starter suite's rubric judge records its prompt's version.
func TestCalibrateFilters(t *testing.T) {
	dir, db := starterSuite(t)
	id := savedRun(t, eval.ExitFailed, "--db", db, dir)
	st, err := sqlite.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := st.AddLabel(ctx, store.Label{RunID: id, CaseID: "returns_policy", Trial: 1, Category: "pass", Author: "ada"}); err != nil {
		t.Fatal(err)
	}
	sr, err := st.RunCase(ctx, id, "returns_policy")
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	var version string // the first prompt version in the verdict
	data, _ := json.Marshal(sr.Result.Trials[0].Verdict)
	if i := strings.Index(string(data), `"prompt":"`); i >= 0 {
		version = string(data)[i+len(`"prompt":"`) : i+len(`"prompt":"`)+6]
	}
	if version == "" {
		t.Fatalf("the verdict records no prompt version: %s", data)
	}
	counted := func(args ...string) int {
		t.Helper()
		code, out, errs := gavelCmd(t, append([]string{"calibrate", "--db", db, "--format", "json"}, args...)...)
		var c report.JSONCalibration
		if err := json.Unmarshal([]byte(out), &c); err != nil || code != eval.ExitPassed {
			t.Fatalf("calibrate %v: exit %d, %v\n%s%s", args, code, err, out, errs)
		}
		return c.Counted
	}
	for _, tc := range []struct {
		args []string
		want int
	}{
		{nil, 1},
		{[]string{"--prompt-version", version}, 1},
		{[]string{"--prompt-version", "000000"}, 0},
		{[]string{"--since", "2000-01-01"}, 1},
		{[]string{"--since", "2999-01-01"}, 0},
		{[]string{"--labelled-since", "2999-01-01T00:00:00Z"}, 0},
		{[]string{"--judgment", "."}, 1},
	} {
		if got := counted(tc.args...); got != tc.want {
			t.Errorf("calibrate %v: %d counted, want %d", tc.args, got, tc.want)
		}
	}
	if code, _, errs := gavelCmd(t, "calibrate", "--db", db, "--since", "last week"); code != eval.ExitUsage || !strings.Contains(errs, `"last week" is not a date`) {
		t.Errorf("--since last week: exit %d, %s", code, errs)
	}
}

// An outside judge is measured against people's labels with no run: a
// three-class (A, B, tie) data set whose kappa is worked out by hand,
// and two raters.
func TestCalibrateOutsideJudgments(t *testing.T) {
	files := t.TempDir()
	// The judge against ada on 20 items, the table of TestAgree's three
	// classes: rows the judge, columns ada.
	//          A   B  tie
	//   A      6   1   1
	//   B      1   5   0
	//   tie    1   1   4
	// kappa (0.75 - 0.34) / 0.66 = 41/66 = 0.62.
	cells := []struct {
		judge, ada string
		n          int
	}{{"A", "A", 6}, {"A", "B", 1}, {"A", "tie", 1}, {"B", "A", 1}, {"B", "B", 5}, {"tie", "A", 1}, {"tie", "B", 1}, {"tie", "tie", 4}}
	var judgments, labels strings.Builder
	labels.WriteString("item,rater,label\n")
	item := 0
	for _, c := range cells {
		for range c.n {
			item++
			judgments.WriteString(`{"item":"q` + strconv.Itoa(item) + `","label":"` + c.judge + `"}` + "\n")
			labels.WriteString("q" + strconv.Itoa(item) + ",ada," + c.ada + "\n")
			if item <= 4 { // grace labels the first four items (A, A, A, A to ada): she says A, A, B, B
				labels.WriteString("q" + strconv.Itoa(item) + ",grace," + map[bool]string{true: "A", false: "B"}[item <= 2] + "\n")
			}
		}
	}
	jf, lf := write(t, files, "judge.jsonl", judgments.String()), write(t, files, "gold.csv", labels.String())
	code, out, errs := gavelCmd(t, "calibrate", "--judgments", jf, "--labels", lf)
	// 24 labels: ada's 20 (15 agree) and grace's 4 (A, A, B, B against the
	// judge's A: 2 agree). Agreement 17/24.
	for _, want := range []string{
		"Judge calibration of the judgments of " + jf + ": too few labels (70.8% agreement over 24 labels",
		"Agreement:   17 of 24",
		"ada and grace: 2 of 4 (50%), kappa 0.00",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s%s", want, out, errs)
		}
	}
	if code != eval.ExitPassed {
		t.Errorf("exit %d", code)
	}
	// ada alone: the hand-worked table.
	var onlyAda strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(labels.String()), "\n") {
		if !strings.Contains(line, ",grace,") {
			onlyAda.WriteString(line + "\n")
		}
	}
	code, out, _ = gavelCmd(t, "calibrate", "--judgments", jf, "--labels", write(t, files, "ada-only.csv", onlyAda.String()), "--format", "json")
	var c report.JSONCalibration
	if err := json.Unmarshal([]byte(out), &c); err != nil || code != eval.ExitPassed {
		t.Fatalf("json: exit %d, %v\n%s", code, err, out)
	}
	if c.Kappa == nil || *c.Kappa < 41.0/66-1e-9 || *c.Kappa > 41.0/66+1e-9 || c.Judgments != jf || len(c.Table.Categories) != 3 {
		t.Errorf("kappa %v, judgments %q, categories %v; want 41/66, %q, A B tie", c.Kappa, c.Judgments, c.Table.Categories, jf)
	}

	for _, tc := range []struct {
		name   string
		labels string
		want   string
	}{
		{"an item without a judgment", "item,rater,label\nq1,ada,A\nq99,ada,B\n", "gold2.csv:3: item \"q99\" has no judgment in " + jf},
		{"labelled twice", "item,rater,label\nq1,ada,A\nq1,ada,B\n", "gold2.csv:3: item \"q1\" is labelled twice by \"ada\" (first at line 2)"},
		{"no rater", "item,rater,label\nq1,,A\n", "gold2.csv:2: no rater"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := gavelCmd(t, "calibrate", "--judgments", jf, "--labels", write(t, files, "gold2.csv", tc.labels))
			if code != eval.ExitUsage || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d, %s; want %q", code, errs, tc.want)
			}
		})
	}
	if code, _, errs := gavelCmd(t, "calibrate", "--judgments", jf); code != eval.ExitUsage || !strings.Contains(errs, "go together") {
		t.Errorf("--judgments alone: exit %d, %s", code, errs)
	}
}

// An outside judge's pass/fail judgment takes pass or fail from people
// (issue 22: maybe, win, 7 and 0.5 were counted and changed the kappa),
// and one person labels an item once.
func TestCalibrateOutsideScale(t *testing.T) {
	files := t.TempDir()
	jf := write(t, files, "judge.jsonl", `{"item":"p1","label":"pass"}`+"\n"+`{"item":"p2","label":"FAIL"}`+"\n"+`{"item":"v1","label":"A"}`+"\n")
	for _, tc := range []struct {
		name, labels, want string
	}{
		{"maybe on a pass/fail judgment", "item,rater,label\np1,ada,pass\np2,ada,maybe\n", `gold.csv:3: item "p2": "maybe" is not a category of a pass/fail judgment (the judge said fail): pass or fail`},
		{"win on a pass/fail judgment", "item,rater,label\np1,ada,win\n", `gold.csv:2: item "p1": "win" is not a category of a pass/fail judgment`},
		{"7 on a pass/fail judgment", "item,rater,label\np1,ada,7\n", `gold.csv:2: item "p1": "7" is not a category`},
		{"0.5 on a pass/fail judgment", "item,rater,label\np1,ada,0.5\n", `gold.csv:2: item "p1": "0.5" is not a category`},
		{"labelled twice", "item,rater,label\np1,ada,pass\np1,ada,pass\n", `gold.csv:3: item "p1" is labelled twice by "ada" (first at line 2): keep one label per person`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := gavelCmd(t, "calibrate", "--judgments", jf, "--labels", write(t, files, "gold.csv", tc.labels))
			if code != eval.ExitUsage || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d, %s; want %d and %q", code, errs, eval.ExitUsage, tc.want)
			}
		})
	}
	// Other scales are the data set's own: a person's tie where the judge
	// said A is a disagreement, not a mistake.
	code, out, errs := gavelCmd(t, "calibrate", "--judgments", jf, "--labels", write(t, files, "gold.csv", "item,rater,label\np1,ada,PASS\np2,ada,fail\nv1,ada,tie\n"))
	if code != eval.ExitPassed || !strings.Contains(out, "Agreement:   2 of 3") {
		t.Errorf("exit %d\n%s%s\nwant 2 of 3 agreeing", code, out, errs)
	}
}

// Labels on judgments Gavel's cache answered count: a run replayed from
// the cache is the model's judgment (issue 22: after 108 labels in the
// web app, 2 counted, for a judgment counted as a model's only when it
// spent tokens).
func TestCalibrateCountsCachedJudgments(t *testing.T) {
	dir, db := starterSuite(t)
	t.Chdir(dir) // the cache is .gavel/cache here
	var ids []string
	for _, want := range []string{"", "all answered from the cache"} {
		var out, errs strings.Builder
		code := run([]string{"run", "--db", db, dir}, stdio{strings.NewReader(""), &out, &errs})
		m := runID.FindStringSubmatch(errs.String())
		if code != eval.ExitFailed || m == nil || !strings.Contains(out.String(), want) {
			t.Fatalf("gavel run: exit %d, want %d and %q\n%s%s", code, eval.ExitFailed, want, out.String(), errs.String())
		}
		ids = append(ids, m[1])
	}
	var rows strings.Builder
	for _, id := range ids {
		rows.WriteString(`{"run":"` + id + `","case":"returns_policy","trial":1,"author":"ada","category":"pass"}` + "\n")
	}
	if code, out, errs := gavelCmd(t, "labels", "import", "--db", db, write(t, t.TempDir(), "labels.jsonl", rows.String())); code != eval.ExitPassed {
		t.Fatalf("labels import: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs := gavelCmd(t, "calibrate", "--db", db, "--format", "json")
	var c report.JSONCalibration
	if err := json.Unmarshal([]byte(out), &c); err != nil || code != eval.ExitPassed {
		t.Fatalf("calibrate: exit %d, %v\n%s%s", code, err, out, errs)
	}
	if c.Labels != 2 || c.Counted != 2 {
		t.Errorf("labels on a run and on its replay from the cache: %d labels, %d counted; want 2, 2", c.Labels, c.Counted)
	}
}
