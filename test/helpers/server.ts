import { removeHome } from './remove-home.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runInHost } from './cli-runner.js';
import { databaseFor } from './test-store.js';

export const repoRoot = resolve(import.meta.dirname, '..', '..');
export const jigBin = join(repoRoot, 'bin', 'jig.js');

const homes: string[] = [];
const procs: ChildProcess[] = [];

/** How many servers and CLI processes this file started, for the CPU log (test/cpu-log.ts). */
export const started = { serve: 0, cli: 0, cliInHost: 0 };

/** A fresh, empty JIG_HOME; removed by cleanupAll(). */
export function tempHome(prefix = 'jig-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  homes.push(dir);
  return dir;
}

export interface JigProcess {
  url: string;
  home: string;
  proc: ChildProcess;
  pid: number;
  stdout(): string;
  stderr(): string;
  /** Sends a signal and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface StartOptions {
  home?: string;
  env?: NodeJS.ProcessEnv;
  args?: string[];
  timeoutMs?: number;
  /** The folder it starts in (default: the test's, which is Jig's own checkout). */
  cwd?: string;
}

/** Runs the real `jig serve` (built CLI) on port 0 in a temp home and waits until it listens. */
export async function startJig(opts: StartOptions = {}): Promise<JigProcess> {
  const home = opts.home ?? tempHome();
  const args = opts.args ?? ['--port', '0'];
  // Under `npm run test:pg` each home's server keeps its state in a PostgreSQL database of its own.
  const database = opts.env?.JIG_DATABASE_URL === undefined ? await databaseFor(home) : null;
  // JIG_TEST_PROF=DIR: a CPU profile of each server, written when it ends (docs/testing.md).
  const prof = process.env.JIG_TEST_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.JIG_TEST_PROF}`] : [];
  started.serve++;
  const proc = spawn(process.execPath, [...prof, jigBin, 'serve', ...args], {
    env: {
      ...process.env,
      JIG_HOME: home,
      JIG_HOST: '',
      JIG_PORT: '',
      ...(database ? { JIG_DATABASE_URL: database } : {}),
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(opts.cwd ? { cwd: opts.cwd } : {}),
  });
  procs.push(proc);
  let out = '';
  let err = '';
  proc.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  proc.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) =>
    proc.once('exit', (code, signal) => res({ code, signal })),
  );
  const url = await new Promise<string>((res, rej) => {
    const timer = setTimeout(
      () => rej(new Error(`jig serve did not start in time\nstdout: ${out}\nstderr: ${err}`)),
      opts.timeoutMs ?? 20_000,
    );
    const check = (): void => {
      // A worker (`--worker`) names the loopback port its tasks call instead.
      const m = /jig listening on (\S+) |tasks' API on (\S+)\)/.exec(out);
      if (m) {
        clearTimeout(timer);
        res((m[1] ?? m[2])!);
      }
    };
    proc.stdout.on('data', check);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      rej(new Error(`jig serve exited (${code ?? signal}) before listening\nstderr: ${err}`));
    });
  });
  return {
    url,
    home,
    proc,
    pid: proc.pid!,
    stdout: () => out,
    stderr: () => err,
    exited,
    async stop(signal = 'SIGTERM') {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      return exited;
    },
  };
}

/**
 * Runs a `jig` CLI command to completion: in the test file's CLI host (helpers/cli-runner.ts) when
 * it is free, else in a process of its own, as `runJigProcess` always does.
 */
export async function runJig(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  input?: string,
  cwd?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const inHost = await runInHost(jigBin, args, { ...process.env, ...env }, input, cwd);
  if (inHost) started.cliInHost++;
  return inHost ?? runJigProcess(args, env, input, cwd);
}

/**
 * Runs a `jig` CLI command to completion in a process of its own (`node bin/jig.js …`). `env` adds to
 * the test's environment; a key set to undefined is left out.
 */
export function runJigProcess(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  input?: string,
  cwd?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  started.cli++;
  return new Promise((res) => {
    const p = spawn(process.execPath, [jigBin, ...args], {
      env: { ...process.env, ...env },
      ...(cwd === undefined ? {} : { cwd }),
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    p.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    p.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    if (input !== undefined) p.stdin!.end(input);
    p.on('exit', (code) => res({ code, stdout, stderr }));
  });
}

export interface HttpResult {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

/** One HTTP request; `json` is the parsed body or null. */
export async function http(
  url: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string>; raw?: string } = {},
): Promise<HttpResult> {
  const headers: Record<string, string> = { ...init.headers };
  let body: string | undefined = init.raw;
  if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(url, { method: init.method ?? 'GET', headers, body });
  const text = await res.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** Kills every server still running and removes every temp home. Call from afterAll/afterEach. */
export async function cleanupAll(): Promise<void> {
  await cleanupAllBut(null);
}

/** cleanupAll, sparing one server and its home (a file's shared server between its tests). */
export async function cleanupAllBut(spared: { proc: ChildProcess; home: string } | null): Promise<void> {
  for (const p of procs.splice(0)) {
    if (p === spared?.proc) {
      procs.push(p);
      continue;
    }
    if (p.exitCode === null && p.signalCode === null) {
      const gone = new Promise((r) => p.once('exit', r));
      // A server writes its profile only when it ends by itself (SIGTERM).
      p.kill(process.env.JIG_TEST_PROF ? 'SIGTERM' : 'SIGKILL');
      await gone;
    }
  }
  for (const h of homes.splice(0)) {
    if (h === spared?.home) homes.push(h);
    // A task the killed server started may still write its log there: end it, then remove.
    else await removeHome(h);
  }
}
