package rule

import (
	"encoding/json"

	"github.com/gavelhq/gavel/judge"
)

// An ArgsMatcher matches a tool call's arguments as an expected call's
// args do (ExpectedCall: a subset unless exact, the same matchers), for
// what chooses by arguments: a mock tool's results.
type ArgsMatcher struct {
	args *argsPattern // nil: any arguments
}

// NewArgsMatcher compiles args, a JSON object of argument names and
// values or matchers (empty: any arguments), as ExpectedCall compiles its
// Args with Exact and Normalize.
func NewArgsMatcher(args json.RawMessage, exact, normalize bool) (ArgsMatcher, error) {
	want, err := compileCalls([]ExpectedCall{{Name: "tool", Args: args, Exact: exact, Normalize: normalize}})
	if err != nil {
		return ArgsMatcher{}, err
	}
	return ArgsMatcher{args: want[0].args}, nil
}

// Match reports whether arguments (a JSON object) match; when they do
// not, why says why.
func (m ArgsMatcher) Match(arguments json.RawMessage) (ok bool, why string) {
	got := decodeCalls([]judge.ToolCall{{Name: "tool", Arguments: arguments}}, CallOpts{})[0]
	why = m.args.mismatchArgs(got)
	return why == "", why
}
