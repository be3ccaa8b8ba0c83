/**
 * Every goal of docs/performance.md measured once, small, in about a minute: the same benchmarks
 * as `npm run bench`, each in its own process with short runs, their figures collected
 * (figures.ts) and printed beside the goals and the figures the document last recorded. Written as
 * JSON too (`--out FILE`, default dist/bench-smoke.json). `.ci/run` runs it after the tests so every
 * landing shows its ratios. It judges nothing: a short run on a shared machine is a smoke signal,
 * not a measurement, and no figure fails a build.
 * Run: npm run build && npm run bench:smoke
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Figure } from './figures.js';

const root = resolve(import.meta.dirname, '..');

/** Each benchmark with the settings that keep it short. */
const runs: { bench: string; env: Record<string, string> }[] = [
  { bench: 'startup', env: { BENCH_RUNS: '3' } },
  { bench: 'triggers', env: { BENCH_SECONDS: '2', BENCH_ROUNDS: '1' } },
  { bench: 'engine', env: { BENCH_RUNS: '1' } },
  { bench: 'fanout', env: { BENCH_SECONDS: '2', BENCH_ROUNDS: '1' } },
  { bench: 'ws-latency', env: { BENCH_ROUNDS: '1' } },
];

interface Goal {
  key: string;
  measure: string;
  /** As the document writes it: `≥ 0.6×`, `≤ 3 ms`, `< 10 ms`. */
  goal: string;
  documented: string;
}

/** The goals table of docs/performance.md: one row per figure, its key in the first column. */
function goals(): Goal[] {
  const text = readFileSync(join(root, 'docs', 'performance.md'), 'utf8');
  const at = text.indexOf('## Goals');
  if (at < 0) throw new Error('docs/performance.md has no "## Goals" section');
  const out: Goal[] = [];
  for (const line of text.slice(at).split('\n').slice(1)) {
    if (line.startsWith('#')) break;
    const cells = line.split('|').map((c) => c.trim());
    const [, key, measure, goal, documented] = cells;
    if (!key || !measure || !goal || documented === undefined || !/^`[a-z_0-9]+`$/.test(key)) continue;
    out.push({ key: key.slice(1, -1), measure, goal, documented });
  }
  return out;
}

/** Whether a figure meets a goal written as `≥ 0.6×`, `≤ 3 ms` or `< 10 ms`. */
function meets(value: number, goal: string): boolean | null {
  const m = /^([≥≤<>])\s*([\d.]+)/.exec(goal);
  if (!m) return null;
  const bound = Number(m[2]);
  return { '≥': value >= bound, '≤': value <= bound, '<': value < bound, '>': value > bound }[m[1]!] ?? null;
}

const outArg = process.argv.indexOf('--out');
const out = outArg > 0 ? resolve(process.argv[outArg + 1] ?? '') : join(root, 'dist', 'bench-smoke.json');
const dir = mkdtempSync(join(tmpdir(), 'jig-smoke-'));
const figuresFile = join(dir, 'figures.jsonl');
const failed: string[] = [];
const started = performance.now();
try {
  for (const r of runs) {
    const t0 = performance.now();
    const child = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'bench', 'run.ts'), r.bench], {
      cwd: root,
      env: { ...process.env, ...r.env, BENCH_FIGURES: figuresFile },
      encoding: 'utf8',
      // Bounded: a benchmark that hangs is reported, not waited for.
      timeout: 180_000,
    });
    const secs = ((performance.now() - t0) / 1000).toFixed(0);
    if (child.status !== 0) {
      failed.push(r.bench);
      console.log(`${r.bench}: failed after ${secs} s (${child.error?.message ?? `exit ${child.status}`})`);
      console.log((child.stderr || child.stdout).split('\n').slice(-15).join('\n'));
    } else console.log(`${r.bench}: ${secs} s`);
  }
  let lines: string[] = [];
  try {
    lines = readFileSync(figuresFile, 'utf8').split('\n').filter(Boolean);
  } catch {
    lines = [];
  }
  const figures = new Map<string, number>();
  for (const l of lines) {
    const f = JSON.parse(l) as Figure;
    figures.set(f.key, f.value);
  }
  const table = goals().map((g) => {
    const value = figures.get(g.key);
    return { ...g, now: value ?? null, met: value === undefined ? null : meets(value, g.goal) };
  });
  const shown = (v: number | null, goal: string): string =>
    v === null ? 'n/a' : goal.includes('ms') ? `${v.toFixed(1)} ms` : `${v.toFixed(2)}×`;
  const rows = table.map((t) => [
    t.measure,
    shown(t.now, t.goal),
    t.goal,
    t.met === null ? '' : t.met ? 'met' : 'not met',
    t.documented,
  ]);
  const head = ['measure', 'this run', 'goal', '', 'docs/performance.md'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const fmt = (cells: string[]): string => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  console.log(
    `\nbenchmark smoke run, ${((performance.now() - started) / 1000).toFixed(0)} s (informational)`,
  );
  console.log(fmt(head));
  for (const r of rows) console.log(fmt(r));
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(
    out,
    `${JSON.stringify({ at: new Date().toISOString(), failed, figures: table }, null, 2)}\n`,
  );
  console.log(`written to ${out}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
