import { Help, type Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../src/cli/program.js';
import { runJig, tempHome } from './helpers/server.js';

/*
 * The conventions every verb keeps (issue 18): its help prints and exits 0 through the real
 * binary, and every read or act verb takes `--json`. The verbs without it run or install the
 * server, or print something that is not an API answer.
 */

const help = new Help();

function verbs(cmd: Command, path: string[] = []): string[][] {
  const subs = help.visibleCommands(cmd).filter((s) => s.name() !== 'help');
  const here = path.length > 0 ? [path] : [];
  return [...here, ...subs.flatMap((s) => verbs(s, [...path, s.name()]))];
}

function leaf(path: string[]): Command {
  let cmd = buildProgram();
  for (const name of path) {
    const next = cmd.commands.find((c) => c.name() === name);
    if (!next) throw new Error(`no verb ${path.join(' ')}`);
    cmd = next;
  }
  return cmd;
}

/** Verbs with no `--json`, each for a reason. */
const NO_JSON: Record<string, string> = {
  serve: 'runs the server in the foreground',
  'admin start': 'runs the server',
  'admin stop': 'signals the server; prints one line',
  'admin restart': 'restarts the server; prints one line',
  'admin mcp': 'speaks MCP on stdio',
  'admin permission-hook': "prints the verdict in the agent CLI's hook format",
  'admin init': 'edits agent CLI config files; prints what it changed',
  'admin install-service': 'writes a service unit (--dry-run prints it)',
  'admin uninstall-service': 'removes the service unit',
  'view watch': 'a live terminal board',
  completion: 'prints a shell script',
};

describe('the command tree', () => {
  const all = verbs(buildProgram());
  const leaves = all.filter((p) => help.visibleCommands(leaf(p)).every((s) => s.name() === 'help'));

  it('gives every read and act verb --json', () => {
    const without = leaves
      .filter((p) => !help.visibleOptions(leaf(p)).some((o) => o.long === '--json'))
      .map((p) => p.join(' '));
    expect(without.sort()).toEqual(Object.keys(NO_JSON).sort());
  });

  it('prints each verb’s help through the real binary and exits 0', { timeout: 120_000 }, async () => {
    expect(all.length).toBeGreaterThan(60);
    const env = { JIG_HOME: tempHome('jig-cli-tree-'), NO_COLOR: '1' };
    const failed: string[] = [];
    // One after another: each runs in the file's CLI host (runJig), where six at once started five
    // processes of their own.
    for (const p of all) {
      const r = await runJig([...p, '--help'], env);
      const path = p.join(' ');
      if (r.code !== 0 || !r.stdout.startsWith(`Usage: jig ${path}`)) {
        failed.push(`${path}: exit ${r.code}, ${JSON.stringify(r.stdout.slice(0, 80))} ${r.stderr}`);
      }
    }
    expect(failed).toEqual([]);
  });
});
