package web

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gavelhq/gavel"
	"github.com/gavelhq/gavel/store"
	"github.com/gavelhq/gavel/store/sqlite"
)

// A run's page corrects its pass rate for the judge's errors once people
// have labelled enough of the suite's verdicts, whenever they labelled
// them: the run below was stored before its labels. As in cmd/gavel's
// TestPassRateCorrectedForTheJudge, people fail 3 of the judge's 30
// passes and pass 5 of its 30 failures, and 50% is corrected to
//
//	se=27/32; sp=25/28; ap=30/60
//	print((ap+sp-1)/(se+sp-1))   # 0.5333333333333333: 53.3%
func TestRunPageCorrectsForTheJudge(t *testing.T) {
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "gavel.db"))
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, store: st}
	t.Cleanup(func() { st.Close() })
	suite := &gavel.Suite{Name: "support-desk", Threshold: 0.8}
	good, strict := testCase("good", "hello"), testCase("strict", "hello")
	var passes, failures []gavel.Trial
	for n := 1; n <= 30; n++ {
		passes, failures = append(passes, passing("good", n, 4)), append(failures, failing("strict", n))
	}
	id := f.save(runInfo(suite, base), &gavel.Run{Suite: suite, Cases: []gavel.CaseResult{result(good, passes...), result(strict, failures...)}}, store.Failed)
	f.srv = New(st, Config{})

	_, body := f.get("/runs/" + id)
	if strings.Contains(body, "Corrected") {
		t.Fatal("the page corrects the pass rate without labels")
	}
	var labels []store.Label
	for n := 1; n <= 30; n++ {
		labels = append(labels,
			store.Label{RunID: id, CaseID: "good", Trial: n, Category: map[bool]string{true: "fail", false: "pass"}[n <= 3], Author: "ada"},
			store.Label{RunID: id, CaseID: "strict", Trial: n, Category: map[bool]string{true: "pass", false: "fail"}[n <= 5], Author: "ada"})
	}
	if _, err := st.AddLabels(context.Background(), labels); err != nil {
		t.Fatal(err)
	}
	_, body = f.get("/runs/" + id)
	for _, want := range []string{"Corrected for the judge&#39;s errors: 53.3%, 95% interval", "from 60 people&#39;s labels"} {
		if !strings.Contains(body, want) {
			t.Errorf("the run page lacks %q", want)
		}
	}
}
