package web

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/gavelhq/gavel/report"
	"github.com/gavelhq/gavel/store"
)

// The comparison page sets the runs' replies side by side, in two
// columns, what one run only said highlighted (del in the base, ins in
// the head): the cases whose replies or tool calls differ, or every case
// with ?replies=all; and the JSON API says the same. On SQLite and
// PostgreSQL alike.
func TestCompareReplies(t *testing.T) {
	for _, tc := range []struct {
		name string
		new  func(*testing.T, Config) *fixture
	}{
		{"sqlite", newFixture},
		{"postgres", newPostgresFixture},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := tc.new(t, Config{})
			path := "/compare?a=" + f.old + "&b=" + f.latest
			res, body := f.get(path)
			if res.StatusCode != 200 {
				t.Fatalf("GET %s: %d\n%s", path, res.StatusCode, shortBody(body))
			}
			mustContain(t, path, body,
				`<section class="replies">`,
				"<h3><code>case_002</code>",
				`<td><code>get_order_status({&#34;order_id&#34;:&#34;12345&#34;})</code><br></td>`,
				`<ins><code>cancel_order({&#34;confirmation&#34;:true,&#34;order_id&#34;:&#34;12345&#34;}) -&gt; error</code></ins><br>`,
				`more said the same: <a href="/compare?a=`+f.old+`&amp;b=`+f.latest+`&amp;replies=all">show every case</a>`,
			)
			mustNotContain(t, path, body, "<h3><code>case_001</code>") // the same replies in both runs

			all := path + "&replies=all"
			if _, body := f.get(all); true {
				mustContain(t, all, body, "<h3><code>case_001</code>", "Every case both runs have.")
			}

			// Replies from the agent are text, never markup.
			hostile := "/compare?replies=all&a=" + f.hostile + "&b=" + f.hostile
			_, body = f.get(hostile)
			mustContain(t, hostile, body, "&lt;script&gt;alert(1)&lt;/script&gt;")
			mustNotContain(t, hostile, body, evil)

			api := "/api/compare?a=" + f.old + "&b=" + f.latest
			res, body = f.get(api)
			var got report.JSONComparison
			if err := json.Unmarshal([]byte(body), &got); res.StatusCode != 200 || err != nil {
				t.Fatalf("GET %s: %d, %v\n%s", api, res.StatusCode, err, shortBody(body))
			}
			found := false
			for _, r := range got.Replies {
				if r.ID == "case_002" && r.Differs && r.Head != nil && len(r.Head.ToolCalls) == 2 {
					found = true
				}
			}
			if !found {
				t.Errorf("GET %s: case_002's replies missing or wrong: %+v", api, got.Replies)
			}
		})
	}
}

// A run made by gavel rejudge names its source on its page and in the
// API.
func TestRunRejudges(t *testing.T) {
	f := newFixture(t, Config{})
	src, err := f.store.RunInfo(context.Background(), f.old)
	if err != nil {
		t.Fatal(err)
	}
	stored, err := f.store.Run(context.Background(), f.old)
	if err != nil {
		t.Fatal(err)
	}
	info := runInfo(stored.Run.Suite, base.Add(5*time.Hour))
	info.Rejudges = src.ID
	id := f.save(info, stored.Run, store.Passed)
	_, body := f.get("/runs/" + id)
	mustContain(t, "/runs/"+id, body, `Rejudges run <a href="/runs/`+f.old+`"><code>`+f.old+`</code></a>`)
	_, body = f.get("/api/runs?suite=support-desk")
	var runs struct {
		Runs []struct{ ID, Rejudges string }
	}
	if err := json.Unmarshal([]byte(body), &runs); err != nil {
		t.Fatalf("/api/runs: %v\n%s", err, shortBody(body))
	}
	found := false
	for _, r := range runs.Runs {
		found = found || r.ID == id
		if want := map[bool]string{true: f.old}[r.ID == id]; r.Rejudges != want {
			t.Errorf("/api/runs: run %s rejudges %q, want %q", r.ID, r.Rejudges, want)
		}
	}
	if !found {
		t.Errorf("/api/runs does not list run %s:\n%s", id, shortBody(body))
	}
}
