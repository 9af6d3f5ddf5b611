package spec_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gavelhq/gavel/llm/providers"
	"github.com/gavelhq/gavel/spec"
)

// A suite's digest changes with its suite file and with its cases' files,
// and with nothing else.
func TestDigest(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	digest := func() string {
		t.Helper()
		b, err := spec.Open(dir, spec.Env{Registry: providers.Registry(), DryRun: true})
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		d, err := b.Digest()
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	write("gavel.yaml", "name: d\nagent: {http: {url: 'http://127.0.0.1:1/'}}\ncases: [cases.yaml]\n")
	write("cases.yaml", "- {id: a, input: hi, rules: [{contains: hi}]}\n")
	first := digest()
	if again := digest(); again != first {
		t.Errorf("the same files: digest %s, then %s", first, again)
	}
	write("cases.yaml", "- {id: a, input: hi, rules: [{contains: hello}]}\n")
	second := digest()
	if second == first {
		t.Errorf("a case changed, the digest did not: %s", first)
	}
	write("gavel.yaml", "name: d\nthreshold: 0.5\nagent: {http: {url: 'http://127.0.0.1:1/'}}\ncases: [cases.yaml]\n")
	if third := digest(); third == second {
		t.Errorf("the suite file changed, the digest did not: %s", second)
	}
}
