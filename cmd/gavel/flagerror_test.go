package main

import (
	"strings"
	"testing"

	"github.com/gavelhq/gavel/eval"
)

// A bad flag says what is wrong with it: pflag, continuing on errors,
// says nothing by itself.
func TestBadFlagSaysWhy(t *testing.T) {
	for _, args := range [][]string{
		{"run", "--trials", "x"},
		{"run", "--no-such-flag"},
		{"runs", "--limit", "many"},
	} {
		code, _, errs := gavelCmd(t, args...)
		if code != eval.ExitUsage || !strings.Contains(errs, "gavel "+args[0]+": ") || !strings.Contains(errs, strings.TrimPrefix(args[1], "--")) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and the flag's error", args, code, errs)
		}
	}
}
