package web

import (
	"strings"
	"testing"
	"time"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/store"
)

// A traced trial's page links to its trace, with the URL template the
// server was given; without one, it shows the trace id; an untraced
// trial shows neither.
func TestTraceLink(t *testing.T) {
	const id = "4bf92f3577b34da6a3ce929d0e0e4736"
	for _, tt := range []struct {
		name       string
		traceURL   string
		want, dont []string
	}{
		{"with a template", "http://localhost:16686/trace/{trace_id}",
			[]string{`href="http://localhost:16686/trace/` + id + `"`, "Trace"}, nil},
		{"without", "", []string{"<code>" + id + "</code>"}, []string{"localhost:16686"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, Config{TraceURL: tt.traceURL})
			c := testCase("traced", "where is my order?")
			traced := passing("traced", 1, 5)
			traced.TraceID = id
			plain := passing("traced", 2, 5)
			s := &gavel.Suite{Name: "support-desk", Cases: []*gavel.Case{c}}
			runID := f.save(runInfo(s, time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)),
				&gavel.Run{Suite: s, Cases: []gavel.CaseResult{result(c, traced, plain)}}, store.Passed)
			_, body := f.get("/runs/" + runID + "/cases/traced")
			mustContain(t, "the case page", body, tt.want...)
			mustNotContain(t, "the case page", body, tt.dont...)
			if n := strings.Count(body, `<p class="muted">Trace `); n != 1 {
				t.Errorf("the page names %d traces, want 1 (trial 2 was not traced)", n)
			}
		})
	}
}

func TestTraceURLTemplate(t *testing.T) {
	for _, tt := range []struct {
		template string
		ok       bool
	}{
		{"http://localhost:16686/trace/{trace_id}", true},
		{"https://grafana.example/explore?traceId={trace_id}", true},
		{"http://localhost:16686/trace/", false},
		{"javascript:alert('{trace_id}')", false},
		{"", true},
	} {
		if err := CheckTraceURL(tt.template); (err == nil) != tt.ok {
			t.Errorf("CheckTraceURL(%q) = %v, want ok %v", tt.template, err, tt.ok)
		}
	}
}
