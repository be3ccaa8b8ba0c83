import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually } from './helpers/eventually.js';
import { http, jigBin } from './helpers/server.js';

/*
 * `jig serve --demo` (issue 48): a throwaway home under the temp folder, a sample repository, and
 * items in every state the board groups, filed through the API.
 */

const tmp = mkdtempSync(join(tmpdir(), 'jig-demo-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('jig serve --demo', () => {
  it('serves a throwaway home with items in every state, on a free port', async () => {
    const env = { ...process.env, TMPDIR: tmp, JIG_HOME: join(tmp, 'not-this-one') };
    const proc = spawn(process.execPath, [jigBin, 'serve', '--demo'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    proc.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    proc.stderr.resume();
    const exited = new Promise<number | null>((res) => proc.on('exit', (code) => res(code)));
    try {
      const url = await eventually(
        () => {
          const m = /^open (http:\/\/127\.0\.0\.1:\d+) to look around/m.exec(out);
          return m?.[1];
        },
        { what: 'the demo says where to look', tries: 600 },
      );
      const home = /a throwaway home at (\S+) with/.exec(out)?.[1] ?? '';
      expect(home.startsWith(join(tmp, 'jig-demo-'))).toBe(true);
      expect(existsSync(join(tmp, 'not-this-one'))).toBe(false);
      expect(url).not.toBe('http://127.0.0.1:8765');

      const items = (await http(`${url}/api/work-items?archived=all&limit=50`)).json.items as any[];
      const state = (title: string) => {
        const i = items.find((x) => x.title === title);
        return [i?.status, i?.display_status, i?.archived];
      };
      expect(items).toHaveLength(8);
      expect(state('Say hello in French')).toEqual(['completed', 'done', false]);
      expect(state('Say hello in Spanish')).toEqual(['completed', 'archived', true]);
      expect(state('Say hello in German')).toEqual(['stopped', 'needs_you', false]);
      expect(state('Port the greeter to C')).toEqual(['stopped', 'needs_you', false]);
      expect(state('Translate every greeting')).toEqual(['running', 'running', false]);
      expect(state('Say hello in Italian')).toEqual(['paused', 'paused', false]);
      expect(state('Say hello in Latin')).toEqual(['blocked', 'blocked', false]);
      expect(state('Say hello in Klingon')).toEqual(['cancelled', 'cancelled', false]);
      const repos = (await http(`${url}/api/repos`)).json.repos;
      expect(repos.map((r: any) => [r.path, r.default_chain])).toEqual([[join(home, 'sample-repo'), 'demo']]);
    } finally {
      // A demo pauses its running items as it stops: no command of it outlives the server.
      proc.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
    const left = spawnSync('pgrep', ['-f', `${tmp}/jig-demo-`], { encoding: 'utf8' }).stdout.trim();
    expect(left).toBe('');
  });
});
