package spec

import (
	"fmt"
	"strings"
)

// expand fills in the environment variables of a suite's value, written
// ${NAME}, or ${NAME:-default} for a value used when NAME is unset or
// empty, so one suite file serves several setups (a scripted model
// offline, a vendor's with a key; an agent's URL in CI). A "$" not
// followed by "{" is kept as it is. A variable that is unset and has no
// default is a problem naming field.
//
// Only the fields that say so are expanded: model references, URLs,
// addresses and commands, never prompts or expectations.
func (b *builder) expand(field, s string) string {
	var out strings.Builder
	for {
		start := strings.Index(s, "${")
		if start < 0 {
			out.WriteString(s)
			return out.String()
		}
		end := strings.IndexByte(s[start:], '}')
		if end < 0 {
			b.fail("%s: %q has a ${ without its closing }", field, s)
			return s
		}
		out.WriteString(s[:start])
		name, def, hasDefault := strings.Cut(s[start+2:start+end], ":-")
		value := b.env.Getenv(name)
		switch {
		case value != "":
		case hasDefault:
			value = def
		default:
			b.fail("%s: the environment variable %s is not set: set it, or give a default as ${%s:-value}", field, name, name)
		}
		out.WriteString(value)
		s = s[start+end+1:]
	}
}

// expandAll expands every value of list.
func (b *builder) expandAll(field string, list []string) []string {
	if list == nil {
		return nil
	}
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = b.expand(fmt.Sprintf("%s[%d]", field, i), s)
	}
	return out
}
