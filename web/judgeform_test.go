package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"

	"github.com/gavelhq/gavel/store"
)

// withJudges returns the form of a valid new case with the given judge
// fields set: name, value pairs such as "judges.0.kind", "contains".
func withJudges(id string, kv ...string) url.Values {
	return with(newCase(), append([]string{"id", id, "judge_prompt", "", "threshold", ""}, kv...)...)
}

// The form's judges become the case's judges: list, as a suite file
// writes it, and the case checks.
func TestJudgeFormYAML(t *testing.T) {
	for _, tc := range []struct {
		name string
		form []string
		want string
	}{
		{"contains with ignore_case", []string{"judges.0.kind", "contains", "judges.0.f.contains", "refund", "judges.0.f.ignore_case", "true"},
			"- contains: refund\n  ignore_case: true\n"},
		{"criteria with min_mean", []string{"judges.0.kind", "criteria",
			"judges.0.f.criteria", "warmth: Is it warm?\r\naccuracy: Are the facts right?", "judges.0.f.min_mean", "6.5", "judges.0.f.min_axis", "5",
			"judges.0.f.samples", "3", "judges.0.f.aggregate", "median"},
			"- criteria:\n    warmth: Is it warm?\n    accuracy: Are the facts right?\n  min_mean: 6.5\n  min_axis: 5\n  samples: 3\n  aggregate: median\n"},
		{"jury with nested jurors", []string{"judges.0.kind", "jury",
			"judges.0.f.jury.jurors", "- rubric: Is it polite?\n- contains: refund\n  ignore_case: true\n- not:\n    contains: sorry",
			"judges.0.f.jury.strategy", "majority", "judges.0.f.jury.ties", "pass", "judges.0.name", "panel"},
			"- jury:\n    jurors:\n        - rubric: Is it polite?\n        - contains: refund\n          ignore_case: true\n        - not:\n            contains: sorry\n" +
				"    strategy: majority\n    ties: pass\n  name: panel\n"},
		{"no_placeholders", []string{"judges.0.kind", "no_placeholders", "judges.0.f.scope", "each_turn", "judges.0.soft", "true"},
			"- no_placeholders: true\n  scope: each_turn\n  soft: true\n"},
		{"lists, bounds and two judges", []string{"judges.0.kind", "forbidden_phrases", "judges.0.f.forbidden_phrases", "as an AI\r\n\r\n I cannot \r\n",
			"judges.1.kind", "length", "judges.1.f.length.min", "10", "judges.1.f.length.max", "200"},
			"- forbidden_phrases:\n    - as an AI\n    - I cannot\n- length:\n    min: 10\n    max: 200\n"},
		{"a number that looks like one stays text", []string{"judges.0.kind", "equals", "judges.0.f.equals", "01234"},
			"- equals: \"01234\"\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			form, _ := readForm(postForm(withJudges("j", tc.form...)))
			c, errs := form.caseOf()
			if len(errs) > 0 {
				t.Fatalf("errors %v", errs)
			}
			out, err := yaml.Marshal(c.Judges)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, string(out)); diff != "" {
				t.Errorf("judges (-want +got):\n%s", diff)
			}
			def, _ := yaml.Marshal(c)
			problems, err := validateCase(context.Background(), def)
			if err != nil || len(problems) > 0 {
				t.Errorf("checking the case: %v %v\n%s", problems, err, def)
			}
		})
	}
}

