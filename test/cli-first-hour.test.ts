import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { engineSetup, fileItem, until } from './helpers/engine.js';
import { cleanupAll, runJig, startJig, tempHome } from './helpers/server.js';

/*
 * What a new user met on the CLI (issue 48): a launch failure shown as the setup's output, a bad
 * flag answered with 40 lines of help, and a CLI that looked on 8765 after a server on another port
 * had stopped.
 */

afterAll(cleanupAll);

describe('the CLI in the first hour', () => {
  it('a bad flag prints the error and the one usage line of its command, exit 2', async () => {
    const r = await runJig(['item', 'reject', '--bogus'], { JIG_HOME: tempHome() });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "error: unknown option '--bogus'\nusage: jig item reject [options] [id]  (jig item reject --help for more)\n",
    );
    const root = await runJig(['fooo'], { JIG_HOME: tempHome() });
    expect([root.code, root.stderr.split('\n').length]).toEqual([2, 3]);
  });

  it('after the server stops, the CLI looks where it last listened, not on 8765', async () => {
    const jig = await startJig();
    const port = new URL(jig.url).port;
    await jig.stop();
    expect(JSON.parse(readFileSync(join(jig.home, 'run', 'last-port'), 'utf8'))).toEqual({
      bind: '127.0.0.1',
      port: Number(port),
    });
    const r = await runJig(['view', 'list'], { JIG_HOME: jig.home, JIG_URL: undefined });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`no Jig server answers at http://127.0.0.1:${port} `);
  });

  it('view logs of an item stopped on a launch failure prints the failure, not the setup output', async () => {
    const { jig, repo } = await engineSetup({}, { setup: 'echo setting things up' });
    // The default chain's first agent (claude) is not installed where the tests run.
    const item = await fileItem(jig, repo, 'default');
    await until(jig, item.id, (i) => i.status === 'stopped');
    const env = { JIG_HOME: jig.home, JIG_URL: jig.url };
    const r = await runJig(['view', 'logs', item.id], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      `item ${item.id} stopped (config) before a task wrote why: spec.main.author: no launch could start: claude: executable claude is not installed here (not on PATH)\n`,
    );
    expect(r.stderr).toMatch(
      /^jig: its latest session, \S+ \(setup\), passed; --session \S+ shows its output\n$/,
    );
    // The setup's output is still there when asked for.
    const session = /--session (\S+)/.exec(r.stderr)?.[1] ?? '';
    const setup = await runJig(['view', 'logs', item.id, '--session', session], env);
    expect(setup.stdout).toContain('setting things up');
  });
});
