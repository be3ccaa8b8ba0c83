import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { packageRoot } from '../package-root.js';

/*
 * A chain test's own `jig serve` (ADR 0041): the whole engine, in a process and a home of its own,
 * on a loopback port. Its environment is a short list (no forge or model credentials reach it).
 */

const KEPT = [
  'PATH',
  'HOME',
  'USER',
  'LANG',
  'TZ',
  'TMPDIR',
  'GIT_AUTHOR_NAME',
  'GIT_AUTHOR_EMAIL',
  'GIT_COMMITTER_NAME',
  'GIT_COMMITTER_EMAIL',
];

export interface ChildServer {
  url: string;
  stop(): Promise<void>;
}

/** How long a test server may take to listen (a cold start is about a second). */
const START_MS = 30_000;

export function startChildServer(home: string, extra: Record<string, string> = {}): Promise<ChildServer> {
  // It stops by itself once this process is gone (serve-actions.ts watchParent).
  const env: Record<string, string> = { JIG_HOME: home, JIG_EXIT_WITH_PARENT: String(process.pid) };
  for (const k of KEPT) if (process.env[k] !== undefined) env[k] = process.env[k];
  Object.assign(env, extra);
  const child: ChildProcess = spawn(
    process.execPath,
    [join(packageRoot, 'bin', 'jig.js'), 'serve', '--host', '127.0.0.1', '--port', '0'],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`the test server did not listen within ${START_MS / 1000} s: ${err.trim()}`));
    }, START_MS);
    child.stdout?.on('data', (d: Buffer) => {
      // Read on for as long as it runs (a full pipe would stall it), keeping only the tail.
      out = (out + d.toString()).slice(-4000);
      const url = /jig listening on (\S+) /.exec(out)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ url: url.replace(/\/$/, ''), stop });
      }
    });
    child.stderr?.on('data', (d: Buffer) => {
      err = (err + d.toString()).slice(-4000);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the test server exited (${code ?? 'signal'}) before listening: ${err.trim()}`));
    });
  });
}
