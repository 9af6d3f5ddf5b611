package spec_test

import (
	"strings"
	"testing"

	"github.com/gavelhq/gavel/spec"
)

func TestKindDoc(t *testing.T) {
	if ref, err := spec.KindDoc("contains"); err != nil || !strings.HasPrefix(ref, "### contains") {
		t.Errorf("KindDoc(contains) = %.40q, %v", ref, err)
	}
	for name, want := range map[string]string{
		"contain":   `no kind of judge is named "contain": did you mean "contains"?`,
		"zzzzzzzzz": `no kind of judge is named "zzzzzzzzz"; gavel judges lists them`,
	} {
		if _, err := spec.KindDoc(name); err == nil || err.Error() != want {
			t.Errorf("KindDoc(%q) = %v, want %q", name, err, want)
		}
	}
}
