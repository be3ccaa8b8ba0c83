import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { liveServer, type PidRecord } from '../src/runtime/home/pid-lock.js';
import { removeLeftovers } from '../src/runtime/chain-test/run-chain-test.js';
import { eventually } from './helpers/eventually.js';
import { jigBin } from './helpers/server.js';

/*
 * Issue 51: a chain test's own server never outlives the server that started it. It stops by
 * itself once its parent is gone (JIG_EXIT_WITH_PARENT), and a home left behind with a live server
 * in it is ended and removed by the next test run or start.
 */

const started: number[] = [];

afterAll(() => {
  // Only what this file started, and only if a failed assertion left it running.
  for (const pid of started) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone, as it should be.
    }
  }
});

const listening = (pidPath: string): Promise<PidRecord> =>
  eventually(() => (liveServer(pidPath)?.port ? liveServer(pidPath) : undefined) ?? undefined, {
    what: `a server to listen and write ${pidPath}`,
  });

const shortEnv = (home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  JIG_HOME: home,
  ...extra,
});

describe('a chain test server left behind', () => {
  it('stops cleanly by itself once the process that started it is killed', async () => {
    const home = mkdtempSync(join(tmpdir(), 'jig-orphan-'));
    // A shell stands in for the parent server: it starts `jig serve` with its own pid, then waits.
    const parent = spawn(
      'sh',
      [
        '-c',
        `JIG_EXIT_WITH_PARENT=$$ "${process.execPath}" "${jigBin}" serve --host 127.0.0.1 --port 0 & wait`,
      ],
      { env: shortEnv(home), stdio: 'ignore' },
    );
    if (parent.pid === undefined) throw new Error('sh did not start');
    started.push(parent.pid);
    const pidPath = join(home, 'run', 'jig.pid');
    const child = await listening(pidPath);
    started.push(child.pid);
    process.kill(parent.pid, 'SIGKILL');
    // A clean stop removes the pid file; a kill would leave it.
    await eventually(() => !existsSync(pidPath), {
      what: 'the orphaned server to stop and remove its pid file',
    });
    expect(liveServer(pidPath)).toBeNull();
  });

  it('a server whose parent lives on keeps running', async () => {
    const home = mkdtempSync(join(tmpdir(), 'jig-orphan-'));
    const child = spawn(process.execPath, [jigBin, 'serve', '--host', '127.0.0.1', '--port', '0'], {
      env: shortEnv(home, { JIG_EXIT_WITH_PARENT: String(process.pid) }),
      stdio: 'ignore',
    });
    if (child.pid === undefined) throw new Error('jig serve did not start');
    started.push(child.pid);
    const rec = await listening(join(home, 'run', 'jig.pid'));
    // Several of its polls later it still answers.
    await new Promise((r) => setTimeout(r, 1500));
    const health = await fetch(`http://127.0.0.1:${rec.port}/api/health`);
    expect(health.status).toBe(200);
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  });

  it('removeLeftovers ends a server still running in a test home and removes the home', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'jig-leftovers-'));
    const home = join(tmp, 'jig-chain-test-abc', 'home');
    mkdirSync(home, { recursive: true });
    // Detached and unwatched, as a server whose parent's watch never ran would be.
    const child = spawn(process.execPath, [jigBin, 'serve', '--host', '127.0.0.1', '--port', '0'], {
      env: shortEnv(home),
      stdio: 'ignore',
      detached: true,
    });
    if (child.pid === undefined) throw new Error('jig serve did not start');
    started.push(child.pid);
    const exited = new Promise((r) => child.once('exit', (code, signal) => r(signal ?? code)));
    await listening(join(home, 'run', 'jig.pid'));
    mkdirSync(join(tmp, 'unrelated'));
    removeLeftovers(tmp);
    expect(await exited).toBe('SIGKILL');
    expect(readdirSync(tmp)).toEqual(['unrelated']);
  });
});
