package web

import (
	"context"
	"net/http"
	"strings"
	"testing"
)

// withJudgesJSON is a valid new case of support-desk, as POST /api/cases
// takes it, judged by the judges given (a JSON list).
func withJudgesJSON(id, judges string) string {
	return `{"suite": "support-desk", "id": "` + id + `", "input": "My order 12345 is late.", "judges": ` + judges + `}`
}

// The API writes judges as the form does: each the mapping a suite file
// writes, checked as gavel run checks it; those that would run code on
// the server are refused with their path.
func TestAPIWriteJudges(t *testing.T) {
	f := newFixture(t, Config{})
	judges := `[{"contains": "refund", "ignore_case": true},
	  {"min_mean": 6.5, "criteria": {"warmth": "Is it warm?", "accuracy": "Are the facts right?"}},
	  {"jury": {"strategy": "majority", "jurors": [{"rubric": "Is it polite?"}, {"contains": "12345"}]}, "name": "panel"},
	  {"no_placeholders": true, "soft": true},
	  {"equals": "01234"}]`
	var saved CaseVersion
	f.sendJSON("POST", "/api/cases", withJudgesJSON("judged", judges), http.StatusCreated, &saved)
	mustContain(t, "definition", saved.Definition, "judges:\n    - contains: refund\n      ignore_case: true\n",
		"    - criteria:\n        warmth: Is it warm?\n        accuracy: Are the facts right?\n      min_mean: 6.5\n",
		"    - jury:\n        strategy: majority\n        jurors:\n            - rubric: Is it polite?\n            - contains: \"12345\"\n      name: panel\n",
		"    - no_placeholders: true\n      soft: true\n", `    - equals: "01234"`)

	// It opens in the form, and a PUT changes its judges.
	res, body := f.get("/cases/support-desk/judged/edit")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("the form of a case with judges: %d\n%s", res.StatusCode, shortBody(body))
	}
	mustContain(t, "the form", body, `name="judges.1.f.min_mean" value="6.5"`, `name="judges.4.f.equals" value="01234"`)
	f.sendJSON("PUT", "/api/cases/support-desk/judged", `{"version": 1, "input": "Hi", "judges": [{"regex": "^Hello", "ignore_case": true}]}`, http.StatusOK, &saved)
	if saved.Version != 2 || !strings.Contains(saved.Definition, "judges:\n    - regex: ^Hello\n      ignore_case: true\n") {
		t.Errorf("after PUT: version %d\n%s", saved.Version, saved.Definition)
	}

	for _, tc := range []struct {
		name, judges string
		status       int
		want         string
	}{
		{"a command", `[{"contains": "x"}, {"command": ["rm", "-rf", "/"]}]`, http.StatusUnprocessableEntity,
			"judges[1]: a judge of kind command runs commands, reads files or queries databases on the machine that judges"},
		{"a file in a jury", `[{"jury": {"jurors": [{"rubric": "ok"}, {"file_exists": "/etc/passwd"}]}}]`, http.StatusUnprocessableEntity,
			"judges[0]: a judge of kind file_exists"},
		{"a prompt file", `[{"rubric": "ok", "prompt_file": "/etc/passwd"}]`, http.StatusUnprocessableEntity, `judges[0]: prompt_file \"/etc/passwd\" reads a file`},
		{"a schema file", `[{"json_schema": "/etc/passwd"}]`, http.StatusUnprocessableEntity, `judges[0]: json_schema \"/etc/passwd\" is the path of a file`},
		{"a model reading the environment", `[{"rubric": "ok", "model": "openai:${OPENAI_API_KEY}"}]`, http.StatusUnprocessableEntity,
			"reads the environment of the machine that judges"},
		{"a field of the wrong type", `[{"contains": "x", "ignore_case": "maybe"}]`, http.StatusUnprocessableEntity,
			"judges[0].ignore_case: want true or false, got a string"},
		{"no kind", `[{"name": "nameless", "soft": true}]`, http.StatusUnprocessableEntity, "no kind of judge given"},
		{"an unknown field", `[{"contains": "x", "bogus": 1}]`, http.StatusUnprocessableEntity, `judges[0].bogus: unknown field \"bogus\" in a contains judge`},
		{"a judge that is not a mapping", `["contains"]`, http.StatusBadRequest, `a judge is an object that gives one kind's key`},
		{"a string of digits", `[{"equals": "007", "ignore_case": "true"}]`, http.StatusUnprocessableEntity, "judges[0].ignore_case: want true or false, got a string"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, body := f.send("POST", "/api/cases", withJudgesJSON("bad", tc.judges), "Content-Type", "application/json")
			if res.StatusCode != tc.status {
				t.Errorf("status %d, want %d\n%s", res.StatusCode, tc.status, shortBody(body))
			}
			mustContain(t, "the answer", body, tc.want)
		})
	}
	if h, _ := f.store.CaseHistory(context.Background(), "support-desk", "bad"); len(h) != 0 {
		t.Errorf("a refused case was saved: %+v", h)
	}
}
