package storetest

import (
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/gavelhq/gavel/store"
)

// testCaseVersions saves a case's definitions in turn: an unchanged
// definition keeps its version, a changed one makes a new one.
func testCaseVersions(t *testing.T, s store.Store) {
	ctx := ctx(t)
	def := store.CaseDef{
		Suite: "support-desk", ID: "case_005", Name: "Policy edge", Tags: []string{"orders", "policy"},
		Definition: []byte("id: case_005\ninput: cancel my order 12345\n"), Source: "cases.yaml:12",
	}
	with := func(change func(d *store.CaseDef)) store.CaseDef {
		d := def
		d.Tags = append([]string(nil), def.Tags...)
		change(&d)
		return d
	}
	steps := []struct {
		name        string
		def         store.CaseDef
		wantVersion int
		wantSource  string
	}{
		{"first save", def, 1, "cases.yaml:12"},
		{"same definition", def, 1, "cases.yaml:12"},
		{"moved in its file", with(func(d *store.CaseDef) { d.Source = "cases.yaml:40" }), 1, "cases.yaml:40"},
		{"definition changed", with(func(d *store.CaseDef) {
			d.Definition = []byte("id: case_005\ninput: cancel my order 12345 now\n")
		}), 2, "cases.yaml:12"},
		{"same again", with(func(d *store.CaseDef) {
			d.Definition = []byte("id: case_005\ninput: cancel my order 12345 now\n")
		}), 2, "cases.yaml:12"},
		{"tags changed", with(func(d *store.CaseDef) {
			d.Definition = []byte("id: case_005\ninput: cancel my order 12345 now\n")
			d.Tags = []string{"orders"}
		}), 3, "cases.yaml:12"},
		{"name changed", with(func(d *store.CaseDef) {
			d.Definition = []byte("id: case_005\ninput: cancel my order 12345 now\n")
			d.Tags = []string{"orders"}
			d.Name = "Policy edge: cancel"
		}), 4, "cases.yaml:12"},
		{"back to the first", def, 5, "cases.yaml:12"},
	}
	keys := map[int]int64{}
	var history []store.CaseVersion
	for _, step := range steps {
		v, err := s.SaveCase(ctx, step.def)
		if err != nil {
			t.Fatalf("%s: SaveCase: %v", step.name, err)
		}
		if v.Version != step.wantVersion {
			t.Errorf("%s: version %d, want %d", step.name, v.Version, step.wantVersion)
		}
		if v.Source != step.wantSource {
			t.Errorf("%s: source %q, want %q", step.name, v.Source, step.wantSource)
		}
		if v.Key == 0 || v.Created.IsZero() {
			t.Errorf("%s: key %d, created %v: want both set", step.name, v.Key, v.Created)
		}
		if k, seen := keys[v.Version]; seen && k != v.Key {
			t.Errorf("%s: version %d has key %d, earlier %d", step.name, v.Version, v.Key, k)
		}
		keys[v.Version] = v.Key
		want := step.def
		want.Source = step.wantSource
		diff(t, step.name+": definition", v.CaseDef, want)
		if len(history) < v.Version {
			history = append(history, v)
		} else {
			history[v.Version-1] = v
		}
	}
	if len(keys) != 5 {
		t.Errorf("%d distinct versions, want 5", len(keys))
	}

	got, err := s.CaseHistory(ctx, "support-desk", "case_005")
	check(t, "CaseHistory", err)
	diff(t, "CaseHistory", got, history)

	// Other cases and suites.
	other := store.CaseDef{Suite: "support-desk", ID: "case_001", Name: "Lookup", Definition: []byte("id: case_001\n"), Source: "cases.yaml:1"}
	otherSuite := store.CaseDef{Suite: "billing", ID: "case_005", Name: "Refund", Definition: []byte("id: case_005\n")}
	v1, err := s.SaveCase(ctx, other)
	check(t, "SaveCase other", err)
	v2, err := s.SaveCase(ctx, otherSuite)
	check(t, "SaveCase other suite", err)
	if v1.Version != 1 || v2.Version != 1 {
		t.Errorf("versions of new cases: %d and %d, want 1 and 1", v1.Version, v2.Version)
	}

	cases, err := s.Cases(ctx, "support-desk")
	check(t, "Cases", err)
	diff(t, "Cases(support-desk)", cases, []store.CaseVersion{v1, history[len(history)-1]})
	all, err := s.Cases(ctx, "")
	check(t, "Cases", err)
	diff(t, "Cases(all)", all, []store.CaseVersion{v2, v1, history[len(history)-1]})
	none, err := s.Cases(ctx, "no-such-suite")
	check(t, "Cases", err)
	diff(t, "Cases(no-such-suite)", none, []store.CaseVersion(nil), cmpopts.EquateEmpty())

	for _, bad := range []store.CaseDef{{Suite: "support-desk"}, {ID: "case_001"}} {
		if _, err := s.SaveCase(ctx, bad); err == nil {
			t.Errorf("SaveCase(%+v): no error, want one (a case needs a suite and an id)", bad)
		}
	}
}

// testCaseVersionsConcurrent saves one new definition from many
// goroutines at once: they all get the same, single new version.
func testCaseVersionsConcurrent(t *testing.T, s store.Store) {
	ctx := ctx(t)
	def := store.CaseDef{Suite: "support-desk", ID: "case_009", Name: "Thread", Definition: []byte("id: case_009\n")}
	if _, err := s.SaveCase(ctx, def); err != nil {
		t.Fatal(err)
	}
	def.Definition = []byte("id: case_009\nrounds: []\n")
	const n = 16
	versions := make([]store.CaseVersion, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { versions[i], errs[i] = s.SaveCase(ctx, def) })
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("SaveCase %d: %v", i, errs[i])
		}
		if versions[i].Version != 2 || versions[i].Key != versions[0].Key {
			t.Errorf("SaveCase %d: version %d key %d, want version 2 key %d", i, versions[i].Version, versions[i].Key, versions[0].Key)
		}
	}
	history, err := s.CaseHistory(ctx, def.Suite, def.ID)
	check(t, "CaseHistory", err)
	if len(history) != 2 {
		t.Errorf("%d versions, want 2", len(history))
	}
}
