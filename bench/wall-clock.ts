/**
 * The wall-clock sweep (`total_time_cap_minutes`, gate timeouts) over N items waiting at a gate,
 * beside the baseline of N plain `getItem` reads (row read and JSON parse) on the same store in the
 * same process. The sweep runs once a second in the server, so its cost per second of wall time is
 * what it adds to an instance with that many items waiting. Run: npm run bench -- wall-clock
 */
import type { Walk } from '../src/contract/walk.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from './built-server.js';
import { getItem, updateItem } from '../src/store/work-items.js';
import { WallClocks } from '../src/runtime/engine/wall-clock.js';
import { systemClock } from '../src/runtime/clock.js';
import { benchRepo } from './git-repo.js';

const N = Number(process.env.BENCH_ITEMS ?? 500);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const root = mkdtempSync(join(tmpdir(), 'jig-bench-'));
try {
  const repo = benchRepo(root);
  const jig = await startServer({
    host: '127.0.0.1',
    port: 0,
    env: { JIG_SANDBOX_DEFAULT: 'none', JIG_HOME: join(root, 'home') },
  });
  const { inst } = jig;
  const connected = await fetch(`${jig.url}/api/repos`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ path: repo, test_command: '', setup_command: '' }),
  });
  if (connected.status !== 201) throw new Error(`connect failed: ${connected.status}`);
  const chain = inst.config.runningChains.get('default')?.resolved;
  if (!chain) throw new Error('the default chain does not resolve');
  const gate = chain.nodes.findIndex((n) => n.kind === 'gate');
  const at = new Date().toISOString();
  const ids: string[] = [];
  for (let i = 0; i < N; i++) {
    const rec = await inst.items.create(
      { title: `Waiting ${i}`, description: '', repo, chain: 'default' },
      'human',
      'human',
    );
    // Each item waits at the chain's first gate with every clock running, as a real one would.
    const walk: Walk = {
      v: 1,
      phase: 'node',
      node: gate,
      step: 0,
      rejects: {},
      approved: [],
      clock: { at, paused_ms: 0 },
      gate_clock: { at, paused_ms: 0 },
    };
    await updateItem(inst.store.db, rec.id, {
      status: 'stopped',
      stop_kind: 'gate',
      current_node: chain.nodes[gate]!.id,
      chain_definition: chain,
      policy_snapshot: inst.config.policy,
      policy_override: { work_item: { total_time_cap_minutes: 600 } },
      walk,
    });
    ids.push(rec.id);
  }
  const clocks = new WallClocks(
    {
      store: inst.store,
      events: inst.events,
      log: inst.log,
      clock: systemClock(),
      config: inst.config,
    },
    { promote: () => {} },
    { end: async () => {} },
    3_600_000,
  );
  const base: number[] = [];
  const sweep: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    let t0 = performance.now();
    for (const id of ids) await getItem(inst.store.db, id);
    base.push(performance.now() - t0);
    t0 = performance.now();
    await clocks.sweep();
    sweep.push(performance.now() - t0);
  }
  const stopped = (await getItem(inst.store.db, ids[0]!))?.stop_kind;
  if (stopped !== 'gate') throw new Error(`a sweep stopped an item it should not have (${stopped})`);
  const b = median(base);
  const s = median(sweep);
  console.log(`${N} items waiting at a gate, median of ${RUNS}`);
  console.log(
    `baseline: ${N} getItem reads        ${b.toFixed(1).padStart(7)} ms  ${((b / N) * 1000).toFixed(0)} µs/item`,
  );
  console.log(
    `sweep over ${N} items               ${s.toFixed(1).padStart(7)} ms  ${((s / N) * 1000).toFixed(0)} µs/item`,
  );
  console.log(`ratio sweep/baseline ${(s / b).toFixed(2)}x; share of each second: ${(s / 10).toFixed(1)} %`);
  await jig.close();
} finally {
  rmSync(root, { recursive: true, force: true });
}
