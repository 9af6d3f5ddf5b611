package spec

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"slices"
)

// Digest identifies what b was built from: a SHA-256 of its suite file
// and of every case it loaded, as written (cases from case files and
// from the store included), whatever cases a run selects. Two processes
// whose suites have the same digest run the same cases with the same
// judges (gavel worker refuses a job of a suite whose digest differs
// from its own). What the suite file reads from the environment
// (${VAR}), and files it names for other purposes (every_case, an
// agent's prompt files), are not in it.
func (b *Built) Digest() (string, error) {
	h := sha256.New()
	suite, err := os.ReadFile(b.Suite.File)
	if err != nil {
		return "", fmt.Errorf("digest of suite %s: %w", b.Suite.Name, err)
	}
	fmt.Fprintf(h, "suite %d\n", len(suite))
	h.Write(suite)
	for _, id := range slices.Sorted(maps.Keys(b.cases)) {
		def := b.cases[id].YAML()
		fmt.Fprintf(h, "case %q %d\n", id, len(def))
		h.Write(def)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
