/**
 * Per-task overhead of the engine: a chain of 50 `true` subprocess tasks (50 steps, one task each)
 * beside 50 plain spawns of `true` in the same run. Run: npm run build && npm run bench -- engine
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from './built-server.js';
import { record } from './figures.js';
import { benchRepo } from './git-repo.js';

const TASKS = 50;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

async function rawSpawns(): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < TASKS; i++) {
    await new Promise<void>((res) => spawn('true', { stdio: 'ignore' }).once('exit', () => res()));
  }
  return performance.now() - t0;
}

async function engineRun(root: string, dir: string, n: number): Promise<number> {
  const home = join(root, `home${n}`);
  mkdirSync(join(home, 'config', 'chains'), { recursive: true });
  const steps = Array.from(
    { length: TASKS },
    (_, i) =>
      `      - id: s${i}\n        tasks:\n          - id: t\n            kind: subprocess\n            argv: ['true']\n`,
  ).join('');
  writeFileSync(
    join(home, 'config', 'chains', 'many.yaml'),
    `nodes:\n  - id: work\n    kind: exec\n    steps:\n${steps}`,
  );
  const jig = await startServer({
    host: '127.0.0.1',
    port: 0,
    env: { JIG_SANDBOX_DEFAULT: 'none', JIG_HOME: home },
  });
  try {
    const post = (path: string, body: unknown) =>
      fetch(`${jig.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.json() as Promise<{ id: string; status: string }>);
    await post('/api/repos', { path: dir, test_command: '', setup_command: '' });
    const item = await post('/api/work-items', { title: 'many', repo: dir, chain: 'many' });
    // The end is heard from the event log in this process: polling the item every few
    // milliseconds made the server read and answer it some 300 times, which was counted as the
    // engine's own cost.
    const ended = new Promise<string>((resolve) => {
      const stop = jig.inst.events.subscribe((events) => {
        for (const e of events) {
          if (e.work_item_id !== item.id) continue;
          if (e.type === 'work_item_completed' || e.type === 'work_item_needs_human') {
            stop();
            resolve(e.type);
          }
        }
      });
    });
    // Timed from the start request to completion; the worktree is cut once, inside the timing.
    const t0 = performance.now();
    await post(`/api/work-items/${item.id}/resume`, {});
    if ((await ended) !== 'work_item_completed') throw new Error('the chain stopped');
    return performance.now() - t0;
  } finally {
    await jig.close();
  }
}

const root = mkdtempSync(join(tmpdir(), 'jig-bench-'));
try {
  const dir = benchRepo(root);
  const raw: number[] = [];
  const eng: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    raw.push(await rawSpawns());
    eng.push(await engineRun(root, dir, i));
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const r = med(raw);
  const e = med(eng);
  console.log(
    `${TASKS} raw spawns of true           ${r.toFixed(0)} ms  (${(r / TASKS).toFixed(1)} ms each)`,
  );
  console.log(
    `chain of ${TASKS} true tasks            ${e.toFixed(0)} ms  (${(e / TASKS).toFixed(1)} ms each, worktree included)`,
  );
  console.log(`engine overhead per task            ${((e - r) / TASKS).toFixed(1)} ms (median of ${RUNS})`);
  record('engine_ms', (e - r) / TASKS);
} finally {
  rmSync(root, { recursive: true, force: true });
}
