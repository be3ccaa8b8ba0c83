import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jigBin } from './helpers/server.js';

/*
 * The completion scripts run in their shells (installed by .ci/run): each completes a verb from
 * its first letters and the flags of a verb, as a person pressing Tab would see them.
 */

const has = (shell: string) => spawnSync(shell, ['-c', 'exit 0']).status === 0;
const dir = mkdtempSync(join(tmpdir(), 'jig-completion-'));

function script(shell: string): string {
  const file = join(dir, `jig.${shell}`);
  writeFileSync(file, execFileSync(process.execPath, [jigBin, 'completion', shell], { encoding: 'utf8' }));
  return file;
}

const lines = (text: string) => text.split('\n').filter((l) => l !== '');

describe('completion scripts in their shells', () => {
  it.skipIf(!has('bash'))('bash: verbs by prefix, flags after --', () => {
    const file = script('bash');
    const complete = (words: string[]) =>
      execFileSync(
        'bash',
        [
          '-c',
          `source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _jig; printf '%s\\n' "\${COMPREPLY[@]}"`,
          'complete',
          file,
          ...words,
        ],
        { encoding: 'utf8' },
      );
    expect(lines(complete(['jig', 'admin', 'st']))).toEqual(['start', 'stop']);
    expect(lines(complete(['jig', 'item', 'create', '--sk']))).toEqual(['--skip-nodes']);
  });

  it.skipIf(!has('zsh'))('zsh: the script loads and offers verbs with their summaries, and flags', () => {
    const file = script('zsh');
    expect(spawnSync('zsh', ['-n', file]).status).toBe(0);
    // The completion system's functions are stood in for by ones that print what they were given.
    const run = (words: string[]) =>
      execFileSync(
        'zsh',
        [
          '-fc',
          'compdef(){ :; }; compadd(){ print -r -- "flags: $*"; }; _describe(){ print -rl -- "${(@P)4}"; }; ' +
            '_files(){ print files; }; source "$1"; shift; words=("$@"); CURRENT=$#; _jig',
          'complete',
          file,
          ...words,
        ],
        { encoding: 'utf8' },
      );
    const admin = lines(run(['jig', 'admin', 'st']));
    expect(admin).toContain('start:run the Jig server (bare `jig` does the same); --detach runs it in ...');
    expect(admin.some((l) => l.startsWith('doctor:check this machine'))).toBe(true);
    expect(run(['jig', 'admin', 'start', '--d'])).toBe('flags: -- --host --port --detach --help\n');
    const bare = spawnSync('zsh', ['-fc', 'source "$1"', 'load', file], { encoding: 'utf8' });
    expect(bare.stderr).toContain("run 'autoload -U compinit && compinit' first");
  });

  it.skipIf(!has('fish'))('fish: complete -C answers verbs with descriptions, and flags', () => {
    const file = script('fish');
    const complete = (line: string) =>
      execFileSync('fish', ['--no-config', '-c', 'source $argv[1]; complete -C $argv[2]', file, line], {
        encoding: 'utf8',
      });
    expect(lines(complete('jig adm'))).toEqual(["admin\trun this machine's Jig server"]);
    expect(lines(complete('jig admin ins'))[0]).toMatch(/^install-service\trun `jig serve` at login/);
    expect(lines(complete('jig admin start --'))).toEqual(['--detach', '--help', '--host', '--port']);
  });
});