// postForm is a POST of form, parsed.
func postForm(form url.Values) *http.Request {
	r := httptest.NewRequest(http.MethodPost, "/cases", strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return r
}

// A value the form or the suite format refuses comes back next to its
// field (or its judge), with the field's path, as a 422: never a 500,
// and nothing is saved.
func TestJudgeFormProblems(t *testing.T) {
	f := newFixture(t, Config{})
	for _, tc := range []struct {
		name  string
		form  []string
		field string // the data-field the message shows at
		want  string
	}{
		{"a number that is not", []string{"judges.0.kind", "criteria", "judges.0.f.criteria", "tone: warm", "judges.0.f.min_mean", "high"},
			"judges.0.f.min_mean", "&#34;high&#34; is not a number"},
		{"a mean out of range", []string{"judges.0.kind", "criteria", "judges.0.f.criteria", "tone: warm", "judges.0.f.min_mean", "12"},
			"judges.0", "judges[0] (criteria): criteria: min mean 12"},
		{"jurors that are not YAML", []string{"judges.0.kind", "jury", "judges.0.f.jury.jurors", "- rubric: [unclosed"},
			"judges.0.f.jury.jurors", "this is not YAML"},
		{"a juror with an unknown field", []string{"judges.0.kind", "jury", "judges.0.f.jury.jurors", "- contains: x\n  bogus: 1\n- rubric: ok"},
			"judges.0.f.jury.jurors", "judges[0].jury.jurors[0].bogus: unknown field &#34;bogus&#34; in a contains judge"},
		{"axes of the wrong type", []string{"judges.1.kind", "contains", "judges.1.f.contains", "x", "judges.2.kind", "criteria", "judges.2.f.criteria", "[a, b]"},
			"judges.1.f.criteria", "judges[1].criteria[0]: an axis of the list is"},
		{"a juror that runs a command", []string{"judges.0.kind", "jury", "judges.0.f.jury.jurors", "- rubric: ok\n- command: [rm, -rf, /]"},
			"judges.0", "judges[0]: a judge of kind command runs commands"},
		{"a bad regular expression", []string{"judges.0.kind", "regex", "judges.0.f.regex", "("},
			"judges.0", "judges[0] (regex): regex &#34;(&#34;: error parsing regexp"},
		{"a kind's own field left empty", []string{"judges.0.kind", "contains", "judges.0.f.ignore_case", "true"},
			"judges.0.f.contains", "Fill contains"},
		{"a kind the form does not write", []string{"judges.0.kind", "command", "judges.0.f.command", "rm -rf /"},
			"judges.0", "&#34;command&#34; is not a kind of judge the form writes"},
		{"a soft LLM judge", []string{"judges.0.kind", "rubric", "judges.0.f.rubric", "Polite?", "judges.0.soft", "true"},
			"judges.0", "soft is for judges that ask no model"},
		{"an enumeration's stranger", []string{"judges.0.kind", "rubric", "judges.0.f.rubric", "Polite?", "judges.0.f.aggregate", "mode"},
			"judges.0.f.aggregate", "&#34;mode&#34; is not one of mean, median"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, body := f.post("/cases", withJudges("bad", tc.form...))
			if res.StatusCode != http.StatusUnprocessableEntity {
				t.Fatalf("status %d, want 422\n%s", res.StatusCode, shortBody(body))
			}
			at := strings.Index(body, `data-field="`+tc.field+`">`)
			if at < 0 {
				t.Fatalf("no message at %s\n%s", tc.field, shortBody(body))
			}
			if msg, _, _ := strings.Cut(body[at:], "</p>"); !strings.Contains(msg, tc.want) {
				t.Errorf("at %s: %s\nwant %q in it", tc.field, msg, tc.want)
			}
		})
	}
	if h, _ := f.store.CaseHistory(context.Background(), "support-desk", "bad"); len(h) != 0 {
		t.Errorf("an invalid case was saved: %+v", h)
	}
}

// Adding and removing a judge shows the form again, 200, with what was
// typed, and saves nothing.
func TestJudgeFormAddRemove(t *testing.T) {
	f := newFixture(t, Config{})
	form := withJudges("added", "judges.0.kind", "contains", "judges.0.f.contains", "refund", "action", "add", "add_kind", "criteria")
	res, body := f.post("/cases", form)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("add: %d", res.StatusCode)
	}
	mustContain(t, "after adding", body, `name="judges.0.kind" value="contains"`, `name="judges.0.f.contains" value="refund"`,
		`name="judges.1.kind" value="criteria"`, `name="judges.1.f.min_mean"`, `value="remove.1"`, "<code>min_axis</code>")
	mustNotContain(t, "after adding", body, "error-message")

	res, body = f.post("/cases", with(form, "action", "remove.0", "judges.1.kind", "criteria"))
	if res.StatusCode != http.StatusOK {
		t.Fatalf("remove: %d", res.StatusCode)
	}
	mustContain(t, "after removing", body, `name="judges.0.kind" value="criteria"`)
	mustNotContain(t, "after removing", body, `name="judges.1.kind"`, `value="refund"`)

	// What was typed comes back escaped.
	_, body = f.post("/cases", with(form, "judges.0.f.contains", evil, "judges.0.name", evil))
	mustContain(t, "a value with markup", body, "&lt;script&gt;alert(1)&lt;/script&gt;")
	mustNotContain(t, "a value with markup", body, evil)

	_, body = f.post("/cases", with(form, "add_kind", "command"))
	mustNotContain(t, "adding a command", body, `name="judges.1.kind"`)
	if h, _ := f.store.CaseHistory(context.Background(), "support-desk", "added"); len(h) != 0 {
		t.Errorf("adding a judge saved the case: %+v", h)
	}
	// The select offers the kinds the form writes, by group, and not the
	// Local ones.
	_, body = f.get("/cases/new?suite=support-desk")
	mustContain(t, "new form", body, `<optgroup label="Text">`, `<option value="contains"`, `<option value="jury"`, `<optgroup label="Composition">`,
		"written in the suite's file only")
	mustNotContain(t, "new form", body, `<option value="command"`, `<option value="sql"`, `name="judges.0.f.prompt_file"`)
}

