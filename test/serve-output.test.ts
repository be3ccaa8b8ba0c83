import { spawn } from 'node:child_process';
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupAll, jigBin, startJig, tempHome } from './helpers/server.js';

/*
 * `jig serve`'s log on stderr: readable lines at a terminal, JSON lines otherwise (a service
 * manager or a pipe reads them), and JIG_LOG_FORMAT decides instead of the guess.
 */

afterAll(cleanupAll);

/** Runs `jig serve` on a terminal (script(1) gives it one) until it listens, then stops it. */
function serveOnTty(env: NodeJS.ProcessEnv): Promise<string> {
  const home = tempHome();
  mkdirSync(join(home, 'config'), { recursive: true });
  writeFileSync(join(home, 'config', 'access.yaml'), 'bind: 127.0.0.1\nport: 0\n');
  return new Promise((resolve, reject) => {
    const p = spawn('script', ['-qec', `${process.execPath} ${jigBin} serve`, '/dev/null'], {
      env: { ...process.env, JIG_HOME: home, JIG_HOST: '', JIG_PORT: '', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let interrupted = false;
    const timer = setTimeout(() => {
      p.kill('SIGKILL');
      reject(new Error(`jig serve did not start on a terminal:\n${out}`));
    }, 30_000);
    p.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      // Ctrl-C through the terminal, once: the server stops as a person would stop it. (Sent on
      // every chunk, the terminal's echo of each ^C asks for the next: a flood that starves it.)
      if (/jig listening on /.test(out) && !interrupted) {
        interrupted = true;
        p.stdin.write('\x03');
      }
    });
    // The terminal closes as the server stops: a late write to it is no failure.
    p.stdin.on('error', () => undefined);
    p.on('exit', () => {
      clearTimeout(timer);
      // Colours off: the assertions read the words.
      resolve(out.replace(/\x1b\[[0-9;]*m/g, ''));
    });
  });
}

describe('jig serve output', () => {
  it('on a terminal, logs readable lines, not JSON', async () => {
    const out = await serveOnTty({});
    expect(out).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: jig listening$/m);
    expect(out).toContain('jig listening on http://127.0.0.1:');
    expect(out).not.toContain('{"level"');
  });

  it('JIG_LOG_FORMAT=json keeps JSON lines even on a terminal', async () => {
    const out = await serveOnTty({ JIG_LOG_FORMAT: 'json' });
    expect(out).toMatch(/\{"level":30,"time":\d+,"pid":\d+,"hostname":"[^"]*","bind":"127\.0\.0\.1"/);
  });

  it('not on a terminal, logs JSON lines', async () => {
    const jig = await startJig();
    // The helper reads the server's stderr through a pipe.
    await expect.poll(() => jig.stderr().split('\n')[0]).toMatch(/^\{"level":\d+,/);
  });
});
