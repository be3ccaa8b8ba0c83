/**
 * 1 000 schedules due in the same minute: the delay from the minute boundary to the last item
 * filed, beside the baseline of 1 000 plain ItemsService.create calls in the same process and
 * store. The poller runs on a ManualClock, so the tick starts exactly at the boundary and the
 * figure is the poller's own work (matching, firing keys, titles, intake checks, filing), with no
 * timer jitter. Also: one tick over 1 000 schedules of which none is due.
 * Run: npm run bench -- schedules
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../src/runtime/clock.js';
import { startServer } from './built-server.js';
import { benchRepo } from './git-repo.js';

const N = Number(process.env.BENCH_SCHEDULES ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const MINUTE = 60_000;

function schedulesYaml(repo: string, cron: string): string {
  const lines = ['schedules:'];
  for (let i = 0; i < N; i++) {
    lines.push(
      `  - cron: "${cron}"`,
      `    repo: ${JSON.stringify(repo)}`,
      '    chain: quick-task',
      `    title: "Scheduled chore ${i}"`,
    );
  }
  return `${lines.join('\n')}\n`;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const root = mkdtempSync(join(tmpdir(), 'jig-bench-'));
try {
  const repo = benchRepo(root);
  const home = join(root, 'home');
  const start = Date.parse('2030-01-07T08:59:30Z');
  const clock = new ManualClock(start);
  const jig = await startServer({
    host: '127.0.0.1',
    port: 0,
    env: { JIG_SANDBOX_DEFAULT: 'none', JIG_HOME: home },
    clock,
  });
  const { inst } = jig;
  const connected = await fetch(`${jig.url}/api/repos`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ path: repo, test_command: '' }),
  });
  if (connected.status !== 201) throw new Error(`connect failed: ${connected.status}`);
  await clock.advance(0); // the start's own tick, with no schedules yet

  const reload = (cron: string): void => {
    writeFileSync(join(home, 'config', 'intake.yaml'), schedulesYaml(repo, cron));
    const r = inst.config.reload();
    if (r.refused.length > 0) throw new Error(`intake.yaml refused: ${JSON.stringify(r.refused)}`);
  };

  const base: number[] = [];
  const fire: number[] = [];
  let boundary = Math.ceil(start / MINUTE) * MINUTE;
  reload('* * * * *');
  for (let run = 0; run < RUNS; run++) {
    let t0 = performance.now();
    for (let i = 0; i < N; i++) {
      await inst.items.create(
        { title: `Plain chore ${i}`, description: '', repo, chain: 'quick-task' },
        'schedule',
        'schedule',
      );
    }
    base.push(performance.now() - t0);

    const before = inst.events.lastSeq;
    t0 = performance.now();
    await clock.advanceTo(boundary); // the tick starts at the boundary and returns after the last filing
    fire.push(performance.now() - t0);
    const filed = inst.events.lastSeq - before;
    if (filed !== N) throw new Error(`expected ${N} firings, got ${filed}`);
    boundary += MINUTE;
  }

  reload('0 0 1 1 *');
  const idle: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const t0 = performance.now();
    await clock.advanceTo(boundary);
    idle.push(performance.now() - t0);
    boundary += MINUTE;
  }

  const b = median(base);
  const f = median(fire);
  console.log(`${N} schedules, median of ${RUNS} minutes`);
  console.log(
    `baseline: ${N} ItemsService.create           ${b.toFixed(0).padStart(6)} ms   ${((b / N) * 1000).toFixed(0)} µs/item`,
  );
  console.log(
    `poller: boundary → last of ${N} firings     ${f.toFixed(0).padStart(6)} ms   ${((f / N) * 1000).toFixed(0)} µs/item`,
  );
  console.log(`poller: a tick with none of ${N} due       ${median(idle).toFixed(1).padStart(6)} ms`);
  console.log(`ratio poller/baseline ${(f / b).toFixed(2)}x`);
  await jig.close();
} finally {
  rmSync(root, { recursive: true, force: true });
}
