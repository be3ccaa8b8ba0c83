/**
 * An op on a draft answered with its whole result object (problems from the same checks a reload
 * runs, changes, impact, sources), on the generated library of 50 chains × 12 nodes, beside one
 * `validateConfigSet` of that library in the same run. Two drafts: a chain's (`set_field` of a
 * node's description on one generated chain) and the library's (`set_field` of a task every chain
 * reaches, checked against all 50 chains), then a policy and a harnesses op, each checked against
 * the whole set. Run: npm run bench -- draft-ops
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateConfigSet } from '../src/core/config/validate-set.js';
import { systemClock } from '../src/runtime/clock.js';
import { ConfigDrafts } from '../src/runtime/drafts/config-drafts.js';
import { DraftOps } from '../src/runtime/drafts/draft-ops.js';
import { openStore } from '../src/store/database.js';
import { CHAINS, freshTexts, NODES, texts } from './config-set.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function time(fn: (i: number) => unknown): Promise<number> {
  await fn(-1); // warm up: the first call also compiles the code paths
  const out: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await fn(i);
    out.push(performance.now() - t0);
  }
  return median(out);
}

const dir = mkdtempSync(join(tmpdir(), 'jig-bench-drafts-'));
const configDir = join(dir, 'config');
mkdirSync(join(configDir, 'chains'), { recursive: true });
const set = texts();
for (const [id, text] of Object.entries(set.chains))
  writeFileSync(join(configDir, 'chains', `${id}.yaml`), text);
for (const f of ['library', 'harnesses', 'policy', 'repos', 'intake'] as const) {
  writeFileSync(join(configDir, `${f}.yaml`), set[f] ?? '');
}
const store = await openStore(join(dir, 'jig.db'));
const drafts = new ConfigDrafts({ store, configDir, clock: systemClock() });
const ops = new DraftOps(drafts);

const baseline = await time(() => validateConfigSet(freshTexts(set)));
const chainOp = await time(async (i) => {
  const op = { op: 'set_field', path: 'n1', field: 'description', value: `Review, take ${i}.` };
  const view = await ops.apply('chains', 'gen-00', [op], false);
  if (view.result.problems.length > 0) throw new Error(JSON.stringify(view.result.problems[0]));
});
const libraryOp = await time(async (i) => {
  const op = {
    op: 'set_field',
    path: 'tasks.code_review',
    field: 'description',
    value: `Reviews, take ${i}.`,
  };
  const view = await ops.apply('library', 'library', [op], false);
  if (view.result.problems.length > 0) throw new Error(JSON.stringify(view.result.problems[0]));
  if (
    view.result.impact === null ||
    !('chains' in view.result.impact) ||
    view.result.impact.chains.length < CHAINS
  ) {
    throw new Error('the library change should reach every generated chain');
  }
});

// Settings drafts check the whole set (a policy limit is checked against every chain) and add
// their resolved answer: caps with the chains that set them, live loops, harness tasks.
const policyOp = await time(async (i) => {
  const op = { op: 'set_value', scope: 'housekeeping', key: 'max_concurrent', value: 2 + (i % 5) };
  const view = await ops.apply('policy', 'policy', [op], false);
  if (view.result.problems.length > 0) throw new Error(JSON.stringify(view.result.problems[0]));
});
const harnessOp = await time(async (i) => {
  const op = { op: 'set_allowed_tools', tools: [`Read${i}`] };
  const view = await ops.apply('harnesses', 'harnesses', [op], false);
  if (view.result.resolved === null) throw new Error('the harnesses draft should resolve');
});

console.log(`library: ${CHAINS} chains x ${NODES} nodes; median of ${RUNS} runs after one warm-up`);
console.log(`baseline: validateConfigSet of the whole set   ${baseline.toFixed(1)} ms`);
console.log(
  `chain draft op, full result              ${chainOp.toFixed(1)} ms   (${(chainOp / baseline).toFixed(2)}x)`,
);
console.log(
  `library draft op, full result            ${libraryOp.toFixed(1)} ms   (${(libraryOp / baseline).toFixed(2)}x)`,
);
console.log(
  `policy draft op, full result             ${policyOp.toFixed(1)} ms   (${(policyOp / baseline).toFixed(2)}x)`,
);
console.log(
  `harnesses draft op, full result          ${harnessOp.toFixed(1)} ms   (${(harnessOp / baseline).toFixed(2)}x)`,
);
await store.db.destroy();
rmSync(dir, { recursive: true, force: true });
