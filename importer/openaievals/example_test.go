package openaievals_test

import (
	"fmt"
	"path/filepath"

	"github.com/gavelhq/gavel/importer/openaievals"
)

// Convert reads one eval of a registry's eval file, with its samples.
func ExampleConvert() {
	s, err := openaievals.Convert(filepath.Join("testdata", "registry", "evals", "basic.yaml"), "capitals-includes")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Report.Summary())
	// Output:
	// 3 cases, 3 judges; 1 approximated, 1 not converted
}
