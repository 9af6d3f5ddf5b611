package sqlstore

import (
	"regexp"
	"testing"
	"time"

	"github.com/gavelhq/gavel/store"
)

func TestRunID(t *testing.T) {
	started := time.Date(2026, 11, 21, 4, 45, 12, 999, time.FixedZone("CET", 3600))
	id := runID(started)
	if !regexp.MustCompile(`^20261121-034512-[0-9a-f]{6}$`).MatchString(id) {
		t.Errorf("runID = %q, want 20261121-034512- and 6 hex digits", id)
	}
	if later := runID(started.Add(time.Second)); later <= id {
		t.Errorf("a later run's ID %q sorts before %q", later, id)
	}
}

func TestCaseDigest(t *testing.T) {
	def := store.CaseDef{Suite: "s", ID: "c", Name: "n", Tags: []string{"a", "b"}, Definition: []byte("x"), Source: "f:1"}
	same := []store.CaseDef{def, {Suite: "s", ID: "c", Name: "n", Tags: []string{"a", "b"}, Definition: []byte("x"), Source: "g:9"}}
	different := []store.CaseDef{
		{Name: "n", Tags: []string{"a", "b"}, Definition: []byte("y")},
		{Name: "m", Tags: []string{"a", "b"}, Definition: []byte("x")},
		{Name: "n", Tags: []string{"ab"}, Definition: []byte("x")},
		{Name: "n", Tags: []string{"a"}, Definition: []byte("bx")},
		{Name: "na", Tags: []string{"", "b"}, Definition: []byte("x")},
	}
	want := caseDigest(def)
	for _, d := range same {
		if got := caseDigest(d); got != want {
			t.Errorf("caseDigest(%+v) differs from the same case's", d)
		}
	}
	for _, d := range different {
		if got := caseDigest(d); got == want {
			t.Errorf("caseDigest(%+v) is the same as another case's", d)
		}
	}
}
