package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/gavelhq/gavel/eval"
	flag "github.com/spf13/pflag"
)

const completionHelp = `Usage: gavel completion bash|zsh|fish

Prints a script that completes gavel's commands and flags; file names
complete as usual. To load it:

  bash:  source <(gavel completion bash)        # in ~/.bashrc
  zsh:   source <(gavel completion zsh)         # in ~/.zshrc, after compinit
  fish:  gavel completion fish > ~/.config/fish/completions/gavel.fish
`

func completionCommand(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprint(stderr, completionHelp)
		return eval.ExitUsage
	}
	switch args[0] {
	case "bash":
		fmt.Fprint(stdout, bashCompletion())
	case "zsh":
		fmt.Fprint(stdout, "autoload -U +X bashcompinit && bashcompinit\n"+bashCompletion())
	case "fish":
		fmt.Fprint(stdout, fishCompletion())
	case "-h", "-help", "--help":
		fmt.Fprint(stdout, completionHelp)
	default:
		fmt.Fprintf(stderr, "gavel completion: unknown shell %q: want bash, zsh or fish\n", args[0])
		return eval.ExitUsage
	}
	return eval.ExitPassed
}

// A commandFlags is a command's flags, as "--name".
type commandFlags struct {
	command string
	flags   []string
}

// allFlags lists the flags of the commands that have some, in the order
// of commands().
func allFlags() []commandFlags {
	var out []commandFlags
	for _, c := range commands() {
		if c.flags == nil {
			continue
		}
		cf := commandFlags{command: c.name}
		c.flags().VisitAll(func(f *flag.Flag) { cf.flags = append(cf.flags, "--"+f.Name) })
		out = append(out, cf)
	}
	return out
}

func commandNames() []string {
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	return names
}

func bashCompletion() string {
	var cases strings.Builder
	for _, cf := range allFlags() {
		fmt.Fprintf(&cases, "    %s) flags=%q ;;\n", cf.command, strings.Join(cf.flags, " "))
	}
	return fmt.Sprintf(`# bash completion for gavel
_gavel() {
  local cur=${COMP_WORDS[COMP_CWORD]}
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W %q -- "$cur"))
    return
  fi
  local flags=""
  case ${COMP_WORDS[1]} in
%s  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$flags" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o filenames -F _gavel gavel
`, strings.Join(commandNames(), " "), cases.String())
}

func fishCompletion() string {
	var b strings.Builder
	b.WriteString("# fish completion for gavel\n")
	for _, c := range commands() {
		fmt.Fprintf(&b, "complete -c gavel -n __fish_use_subcommand -a %s -d %q\n", c.name, c.summary)
	}
	for _, cf := range allFlags() {
		for _, f := range cf.flags {
			fmt.Fprintf(&b, "complete -c gavel -n '__fish_seen_subcommand_from %s' -l %s\n", cf.command, strings.TrimPrefix(f, "--"))
		}
	}
	return b.String()
}