// A case saved with judges opens in the form with the same values, and
// saving the form unchanged writes the same definition.
func TestJudgeFormRoundTrip(t *testing.T) {
	f := newFixture(t, Config{})
	ctx := context.Background()
	form := withJudges("round_trip",
		"judges.0.kind", "contains", "judges.0.f.contains", "refund", "judges.0.f.ignore_case", "true", "judges.0.f.scope", "each_turn",
		"judges.1.kind", "criteria", "judges.1.f.criteria", "warmth: Is it warm?\naccuracy: Are the facts right?", "judges.1.f.min_mean", "6.5",
		"judges.1.f.min_axis", "5",
		"judges.2.kind", "jury", "judges.2.f.jury.jurors", "- rubric: Is it polite?\n- contains: refund", "judges.2.f.jury.strategy", "consensus",
		"judges.3.kind", "no_placeholders", "judges.3.soft", "true", "judges.3.name", "no {name}",
		"judges.4.kind", "forbidden_phrases", "judges.4.f.forbidden_phrases", "as an AI\nI cannot",
		"judges.5.kind", "length", "judges.5.f.length.max", "400")
	res, body := f.post("/cases", form)
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("save: %d\n%s", res.StatusCode, shortBody(body))
	}
	h, err := f.store.CaseHistory(ctx, "support-desk", "round_trip")
	if err != nil || len(h) != 1 {
		t.Fatalf("history: %v %v", h, err)
	}
	posted, _ := readForm(postForm(form))
	opened, err := formOf("support-desk", h[0])
	if err != nil {
		t.Fatalf("the saved case does not open in the form: %v\n%s", err, h[0].Definition)
	}
	if diff := cmp.Diff(posted.Judges, opened.Judges); diff != "" {
		t.Errorf("judges as opened (-posted +opened):\n%s", diff)
	}
	res, body = f.get("/cases/support-desk/round_trip/edit")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("edit: %d\n%s", res.StatusCode, shortBody(body))
	}
	mustContain(t, "the edit form", body, `name="judges.0.f.contains" value="refund"`, `name="judges.0.f.ignore_case" value="true" checked`,
		`<option selected>each_turn</option>`, `name="judges.1.f.min_mean" value="6.5"`, "warmth: Is it warm?\naccuracy: Are the facts right?",
		"- rubric: Is it polite?\n- contains: refund", `<option selected>consensus</option>`, `name="judges.3.soft" value="true" checked`,
		`name="judges.3.name" value="no {name}"`, "as an AI\nI cannot", `name="judges.5.f.length.max" value="400"`)

	// Saved again unchanged, the definition is the same.
	res, _ = f.post("/cases/support-desk/round_trip/edit", with(form, "version", "1", "name", "Renamed"))
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("save again: %d", res.StatusCode)
	}
	h, _ = f.store.CaseHistory(ctx, "support-desk", "round_trip")
	if len(h) != 2 {
		t.Fatalf("%d versions, want 2", len(h))
	}
	if got, want := string(h[1].Definition), strings.Replace(string(h[0].Definition), "Refund a late order", "Renamed", 1); got != want {
		t.Errorf("saved again:\n%s\nwant\n%s", got, want)
	}
}

// A case written in the store with judges the form cannot show as they
// are is not editable, and says why.
func TestJudgeFormReadOnly(t *testing.T) {
	f := newFixture(t, Config{})
	for _, tc := range []struct{ id, judges, want string }{
		{"command", "  - command: [rm, -rf, /]\n", "it is a judge of kind command, which is written in suite files only"},
		{"prompt_file", "  - rubric: ok\n    prompt_file: p.tmpl\n", "the form does not edit its field prompt_file"},
		{"multiline_item", "  - forbidden_phrases: [\"two\\nlines\"]\n", "its forbidden_phrases is a list with an item that is not one line of text"},
	} {
		def := "id: " + tc.id + "\ninput: hi\njudges:\n" + tc.judges
		if _, err := f.store.SaveCase(context.Background(), store.CaseDef{Suite: "support-desk", ID: tc.id, Definition: []byte(def)}); err != nil {
			t.Fatal(err)
		}
		res, body := f.get("/cases/support-desk/" + tc.id + "/edit")
		if res.StatusCode != http.StatusForbidden {
			t.Errorf("edit %s: %d, want 403", tc.id, res.StatusCode)
		}
		mustContain(t, tc.id, body, "judges[0] cannot be shown in the form as it is ("+tc.want+")")
	}
}

// Every kind the form writes, filled with odd values, is saved or comes
// back with its problems: never a 500.
func TestJudgeFormEveryKind(t *testing.T) {
	f := newFixture(t, Config{})
	odd := map[string][]string{
		controlText: {"x", "0"}, controlTextarea: {"x", "0"}, controlCheckbox: {"true", "true"}, controlInteger: {"-1", "0"},
		controlNumber: {"-1", "1e300"}, controlLines: {"x", "(\n["}, controlYAML: {"x", "[1, {a: b}]"},
	}
	for _, g := range formKindGroups() {
		for _, k := range g.Kinds {
			for round := range 2 {
				form := []string{"judges.0.kind", k.Name}
				for _, field := range fieldsOf(k) {
					v := ""
					switch field.Control {
					case controlTrue:
						continue
					case controlSelect:
						v = field.Enum[round%len(field.Enum)]
					default:
						v = odd[field.Control][round]
					}
					form = append(form, judgeKey(0, field.Path), v)
				}
				res, body := f.post("/cases", withJudges(k.Name+"_"+strconv.Itoa(round), form...))
				if res.StatusCode != http.StatusSeeOther && res.StatusCode != http.StatusUnprocessableEntity {
					t.Errorf("%s, round %d: status %d\n%s", k.Name, round, res.StatusCode, shortBody(body))
				}
			}
		}
	}
}
