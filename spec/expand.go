package spec

import (
	"fmt"
	"strings"

	"github.com/gavelhq/gavel/secret"
)

// A valueKind says what a field's value is, and so which of the values a
// suite reads from the environment are secrets, never written anywhere:
// see docs/decisions/0020-secrets-never-written.md.
type valueKind int

const (
	// secretValue: a header or a command's argument, where a value read
	// from the environment is a key, a token or a password. Every one is
	// a secret, shown as ${NAME}.
	secretValue valueKind = iota
	// addressValue: a model reference or a URL. A value read into what
	// names the model or the server (the model, the host, the whole URL:
	// model: ${GAVEL_JUDGE_MODEL}) is shown, but for the parts of a URL
	// that may hold a password or a token; a value read into those
	// (http://u:${PASSWORD}@host, a path, a query) is a secret, shown as
	// ${NAME}. See secret.Set.AddIn.
	addressValue
	// plainValue: a time, a directory or an address to listen on, which
	// hold no secret: hiding them would hide dates and paths in every
	// transcript.
	plainValue
)

// expand fills in the environment variables of a suite's value, written
// ${NAME}, or ${NAME:-default} for a value used when NAME is unset or
// empty, so one suite file serves several setups (a scripted model
// offline, a vendor's with a key; an agent's URL in CI). A "$" not
// followed by "{" is kept as it is. A variable that is unset and has no
// default is a problem naming field. The values read from the environment
// that kind says are secrets join the suite's (hide); a default, written
// in the file, is none.
//
// Only the fields that say so are expanded: model references, URLs,
// addresses and commands, never prompts or expectations.
func (b *builder) expand(field, s string, kind valueKind) string {
	var out strings.Builder
	var reads []read
	defer func() { b.hide(out.String(), reads, kind) }()
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
			reads = append(reads, read{name: name, start: out.Len(), end: out.Len() + len(value)})
		case hasDefault:
			value = def
		default:
			b.fail("%s: the environment variable %s is not set: set it, or give a default as ${%s:-value}", field, name, name)
		}
		out.WriteString(value)
		s = s[start+end+1:]
	}
}

// A read is where a variable's value went in an expanded value.
type read struct {
	name       string
	start, end int
}

// hide makes secrets of the values read into value, a field of kind.
func (b *builder) hide(value string, reads []read, kind valueKind) {
	for _, r := range reads {
		marker := "${" + r.name + "}"
		switch kind {
		case plainValue:
		case addressValue:
			b.secrets.AddIn(value, r.start, r.end, marker)
		default:
			b.secrets.Add(value[r.start:r.end], marker)
		}
	}
}

// secretEnv reads the environment for what expands variables itself (an
// http agent's headers, as it sends them): every value it reads is a
// secret.
func (b *builder) secretEnv(name string) string {
	value := b.env.Getenv(name)
	b.secrets.Add(value, "${"+name+"}")
	return value
}

// shown is a model reference or a URL as reports and the store show it:
// without the parts of its URL that may hold a password or a token
// (secret.Address), and without the suite's secrets.
func (b *builder) shown(ref string) string {
	return b.secrets.Redact(secret.Address(ref))
}

// expandAll expands every value of list, of kind.
func (b *builder) expandAll(field string, list []string, kind valueKind) []string {
	if list == nil {
		return nil
	}
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = b.expand(fmt.Sprintf("%s[%d]", field, i), s, kind)
	}
	return out
}
