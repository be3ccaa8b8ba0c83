import { Help, type Command } from 'commander';

/*
 * docs/cli.md, rendered from the command tree itself (what `--help` shows, verb by
 * verb), so the page cannot drift from the CLI: test/cli-reference.test.ts compares the two.
 * Commander's public `Help` answers what is visible (hidden flags and verbs stay out of it).
 */

const help = new Help();

const cell = (s: string): string => s.replaceAll('|', '\\|').replaceAll('\n', ' ');

function section(cmd: Command, path: string[], out: string[]): void {
  const name = path.join(' ');
  const aliases = cmd.aliases();
  out.push(`## \`${name}\`${aliases.length ? ` (also \`${aliases.join('`, `')}\`)` : ''}`, '');
  // The usage line names the command with its parents, as `--help` prints it.
  out.push('```', help.commandUsage(cmd), '```', '');
  const about = help.commandDescription(cmd);
  if (about) out.push(about, '');
  const args = help.visibleArguments(cmd);
  const opts = help.visibleOptions(cmd).filter((o) => o.long !== '--help');
  if (args.length + opts.length > 0) {
    out.push('| Argument or option | Meaning |', '|---|---|');
    for (const a of args)
      out.push(`| \`${cell(help.argumentTerm(a))}\` | ${cell(help.argumentDescription(a))} |`);
    for (const o of opts)
      out.push(`| \`${cell(help.optionTerm(o))}\` | ${cell(help.optionDescription(o))} |`);
    out.push('');
  }
  for (const sub of help.visibleCommands(cmd)) {
    if (sub.name() === 'help') continue;
    section(sub, [...path, sub.name()], out);
  }
}

export function cliReference(program: Command): string {
  const out = [
    '# `jig` command reference',
    '',
    '<!-- Generated from the command tree by `node --import tsx scripts/cli-reference.ts`; do not edit.',
    '     test/cli-reference.test.ts fails when this page and the CLI differ. The guide is cli-guide.md. -->',
    '',
    'Every verb with every flag, as `--help` prints it. How the verbs behave (item IDs from the',
    'worktree, one-line answers, exit codes, what this build refuses and why): [cli-guide.md](cli-guide.md).',
    '',
  ];
  section(program, ['jig'], out);
  return `${out.join('\n').trimEnd()}\n`;
}
