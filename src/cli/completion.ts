import { Argument, type Command } from 'commander';
import { EXIT_OK } from './exit-codes.js';

/**
 * `jig completion bash|zsh|fish`: the script is drawn from the command tree when it is asked for,
 * so a verb or flag added anywhere is completed without touching this file.
 */
interface Node {
  /** `jig admin templates`: the words that lead here. */
  path: string;
  subcommands: { name: string; about: string }[];
  flags: string[];
}

const SHELLS = ['bash', 'zsh', 'fish'] as const;
type Shell = (typeof SHELLS)[number];

function about(cmd: Command): string {
  const first = cmd.description().split('\n')[0] ?? '';
  return first.length > 70 ? `${first.slice(0, 67)}...` : first;
}

/** Every command of the tree, parents first. */
export function walk(cmd: Command, path = cmd.name()): Node[] {
  const visible = cmd.commands.filter((c) => !(c as Command & { _hidden?: boolean })._hidden);
  const node: Node = {
    path,
    subcommands: visible.map((c) => ({ name: c.name(), about: about(c) })),
    flags: [...cmd.options.flatMap((o) => (!o.hidden && o.long ? [o.long] : [])), '--help'],
  };
  return [node, ...visible.flatMap((c) => walk(c, `${path} ${c.name()}`))];
}

/** One single-quoted shell word (the same in bash, zsh and fish). */
const sq = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
const fishSq = (s: string): string => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

function bash(nodes: Node[]): string {
  const parents = nodes.filter((n) => n.path.includes(' ')).map((n) => `"${n.path}"`);
  const cases = nodes.map(
    (n) => `    "${n.path}") words=${sq([...n.subcommands.map((s) => s.name), ...n.flags].join(' '))} ;;`,
  );
  return `# jig completion for bash: eval "$(jig completion bash)", or save it in
# ~/.local/share/bash-completion/completions/jig
_jig() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" cmdpath="jig" w i words=""
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    case "$cmdpath $w" in
      ${parents.join('|')}) cmdpath="$cmdpath $w" ;;
    esac
  done
  case "$cmdpath" in
${cases.join('\n')}
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _jig jig
`;
}

function zsh(nodes: Node[]): string {
  const parents = nodes.filter((n) => n.path.includes(' ')).map((n) => `"${n.path}"`);
  const cases = nodes.map((n) => {
    const cmds = n.subcommands.map((s) => sq(`${s.name}:${s.about.replace(/:/g, '\\:')}`)).join(' ');
    return `    ("${n.path}") cmds=(${cmds}); flags=(${n.flags.join(' ')}) ;;`;
  });
  return `#compdef jig
# jig completion for zsh: save it as _jig in a folder of $fpath (or: source <(jig completion zsh))
_jig() {
  local cmdpath="jig" w i
  local -a cmds flags
  for ((i = 2; i < CURRENT; i++)); do
    w="\${words[i]}"
    case "$cmdpath $w" in
      (${parents.join('|')}) cmdpath="$cmdpath $w" ;;
    esac
  done
  case "$cmdpath" in
${cases.join('\n')}
  esac
  if [[ "\${words[CURRENT]}" == -* ]]; then
    compadd -- $flags
  else
    (( \${#cmds} )) && _describe -t commands 'jig command' cmds || _files
  fi
}
if (( $+functions[compdef] )); then
  compdef _jig jig
else
  print -u2 "jig completion: zsh's completion system is not loaded; run 'autoload -U compinit && compinit' first"
fi
`;
}

function fish(nodes: Node[]): string {
  const parents = nodes.filter((n) => n.path.includes(' ')).map((n) => fishSq(n.path));
  const lines: string[] = [];
  for (const n of nodes) {
    const when = fishSq(`__jig_at ${sq(n.path)}`);
    for (const s of n.subcommands)
      lines.push(`complete -c jig -f -n ${when} -a ${fishSq(s.name)} -d ${fishSq(s.about)}`);
    for (const f of n.flags) lines.push(`complete -c jig -n ${when} -l ${fishSq(f.replace(/^--/, ''))}`);
  }
  return `# jig completion for fish: jig completion fish > ~/.config/fish/completions/jig.fish
function __jig_path
    set -l p jig
    for t in (commandline -opc)[2..-1]
        switch "$p $t"
            case ${parents.join(' ')}
                set p "$p $t"
        end
    end
    echo $p
end
function __jig_at
    test (__jig_path) = "$argv[1]"
end
${lines.join('\n')}
`;
}

export function completionScript(program: Command, shell: Shell): string {
  const nodes = walk(program);
  if (shell === 'bash') return bash(nodes);
  if (shell === 'zsh') return zsh(nodes);
  return fish(nodes);
}

export function registerCompletion(program: Command): void {
  program
    .command('completion')
    .description('print a shell completion script (bash, zsh or fish) for every verb and flag')
    .addArgument(new Argument('<shell>', 'the shell').choices(SHELLS))
    .addHelpText(
      'after',
      '\nInstall:\n  bash  eval "$(jig completion bash)"   (in ~/.bashrc)\n  zsh   jig completion zsh > "${fpath[1]}/_jig"\n  fish  jig completion fish > ~/.config/fish/completions/jig.fish\n',
    )
    .action((shell: Shell) => {
      process.stdout.write(completionScript(program, shell));
      process.exitCode = EXIT_OK;
    });
}
