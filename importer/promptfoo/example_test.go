package promptfoo_test

import (
	"fmt"
	"path/filepath"

	"github.com/gavelhq/gavel/importer/promptfoo"
)

// Convert reads a promptfoo configuration and returns the suite, with a
// report of what it approximated and could not convert.
func ExampleConvert() {
	s, err := promptfoo.Convert(filepath.Join("testdata", "json", "promptfooconfig.yaml"))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Report.Summary())
	for _, line := range s.Report.Lines() {
		fmt.Println(line)
	}
	// Output:
	// 3 cases, 5 judges; 1 approximated, 1 not converted
	// approximated: not-is-json assertion (test 3 (An exact answer)): weight 0 (it never fails the test): the rule is soft, so that a failure is a finding handed to the LLM judges
	// not converted: provider config temperature (promptfooconfig.yaml): the builtin agent's model is called with the vendor's defaults
}
