/**
 * Loading and resolving a large config set through `validateConfigSet` (every file, extends,
 * canonical paths, checks across files), beside the raw `yaml` parse of the same texts in the
 * same run. The set: the seeded library, harnesses, policy, repos and intake, plus a generated
 * library of 50 chains of 12 nodes each. Run: npm run bench -- config-load
 */
import { parse } from 'yaml';
import { validateConfigSet } from '../src/core/config/validate-set.js';
import type { ConfigTexts } from '../src/core/config/validate-set.js';
import { CHAINS, freshTexts, NODES, seeded, texts } from './config-set.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function time(fn: () => void): number[] {
  fn(); // warm up: the first call also compiles the code paths
  const out: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    fn();
    out.push(performance.now() - t0);
  }
  return out;
}

const set = texts();
const all = [
  set.library!,
  ...Object.values(set.chains),
  set.harnesses!,
  set.policy!,
  set.repos!,
  set.intake!,
];
const bytes = all.reduce((n, t) => n + Buffer.byteLength(t), 0);

const check = validateConfigSet(set);
const resolved = Object.values(check.chains).filter((c) => c.resolved).length;
if (check.problems.length > 0 || resolved !== CHAINS) {
  console.error(check.problems.slice(0, 5));
  throw new Error(`the generated set should resolve cleanly (${resolved}/${CHAINS} chains resolved)`);
}
const tasks = Object.values(check.chains).reduce(
  (n, c) =>
    n +
    c.resolved!.nodes.reduce(
      (m, node) => m + (node.kind === 'exec' ? node.steps.flatMap((s) => s.tasks).length : 0),
      0,
    ),
  0,
);

const raw = median(time(() => all.forEach((t) => parse(t))));
const full = median(time(() => validateConfigSet(freshTexts(set))));
console.log(
  `config set: ${all.length} files, ${(bytes / 1024).toFixed(0)} KiB; ${CHAINS} chains x ${NODES} nodes, ${tasks} tasks in their main plans`,
);
console.log(`raw yaml parse (yaml.parse per file)    median ${raw.toFixed(1)} ms   (${RUNS} runs)`);
console.log(`validateConfigSet (load + resolve + all checks) median ${full.toFixed(1)} ms   (${RUNS} runs)`);
console.log(`ratio validateConfigSet/raw parse: ${(full / raw).toFixed(2)}x`);

// The seeded set (three chains): what each /api/templates read and each reload pays on a new home.
const seededSet: ConfigTexts = { ...set, chains: {} };
for (const id of ['default', 'merge-request', 'quick-task'])
  seededSet.chains[id] = seeded(`chains/${id}.yaml`);
const seededAll = [
  seededSet.library!,
  ...Object.values(seededSet.chains),
  set.harnesses!,
  set.policy!,
  set.repos!,
  set.intake!,
];
const seededRaw = median(time(() => seededAll.forEach((t) => parse(t))));
const seededFull = median(time(() => validateConfigSet(freshTexts(seededSet))));
console.log(
  `seeded set (${seededAll.length} files): raw parse ${seededRaw.toFixed(1)} ms, validateConfigSet ${seededFull.toFixed(1)} ms, ratio ${(seededFull / seededRaw).toFixed(2)}x`,
);
