package web

import (
	"context"
	"net/http"
	"net/url"
	"testing"
)

func TestLabels(t *testing.T) {
	f := newFixture(t, Config{})
	path := "/runs/" + f.latest + "/cases/case_002"

	_, body := f.get(path)
	mustContain(t, "before", body, `action="`+path+`/labels"`, `name="trial" value="2"`, "No one has labelled this trial")

	res, _ := f.post(path+"/labels", url.Values{"trial": {"2"}, "verdict": {"wrong"}, "score": {"0.25"}, "comment": {evil}})
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != path+"#trial-2" {
		t.Fatalf("POST a label: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	if res, _ := f.post(path+"/labels", url.Values{"trial": {"1"}, "verdict": {"correct"}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("POST a label without a score: %d", res.StatusCode)
	}
	// Another case's label is not listed here.
	if res, _ := f.post("/runs/"+f.latest+"/cases/case_001/labels", url.Values{"trial": {"1"}, "verdict": {"wrong"}, "comment": {"other case"}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("POST a label of case_001: %d", res.StatusCode)
	}

	labels, err := f.store.Labels(context.Background(), f.latest)
	if err != nil || len(labels) != 3 {
		t.Fatalf("labels: %+v, %v", labels, err)
	}
	if l := labels[0]; l.CaseID != "case_002" || l.Trial != 2 || l.Verdict != "wrong" || l.Score == nil || *l.Score != 0.25 ||
		l.Comment != evil || l.Author != "local" {
		t.Errorf("label: %+v", l)
	}
	if labels[1].Score != nil {
		t.Errorf("a label without a score has one: %v", *labels[1].Score)
	}

	_, body = f.get(path)
	mustContain(t, "after", body, "<strong>wrong</strong> · score 0.25 · local", "&lt;script&gt;alert(1)&lt;/script&gt;", "<strong>correct</strong> · local")
	mustNotContain(t, "after", body, evil, "other case")

	for _, tc := range []struct {
		name   string
		form   url.Values
		status int
		want   string
	}{
		{"no verdict", url.Values{"trial": {"1"}}, http.StatusUnprocessableEntity, "correct or wrong"},
		{"score out of range", url.Values{"trial": {"1"}, "verdict": {"correct"}, "score": {"1.5"}}, http.StatusUnprocessableEntity, "not a number from 0 to 1"},
		{"bad trial", url.Values{"trial": {"x"}, "verdict": {"correct"}}, http.StatusBadRequest, "not a trial"},
		{"no such trial", url.Values{"trial": {"9"}, "verdict": {"correct"}}, http.StatusNotFound, "has no trial 9"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, body := f.post(path+"/labels", tc.form)
			if res.StatusCode != tc.status {
				t.Errorf("status %d, want %d", res.StatusCode, tc.status)
			}
			mustContain(t, tc.name, body, tc.want)
		})
	}
	if res, _ := f.post("/runs/nope/cases/case_002/labels", url.Values{"trial": {"1"}, "verdict": {"correct"}}); res.StatusCode != http.StatusNotFound {
		t.Errorf("a label of no run: %d, want 404", res.StatusCode)
	}
}
