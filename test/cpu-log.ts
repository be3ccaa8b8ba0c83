import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, expect } from 'vitest';

/*
 * `JIG_TEST_CPU_LOG=FILE npm test` appends one line per test file: the CPU its worker spent and the
 * CPU of the child processes it waited for (servers, CLI runs, git, Chromium), from /proc/self/stat.
 * Each integration file runs in a process of its own, so the two figures are that file's
 * (docs/testing.md, "Measuring"). Off unless the variable is set.
 */
const log = process.env.JIG_TEST_CPU_LOG;
if (log) {
  // Loaded only when asked for: this file is every integration file's setup.
  const { hostPids } = await import('./helpers/cli-runner.js');
  const { started } = await import('./helpers/server.js');
  const ticks = (pid: number | 'self' = 'self'): { self: number; children: number } => {
    // Fields after the command's closing parenthesis: utime, stime, cutime, cstime are 14–17.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const n = (i: number): number => Number(f[i - 3]);
    return { self: (n(14) + n(15)) / 100, children: (n(16) + n(17)) / 100 };
  };
  const start = ticks();
  const wall = performance.now();
  // A worker runs file after file (`isolate: false`): the counts so far are earlier files'.
  const before = { ...started };
  const hostTicks = (): Map<number, number> => {
    const m = new Map<number, number>();
    for (const pid of hostPids()) {
      try {
        const t = ticks(pid);
        m.set(pid, t.self + t.children);
      } catch {
        // It ended meanwhile: the worker waited for it, and counts it.
      }
    }
    return m;
  };
  const hostAtStart = hostTicks();
  afterAll(() => {
    const end = ticks();
    // The CLI host is still running (it ends with the worker): its CPU since the file began is the
    // file's too.
    for (const [pid, t] of hostTicks()) end.children += t - (hostAtStart.get(pid) ?? 0);
    const file = relative(process.cwd(), expect.getState().testPath ?? 'unknown');
    const project =
      process.env.JIG_TEST_STORE === 'postgres'
        ? 'postgres'
        : file.startsWith('test/board-')
          ? 'browser'
          : 'sqlite';
    appendFileSync(
      log,
      `${JSON.stringify({
        file,
        project,
        self: +(end.self - start.self).toFixed(2),
        // The whole process, from its start: the worker's own start and Vitest's set-up too.
        process: +end.self.toFixed(2),
        children: +(end.children - start.children).toFixed(2),
        wall: +((performance.now() - wall) / 1000).toFixed(2),
        // When the file ended (ms since the epoch): with `wall`, a run's timeline per worker.
        ended: Date.now(),
        pid: process.pid,
        // The worker's resident size at the file's end, in MiB: every process it spawns copies
        // its page tables, so a larger worker pays more per spawn.
        rss: Math.round(process.memoryUsage().rss / 1048576),
        // Started through the helpers (test/helpers/server.ts); a file's own spawns are not counted.
        serve: started.serve - before.serve,
        cli: started.cli - before.cli,
        cliInHost: started.cliInHost - before.cliInHost,
      })}\n`,
    );
  });
}

/*
 * `JIG_TEST_WORKER_PROFILE=DIR` writes a CPU profile of each test file's own process (its in-process
 * servers and the test code) to DIR, through the inspector: Vitest's workers end in a way that
 * `--cpu-prof` never writes. `JIG_TEST_PROF=DIR` does the same for every `jig serve` a test starts
 * (test/helpers/server.ts). Read them with any .cpuprofile viewer (Chromium's DevTools).
 */
const profiles = process.env.JIG_TEST_WORKER_PROFILE;
if (profiles) {
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  afterAll(async () => {
    const { profile } = await session.post('Profiler.stop');
    mkdirSync(profiles, { recursive: true });
    writeFileSync(join(profiles, `worker-${process.pid}-${Date.now()}.cpuprofile`), JSON.stringify(profile));
  });
}
