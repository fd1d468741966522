package main

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

// The bash and zsh scripts are urfave/cli's (its autocomplete directory, not part of the Go
// package) with the program named: each asks the arena itself for the words that may come
// next, with --generate-bash-completion; for a flag being typed it asks with "-", for which
// the arena lists every flag of the command (a "--" would end the flags).
const (
	bashCompletion = `# bash completion for arena: source <(arena completion bash)
_arena_complete() {
  local cur words cword
  if declare -F _init_completion >/dev/null 2>&1; then
    _init_completion -n "=:" || return
  else
    COMPREPLY=(); cur="${COMP_WORDS[COMP_CWORD]}"; words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD
  fi
  words=("${words[@]:0:$cword}")
  local request="${words[*]}"
  [[ "$cur" == "-"* ]] && request="$request -" # the arena lists every flag; compgen keeps $cur's
  local opts
  opts=$(eval "$request --generate-bash-completion" 2>/dev/null)
  COMPREPLY=($(compgen -W "${opts}" -- "${cur}"))
}
complete -o bashdefault -o default -F _arena_complete arena
`
	zshCompletion = `#compdef arena
# zsh completion for arena: arena completion zsh > "${fpath[1]}/_arena"
_arena() {
  local -a opts
  local cur=${words[-1]}
  if [[ "$cur" == "-"* ]]; then
    opts=("${(@f)$(${words[@]:0:#words[@]-1} - --generate-bash-completion)}")
  else
    opts=("${(@f)$(${words[@]:0:#words[@]-1} --generate-bash-completion)}")
  fi
  if [[ "${opts[1]}" != "" ]]; then
    _describe 'values' opts
  else
    _files
  fi
}
compdef _arena arena
`
)

func completionCommand() *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print a shell completion script: bash, zsh or fish",
		ArgsUsage: "bash|zsh|fish",
		Description: "bash:  source <(arena completion bash)   (or save it in /etc/bash_completion.d/arena)\n" +
			"zsh:   arena completion zsh > \"${fpath[1]}/_arena\"\n" +
			"fish:  arena completion fish > ~/.config/fish/completions/arena.fish",
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageError{"arena completion: want one shell, bash, zsh or fish (arena help completion)"}
			}
			var script string
			switch shell := c.Args().First(); shell {
			case "bash":
				script = bashCompletion
			case "zsh":
				script = zshCompletion
			case "fish":
				var err error
				if script, err = c.App.ToFishCompletion(); err != nil {
					return err
				}
			default:
				return usageError{fmt.Sprintf("arena completion %s: want bash, zsh or fish", shell)}
			}
			_, err := fmt.Fprint(c.App.Writer, script)
			return err
		},
	}
}
