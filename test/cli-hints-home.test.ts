import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATED_CHAIN } from './helpers/gated-chain.js';
import { engineSetup, until } from './helpers/engine.js';
import { cleanupAll, jigBin, runJig, type JigProcess } from './helpers/server.js';

/*
 * Two conventions of every verb: a next-step hint after an act, on a terminal only; and a note
 * when the server answering runs on another home than the CLI's.
 */

let jig: JigProcess;
let repo: string;
beforeAll(async () => {
  ({ jig, repo } = await engineSetup({ gated: GATED_CHAIN }));
});
afterAll(cleanupAll);

type Run = { code: number | null; stdout: string; stderr: string };

function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const full: NodeJS.ProcessEnv = { JIG_HOME: jig.home, NO_COLOR: '1', JIG_WORK_ITEM_ID: undefined, ...env };
  if (!env.JIG_URL) full.JIG_URL = undefined;
  return runJig(args, full, undefined, repo);
}

/** The same verb on a terminal (util-linux `script`), its output as the terminal shows it. */
function onTty(args: string[]): Promise<string> {
  return new Promise((res) => {
    const quoted = args.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    const p = spawn('script', ['-qec', `${process.execPath} ${jigBin} ${quoted}`, '/dev/null'], {
      cwd: repo,
      env: { ...process.env, JIG_HOME: jig.home, NO_COLOR: '1', JIG_WORK_ITEM_ID: '' },
    });
    let out = '';
    p.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    p.on('exit', () => res(out.replace(/\r\n/g, '\n')));
  });
}

describe('next-step hints', () => {
  it('follow an act on a terminal, and never reach a pipe', async () => {
    const filed = await onTty(['item', 'create', 'Hinted', '--chain', 'gated']);
    const id = /^filed ([a-z2-9]{8}) "Hinted" on gated, paused$/m.exec(filed)?.[1];
    expect(id, filed).toBeDefined();
    expect(filed).toContain(`\nnext: jig item resume ${id}  (starts it)\n`);
    const piped = await cli(['item', 'create', 'Piped', '--chain', 'gated']);
    expect(piped.stdout).toMatch(/^filed [a-z2-9]{8} "Piped" on gated, paused\n$/);

    await cli(['item', 'resume', id!]);
    await until(jig, id!, (i) => i.status === 'stopped' && i.stop?.kind === 'gate');
    const rejected = await onTty(['item', 'reject', id!, '--note', 'again']);
    expect(rejected).toContain(`rejected review on ${id}`);
    // The rejection sends the item back to build, which runs to the gate again.
    expect(rejected).toMatch(new RegExp(`next: (jig view events ${id} -f|jig view doc ${id} artifact)`));
    await until(jig, id!, (i) => i.status === 'stopped' && i.stop?.kind === 'gate');
    const approved = await onTty(['item', 'approve', id!]);
    expect(approved).toContain(
      `approved review on ${id}; the item is now running\nnext: jig view events ${id} -f  (follow it to the end)\n`,
    );
  });
});

describe('the server of another home', () => {
  it('is named once on stderr when found through this home; JIG_URL and the own home are not second-guessed', async () => {
    const other = mkdtempSync(join(tmpdir(), 'jig-other-home-'));
    mkdirSync(join(other, 'run'), { recursive: true });
    // This home's pid file says where "its" server is: the port of a server on another home.
    copyFileSync(join(jig.home, 'run', 'jig.pid'), join(other, 'run', 'jig.pid'));
    const note = `jig: note: the server at ${jig.url} runs on another home than this CLI's (${other}); set JIG_HOME to its home, or JIG_URL to pick a server on purpose\n`;
    const listed = await cli(['view', 'list', '--all'], { JIG_HOME: other });
    expect(listed.code).toBe(0);
    expect(listed.stderr).toBe(note);
    const own = await cli(['view', 'list', '--all']);
    expect(own).toMatchObject({ code: 0, stderr: '' });
    const chosen = await cli(['view', 'list', '--all'], { JIG_HOME: other, JIG_URL: jig.url });
    expect(chosen).toMatchObject({ code: 0, stderr: '' });
  });
});
